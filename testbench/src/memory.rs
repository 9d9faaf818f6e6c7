//! The memory model that serves the unit's memory port
//! (docs/microarchitecture.md, "Memory read channel", "Memory write
//! channel", "Memory ordering contract").
//!
//! * Storage: two sparse byte memories (flat and SLM), the golden model's
//!   [`Memory`], so the final state compares byte for byte.
//! * Reads: a read accepted in cycle `c` returns its 16-byte line in cycle
//!   `c + L` (`mem_rdata_valid` high in that cycle), `L` drawn uniformly
//!   from the configured latency range; returns keep acceptance order and
//!   come at most one per cycle, so a late return delays the ones behind it.
//!   The line is captured as memory held it when the read was accepted.
//! * Backpressure: in every cycle `mem_rd_ready` and `mem_wr_ready` are
//!   each low with probability `stall`, independently and without looking
//!   at the valids (the unit's valids never depend on the readies).
//! * A write is applied in the cycle it is accepted. A read and a write
//!   accepted in the same cycle are ordered by a coin flip (the contract
//!   lets memory order them either way; the unit must forward).
//!
//! Every random choice comes from one seeded generator: a run with the same
//! seed and the same RTL is cycle-for-cycle identical.

use std::collections::VecDeque;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use atomport_core::golden::sparse_memory::Memory;
use atomport_core::program::Space;

/// Bytes per memory-port line.
pub const LINE_BYTES: u64 = 16;

/// How the memory model behaves: read latency range and backpressure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemConfig {
    /// shortest read latency in cycles (>= 1)
    pub latency_min: u32,
    /// longest read latency in cycles (>= latency_min)
    pub latency_max: u32,
    /// probability (0..1) that `mem_rd_ready` (and, separately,
    /// `mem_wr_ready`) is low in a cycle
    pub stall: f64,
    /// seed of every random choice
    pub seed: u64,
}

impl MemConfig {
    /// One-cycle memory, never stalls: the throughput configuration.
    pub const FAST: MemConfig = MemConfig { latency_min: 1, latency_max: 1, stall: 0.0, seed: 1 };

    /// Random latency `1..=max_latency` and the given stall probability.
    pub fn random(max_latency: u32, stall: f64, seed: u64) -> MemConfig {
        MemConfig { latency_min: 1, latency_max: max_latency.max(1), stall, seed }
    }
}

/// A `--latency` value: `N` (every read takes N cycles) or `MIN..MAX`
/// (each read draws its latency uniformly), N >= 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LatencyRange {
    pub min: u32,
    pub max: u32,
}

/// A `--latency` value that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LatencyError {
    #[error("`{0}` is not a latency: write N or MIN..MAX (cycles, N >= 1)")]
    NotALatency(String),
    #[error("latency `{0}`: need 1 <= MIN <= MAX <= 1000 cycles (reads return at least one cycle after acceptance)")]
    OutOfRange(String),
}

impl std::str::FromStr for LatencyRange {
    type Err = LatencyError;

    fn from_str(s: &str) -> Result<LatencyRange, LatencyError> {
        let num = |t: &str| t.trim().parse::<u32>().map_err(|_| LatencyError::NotALatency(s.to_string()));
        let (min, max) = match s.split_once("..") {
            Some((a, b)) => (num(a)?, num(b.trim_start_matches('='))?),
            None => (num(s)?, num(s)?),
        };
        if min == 0 || max < min || max > 1000 {
            return Err(LatencyError::OutOfRange(s.to_string()));
        }
        Ok(LatencyRange { min, max })
    }
}

/// What the memory drives onto the unit's inputs in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemDrive {
    pub rd_ready: bool,
    pub wr_ready: bool,
    /// `mem_rdata_valid` with `mem_rdata`
    pub rdata: Option<u128>,
}

/// A read the memory accepted and has not returned yet.
#[derive(Clone, Copy, Debug)]
struct PendingReturn {
    due: u64,
    line: u128,
}

/// What the unit's memory port went through, as the pins showed it
/// (functional coverage, [`super::funcov`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortActivity {
    /// reads by the latency they got (acceptance to return), when it was
    /// the latency drawn
    pub read_latency: std::collections::BTreeMap<u32, u64>,
    /// reads whose return queued behind an earlier one (one return per cycle)
    pub read_queued: u64,
    /// cycles with `mem_rd_valid` high and `mem_rd_ready` low
    pub read_stalled: u64,
    /// cycles with `mem_wr_valid` high and `mem_wr_ready` low
    pub write_stalled: u64,
    /// cycles with both stalled
    pub both_stalled: u64,
    /// cycles by reads accepted and not yet returned at the end of the
    /// cycle (after its handshakes): 0, 1, 2, 3 or more; at most the
    /// largest latency (one read accepted and one returned per cycle)
    pub reads_in_flight: [u64; 4],
}

