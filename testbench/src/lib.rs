//! atomport-testbench: the test bench around the Verilated RTL (`atomic_unit`): the unit's pins
//! driven from encoded messages, a memory model serving its port, a monitor
//! turning pins back into transactions and results, and a scoreboard that
//! checks all of it in lockstep against the golden model.
//!
//! * [`pins`]: the request image, the output snapshot, the [`pins::UnitPins`]
//!   trait (the only way the bench reaches a model), and the
//!   [`pins::PinSource`] trait (one cycle of pins for the monitor), which
//!   the live unit ([`live::LivePins`]) and a replayed waveform
//!   (`atomport-wave`) implement;
//! * [`transaction`]: the items the monitor hands the scoreboard (frames,
//!   events, finished messages, port-contract violations);
//! * [`memory`]: sparse memory with seeded random latency and backpressure;
//! * [`driver`]: message -> descriptor + payload + surface state on `req_*`;
//! * [`monitor`]: pins -> transactions, results, message completions, and
//!   port-contract checks;
//! * [`scoreboard`]: golden model in lockstep; names the first difference;
//! * [`lockstep`]: monitor -> scoreboard on any pin source, the one checking
//!   path of the bench and of `wavecheck`;
//! * [`live`]: the live pin source: a unit model with the driver and the
//!   memory model around it;
//! * [`generator`]: seeded random valid scripts for `atomport regress`;
//! * [`dut`]: the pins of the Verilated `atomic_unit`, [`dut::simulate`],
//!   [`dut::run_rtl`];
//! * [`regress`]: the seeded random regression (jobs, shards); [`results`]: its
//!   report JSON, shard merge and JUnit XML; [`bench`]: throughput and
//!   simulation speed;
//! * [`directed`]: the directed stimulus of the unit's RTL tests as data
//!   (scripts, illegal descriptors), for the tests and `atomport mutate`;
//! * [`alu_stream`]: the atomic ALU as a pipeline against the golden op
//!   function, with stalls; [`alu_vectors`]: its operand values and vector
//!   sets; [`fp_sweep`]: every operand pair of the 16-bit float ops through
//!   the ALU stream (`make exhaustive`);
//! * [`runtime_dut`]: the unit's and the ALU's pins on a model verilated at
//!   run time (`atomport mutate`'s mutant models);
//! * [`session`]: the cycle loop ([`session::Session`]), the watchdog, and
//!   whole-script runs ([`session::run_program`]).

pub mod alu_stream;
pub mod alu_vectors;
pub mod bench;
pub mod directed;
pub mod driver;
pub mod dut;
pub mod fp_sweep;
pub mod funcov;
pub mod generator;
pub mod live;
pub mod lockstep;
pub mod memory;
pub mod monitor;
pub mod pins;
pub mod port_contract;
pub mod regress;
pub mod results;
pub mod runtime_dut;
pub mod scoreboard;
pub mod session;
pub mod timing;
pub mod transaction;

pub use dut::{run_rtl, simulate};
pub use session::{run_after_reset_in_flight, run_program, RtlError, RtlOptions, Session, Simulation};
pub use memory::MemConfig;
