//! atomport-core: the message model, the script language, the binary
//! descriptors and the golden model — everything atomport knows about a
//! message without any RTL. No Verilator, no rust-hdl.
//!
//! Data flows one way: script text -> [`program::Program`] of
//! [`message::Message`]s -> binary descriptor -> (RTL under Verilator |
//! golden model) -> compare; the compare's common shape is [`outcome`].

pub mod diag;
/// The one table of every message rule (crate `atomport-isa`).
pub use atomport_isa as ops;
pub mod message;
pub mod program;
pub mod outcome;
pub mod script;
pub mod text;
pub mod descriptor;
pub mod golden;
pub mod glob;
pub mod report;
pub mod output_file;