/// The sparse, latency- and backpressure-randomizing memory model.
pub struct MemoryModel {
    config: MemConfig,
    rng: ChaCha8Rng,
    flat: Memory,
    slm: Memory,
    returns: VecDeque<PendingReturn>,
    /// the cycle of the last scheduled return (returns are one per cycle)
    last_due: u64,
    /// this cycle's drive, decided by [`MemoryModel::drive`]
    current: MemDrive,
    /// what the port went through
    pub activity: PortActivity,
}

/// The 16-byte line at `line_addr` of `mem` as a little-endian u128.
fn load_line(mem: &Memory, line_addr: u64) -> u128 {
    mem.load(line_addr, LINE_BYTES as u32)
}

/// Store the bytes of `data` whose bit is set in `be` into the line at `line_addr`.
fn store_line(mem: &mut Memory, line_addr: u64, be: u16, data: u128) {
    if be == 0xffff {
        mem.store(line_addr, 16, data);
        return;
    }
    for k in 0..16u64 {
        if be >> k & 1 != 0 {
            mem.set_byte(line_addr.wrapping_add(k), (data >> (8 * k)) as u8);
        }
    }
}

impl MemoryModel {
    pub fn new(config: MemConfig) -> MemoryModel {
        let config = MemConfig {
            latency_min: config.latency_min.max(1),
            latency_max: config.latency_max.max(config.latency_min.max(1)),
            stall: config.stall.clamp(0.0, 1.0),
            seed: config.seed,
        };
        MemoryModel {
            rng: ChaCha8Rng::seed_from_u64(config.seed ^ 0x6d65_6d6f_7279),
            config,
            flat: Memory::new(),
            slm: Memory::new(),
            returns: VecDeque::new(),
            last_due: 0,
            current: MemDrive { rd_ready: true, wr_ready: true, rdata: None },
            activity: PortActivity::default(),
        }
    }

    pub fn config(&self) -> &MemConfig {
        &self.config
    }

    /// The storage of one space.
    pub fn memory(&self, space: Space) -> &Memory {
        match space {
            Space::Flat => &self.flat,
            Space::Slm => &self.slm,
        }
    }

    fn memory_mut(&mut self, space: Space) -> &mut Memory {
        match space {
            Space::Flat => &mut self.flat,
            Space::Slm => &mut self.slm,
        }
    }

    /// Backdoor store (script `mem.*` / `slm.*` statements): no port activity.
    pub fn backdoor_write(&mut self, space: Space, addr: u64, bytes: &[u8]) {
        self.memory_mut(space).write(addr, bytes);
    }

    /// Backdoor read of `len` bytes (dumps, final-memory comparison).
    pub fn backdoor_read(&self, space: Space, addr: u64, len: u64) -> Vec<u8> {
        self.memory(space).read(addr, len)
    }

    /// Reads accepted and not yet returned.
    pub fn outstanding_reads(&self) -> usize {
        self.returns.len()
    }

    /// Decides this cycle's inputs to the unit: the two readies (random
    /// backpressure) and the read return due in this cycle, if any.
    pub fn drive(&mut self, cycle: u64) -> MemDrive {
        let stall = self.config.stall;
        let rd_ready = stall <= 0.0 || !self.rng.gen_bool(stall);
        let wr_ready = stall <= 0.0 || !self.rng.gen_bool(stall);
        let rdata = match self.returns.front() {
            Some(r) if r.due <= cycle => self.returns.pop_front().map(|r| r.line),
            _ => None,
        };
        self.current = MemDrive { rd_ready, wr_ready, rdata };
        self.current
    }

    /// Notes one cycle of the port as the pins show it: the unit's valids
    /// against this model's readies (the reads in flight are noted by
    /// [`MemoryModel::accept`], after the cycle's handshakes).
    pub fn note_port(&mut self, rd_valid: bool, rd_ready: bool, wr_valid: bool, wr_ready: bool) {
        let a = &mut self.activity;
        let (rd, wr) = (rd_valid && !rd_ready, wr_valid && !wr_ready);
        a.read_stalled += rd as u64;
        a.write_stalled += wr as u64;
        a.both_stalled += (rd && wr) as u64;
    }

