//! What tracing costs: `atomport wave trace-cost [--count N]` runs the same
//! seeded random regression (the generator of `atomport regress`, checked
//! in lockstep with the golden model) twice, without a VCD and with one
//! per script, and prints the wall times, their ratio and the VCD bytes.
//! The target is a ratio under 4.

use std::time::{Duration, Instant};

use atomport_testbench::generator::{random_script, GenConfig};
use atomport_testbench::regress::script_seed;
use atomport_testbench::{simulate, MemConfig, RtlOptions};

/// One measurement.
#[derive(Clone, Debug)]
pub struct TraceCost {
    pub messages: usize,
    pub scripts: usize,
    pub cycles: u64,
    /// wall time
    pub untraced: Duration,
    pub traced: Duration,
    /// CPU time of the simulating thread (Linux `/proc/thread-self/schedstat`;
    /// None elsewhere): what the run costs whatever else the machine does
    pub untraced_cpu: Option<Duration>,
    pub traced_cpu: Option<Duration>,
    /// bytes of all VCDs written (one per script)
    pub vcd_bytes: u64,
}

impl TraceCost {
    /// traced time / untraced time (wall)
    pub fn ratio(&self) -> f64 {
        self.traced.as_secs_f64() / self.untraced.as_secs_f64().max(1e-9)
    }

    /// traced / untraced CPU time, when measured
    pub fn cpu_ratio(&self) -> Option<f64> {
        Some(self.traced_cpu?.as_secs_f64() / self.untraced_cpu?.as_secs_f64().max(1e-9))
    }
}

/// CPU time this thread has run, from `/proc/thread-self/schedstat`
/// (nanoseconds on the CPU, first field).
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(text.split_whitespace().next()?.parse().ok()?))
}

/// Why the trace cost could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum CostError {
    #[error("{0}")]
    Output(#[from] atomport_core::output_file::OutputError),
    #[error("{0}")]
    Generate(#[from] atomport_testbench::generator::GenerateError),
    #[error("script {script}: {source}")]
    Rtl { script: usize, source: atomport_testbench::RtlError },
    #[error("script {script}: the RTL disagrees with the golden model: {first}")]
    Mismatch { script: usize, first: String },
}

/// Runs `count` random messages (scripts of `per_script`) under `mem`,
/// untraced then traced into `vcd_dir/trace-cost-K.vcd` (each deleted
/// after it is measured).
pub fn measure(seed: u64, count: usize, per_script: usize, mem: MemConfig, vcd_dir: &std::path::Path) -> Result<TraceCost, CostError> {
    atomport_core::output_file::create_folder(vcd_dir)?;
    let mut scripts = Vec::new();
    let mut n = 0;
    while n < count {
        let messages = (count - n).min(per_script.max(1));
        let s = script_seed(seed, scripts.len());
        let g = random_script(s, &GenConfig::every_family(messages))?;
        scripts.push((s, g.program));
        n += messages;
    }
    let mut cost = TraceCost {
        messages: n,
        scripts: scripts.len(),
        cycles: 0,
        untraced: Duration::ZERO,
        traced: Duration::ZERO,
        untraced_cpu: None,
        traced_cpu: None,
        vcd_bytes: 0,
    };
    for traced in [false, true] {
        let start = Instant::now();
        let cpu_start = thread_cpu();
        for (k, (s, program)) in scripts.iter().enumerate() {
            let vcd = traced.then(|| vcd_dir.join(format!("trace-cost-{k}.vcd")));
            let opts = RtlOptions { mem: MemConfig { seed: *s, ..mem }, vcd: vcd.clone(), fst: None };
            let sim = simulate(program, &opts, true).map_err(|source| CostError::Rtl { script: k, source })?;
            if let Some(m) = sim.mismatch {
                return Err(CostError::Mismatch { script: k, first: m.to_string() });
            }
            if let Some(v) = vcd {
                cost.vcd_bytes += std::fs::metadata(&v).map(|m| m.len()).unwrap_or(0);
                let _ = std::fs::remove_file(&v);
            } else {
                cost.cycles += sim.cycles;
            }
        }
        let cpu = thread_cpu().zip(cpu_start).map(|(b, a)| b.saturating_sub(a));
        if traced {
            cost.traced = start.elapsed();
            cost.traced_cpu = cpu;
        } else {
            cost.untraced = start.elapsed();
            cost.untraced_cpu = cpu;
        }
    }
    Ok(cost)
}