    /// Applies this cycle's handshakes (called after the unit's outputs
    /// settled): `read` = (space, line address) of a read accepted now,
    /// `write` = (space, line address, byte enables, data) of a write
    /// accepted now. Returns the line the read will return. Called once a
    /// cycle (also without handshakes): it notes the reads in flight.
    pub fn accept(&mut self, cycle: u64, read: Option<(Space, u64)>, write: Option<(Space, u64, u16, u128)>) -> Option<u128> {
        let write_first = match (read, write) {
            (Some(_), Some(_)) => self.rng.gen_bool(0.5),
            _ => true,
        };
        if write_first {
            if let Some((space, addr, be, data)) = write {
                store_line(self.memory_mut(space), addr, be, data);
            }
        }
        let line = read.map(|(space, addr)| {
            let line = load_line(self.memory(space), addr);
            let latency = if self.config.latency_max > self.config.latency_min {
                self.rng.gen_range(self.config.latency_min..=self.config.latency_max)
            } else {
                self.config.latency_min
            };
            let due = (cycle + latency as u64).max(self.last_due + 1);
            if due == cycle + latency as u64 {
                *self.activity.read_latency.entry(latency).or_default() += 1;
            } else {
                self.activity.read_queued += 1;
            }
            self.last_due = due;
            self.returns.push_back(PendingReturn { due, line });
            line
        });
        if !write_first {
            if let Some((space, addr, be, data)) = write {
                store_line(self.memory_mut(space), addr, be, data);
            }
        }
        self.activity.reads_in_flight[self.returns.len().min(3)] += 1;
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_return_in_order_after_their_latency_one_per_cycle() {
        let mut m = MemoryModel::new(MemConfig { latency_min: 2, latency_max: 5, stall: 0.0, seed: 7 });
        m.backdoor_write(Space::Flat, 0x10, &[1, 2, 3]);
        m.backdoor_write(Space::Flat, 0x20, &[9]);
        assert_eq!(m.drive(0).rdata, None);
        m.accept(0, Some((Space::Flat, 0x10)), None);
        m.drive(1);
        m.accept(1, Some((Space::Flat, 0x20)), None);
        let mut got = vec![];
        for c in 2..20 {
            if let Some(line) = m.drive(c).rdata {
                got.push((c, line));
            }
        }
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1, 0x030201);
        assert_eq!(got[1].1, 0x09);
        assert!(got[0].0 >= 2 && got[0].0 <= 5 && got[1].0 > got[0].0 && got[1].0 <= 6, "{got:?}");
    }

    #[test]
    fn writes_apply_byte_enables_and_reads_capture_the_line_at_acceptance() {
        let mut m = MemoryModel::new(MemConfig::FAST);
        m.backdoor_write(Space::Slm, 0x40, &[0xaa; 16]);
        m.drive(0);
        // write bytes 4..8 only
        m.accept(0, None, Some((Space::Slm, 0x40, 0x00f0, 0x1122_3344_5566_7788_99aa_bbcc_ddee_ff00)));
        assert_eq!(m.backdoor_read(Space::Slm, 0x40, 8), vec![0xaa, 0xaa, 0xaa, 0xaa, 0xcc, 0xbb, 0xaa, 0x99]);
        m.drive(1);
        let line = m.accept(1, Some((Space::Slm, 0x40)), None).unwrap();
        assert_eq!(line as u64, 0x99aa_bbcc_aaaa_aaaa);
        // a later write does not change what the read returns
        let drive = m.drive(2);
        m.accept(2, None, Some((Space::Slm, 0x40, 0xffff, 0)));
        assert_eq!(drive.rdata, Some(line), "latency 1 returns in the next cycle");
        assert_eq!(m.backdoor_read(Space::Slm, 0x40, 2), vec![0, 0]);
    }

    #[test]
    fn latency_ranges_parse() {
        assert_eq!("3".parse::<LatencyRange>(), Ok(LatencyRange { min: 3, max: 3 }));
        assert_eq!("1..8".parse::<LatencyRange>(), Ok(LatencyRange { min: 1, max: 8 }));
        assert_eq!("2..=4".parse::<LatencyRange>(), Ok(LatencyRange { min: 2, max: 4 }));
        assert!("0".parse::<LatencyRange>().is_err());
        assert!("5..2".parse::<LatencyRange>().is_err());
        assert!("x".parse::<LatencyRange>().is_err());
    }

    #[test]
    fn stall_probability_shapes_the_readies() {
        let mut m = MemoryModel::new(MemConfig { latency_min: 1, latency_max: 1, stall: 0.5, seed: 3 });
        let lows = (0..2000).filter(|&c| !m.drive(c).rd_ready).count();
        assert!((800..1200).contains(&lows), "{lows}");
        let mut never = MemoryModel::new(MemConfig::FAST);
        assert!((0..100).all(|c| never.drive(c).rd_ready && never.drive(c).wr_ready));
    }
}
