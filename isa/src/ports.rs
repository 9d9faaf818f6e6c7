//! The unit's ports: the one hand-written list of them (name, direction,
//! width, channel), in the order the emitted Verilog declares them.
//!
//! Every build of the unit (pipelined `atomic_unit*`, serial
//! `serial_unit*`, any [`crate::UnitConfig`]) has exactly these ports: the
//! build parameters change what the unit admits, not its shape (a smaller
//! build rejects what it cannot run, on the same pins). So the widths are
//! those of the widest message: [`MAX_LANES`] lanes, [`LINE_BITS`]-bit
//! lines and operands, [`ADDR_BITS`]-bit addresses.
//!
//! Who reads it: sim/build.rs checks every unit model's Verilator header
//! against it (the build fails on a difference); `isa/tests/unit_ports.rs`
//! checks the emitted Verilog against it; the test bench checks that it
//! drives every input; the waveform tools take their port lists from it.

/// A port's direction, seen from the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortDir {
    Input,
    Output,
}

/// The interface a port belongs to (docs/microarchitecture.md "Port table").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Clock,
    /// synchronous, active high
    Reset,
    /// the request handshake and the descriptor (`req_valid`, `req_ready`, `req_desc`)
    Request,
    /// what the message carries besides its descriptor, held with `req_valid`:
    /// masks, the surface state, the SLM size
    RequestFields,
    /// the payload port: the unit reads one lane's operands per cycle
    Payload,
    /// read requests to memory (`mem_rd_*`)
    MemRead,
    /// the line memory returns (`mem_rdata_valid`, `mem_rdata`)
    MemReadData,
    /// write requests to memory (`mem_wr_*`)
    MemWrite,
    /// per-lane results and the message's end (`rsp_*`)
    Response,
    /// each atomic element's old and new value (`obs_*`)
    Observe,
}

/// One port of the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitPort {
    pub name: &'static str,
    pub dir: PortDir,
    /// width in bits
    pub width: u32,
    pub channel: Channel,
}

/// Lanes of the widest message (a SIMD32 message).
pub const MAX_LANES: u32 = 32;
/// Bits of a lane index.
pub const LANE_INDEX_BITS: u32 = MAX_LANES.trailing_zeros();
/// Bits of a descriptor (up to 16 bytes).
pub const DESC_BITS: u32 = 128;
/// Bits of a memory line, of a lane's operand and of a result.
pub const LINE_BITS: u32 = 128;
/// Bytes of a memory line (one byte-enable bit each).
pub const LINE_BYTES: u32 = LINE_BITS / 8;
/// Bits of an address (flat addresses and surface bases).
pub const ADDR_BITS: u32 = 64;
/// Bits of a surface kind code.
pub const SURF_KIND_BITS: u32 = 3;
/// Bits of an element index inside a lane (PTX vectors of up to 8).
pub const ELEM_INDEX_BITS: u32 = 3;

const fn port(name: &'static str, dir: PortDir, width: u32, channel: Channel) -> UnitPort {
    UnitPort { name, dir, width, channel }
}

use Channel::*;
use PortDir::{Input as In, Output as Out};

/// The unit's ports, in declaration order.
pub const UNIT_PORTS: [UnitPort; 47] = [
    port("clock", In, 1, Clock),
    port("reset", In, 1, Reset),
    port("req_valid", In, 1, Request),
    port("req_ready", Out, 1, Request),
    port("req_desc", In, DESC_BITS, Request),
    port("req_dmask", In, MAX_LANES, RequestFields),
    port("req_pred_mask", In, MAX_LANES, RequestFields),
    port("req_surf_kind", In, SURF_KIND_BITS, RequestFields),
    port("req_surf_base", In, ADDR_BITS, RequestFields),
    port("req_surf_size", In, 64, RequestFields),
    port("req_surf_width", In, 32, RequestFields),
    port("req_surf_height", In, 32, RequestFields),
    port("req_surf_depth", In, 32, RequestFields),
    port("req_surf_array", In, 32, RequestFields),
    port("req_surf_levels", In, 32, RequestFields),
    port("req_surf_u16", In, 1, RequestFields),
    port("req_slm_size", In, 32, RequestFields),
    port("pay_valid", Out, 1, Payload),
    port("pay_lane", Out, LANE_INDEX_BITS, Payload),
    port("pay_slot", Out, 1, Payload),
    port("pay_addr", In, ADDR_BITS, Payload),
    port("pay_src0", In, LINE_BITS, Payload),
    port("pay_src1", In, LINE_BITS, Payload),
    port("pay_coord", In, LINE_BITS, Payload),
    port("mem_rd_valid", Out, 1, MemRead),
    port("mem_rd_ready", In, 1, MemRead),
    port("mem_rd_addr", Out, ADDR_BITS, MemRead),
    port("mem_rd_space", Out, 1, MemRead),
    port("mem_rd_be", Out, LINE_BYTES, MemRead),
    port("mem_rdata_valid", In, 1, MemReadData),
    port("mem_rdata", In, LINE_BITS, MemReadData),
    port("mem_wr_valid", Out, 1, MemWrite),
    port("mem_wr_ready", In, 1, MemWrite),
    port("mem_wr_addr", Out, ADDR_BITS, MemWrite),
    port("mem_wr_space", Out, 1, MemWrite),
    port("mem_wr_data", Out, LINE_BITS, MemWrite),
    port("mem_wr_be", Out, LINE_BYTES, MemWrite),
    port("rsp_valid", Out, 1, Response),
    port("rsp_lane", Out, LANE_INDEX_BITS, Response),
    port("rsp_data", Out, LINE_BITS, Response),
    port("rsp_done", Out, 1, Response),
    port("rsp_error", Out, 1, Response),
    port("obs_valid", Out, 1, Observe),
    port("obs_lane", Out, LANE_INDEX_BITS, Observe),
    port("obs_elem", Out, ELEM_INDEX_BITS, Observe),
    port("obs_old", Out, LINE_BITS, Observe),
    port("obs_new", Out, LINE_BITS, Observe),
];

/// The port named `name`.
pub fn unit_port(name: &str) -> Option<&'static UnitPort> {
    UNIT_PORTS.iter().find(|p| p.name == name)
}

/// Whether `name` is one of the unit's ports.
pub fn is_unit_port(name: &str) -> bool {
    unit_port(name).is_some()
}

/// The names of the ports on `channels`, in declaration order.
pub fn port_names(channels: &[Channel]) -> impl Iterator<Item = &'static str> + '_ {
    UNIT_PORTS.iter().filter(|p| channels.contains(&p.channel)).map(|p| p.name)
}

/// The differences between `ports` (name, direction, width, in any order;
/// a model's or a Verilog module's) and [`UNIT_PORTS`], one line each;
/// empty when they agree.
pub fn unit_port_differences<'a>(ports: impl IntoIterator<Item = (&'a str, PortDir, u32)>) -> Vec<String> {
    let mut out = vec![];
    let mut seen = vec![];
    for (name, dir, width) in ports {
        seen.push(name.to_string());
        match unit_port(name) {
            None => out.push(format!("`{name}` ({dir:?}, {width} bits) is not in the port table")),
            Some(p) if (p.dir, p.width) != (dir, width) => {
                out.push(format!("`{name}` is {dir:?}, {width} bits; the port table says {:?}, {} bits", p.dir, p.width))
            }
            Some(_) => {}
        }
    }
    for p in &UNIT_PORTS {
        if !seen.iter().any(|s| s == p.name) {
            out.push(format!("`{}` of the port table is missing", p.name));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_channels_name_their_ports() {
        for (i, p) in UNIT_PORTS.iter().enumerate() {
            assert!(UNIT_PORTS[..i].iter().all(|q| q.name != p.name), "{} twice", p.name);
            let prefix = match p.channel {
                Clock => "clock",
                Reset => "reset",
                Request | RequestFields => "req_",
                Payload => "pay_",
                MemRead => "mem_rd_",
                MemReadData => "mem_rdata",
                MemWrite => "mem_wr_",
                Response => "rsp_",
                Observe => "obs_",
            };
            assert!(p.name.starts_with(prefix), "{} on {:?}", p.name, p.channel);
        }
        assert_eq!(port_names(&[Request]).collect::<Vec<_>>(), ["req_valid", "req_ready", "req_desc"]);
    }

    #[test]
    fn differences_name_each_disagreement() {
        let mut ports: Vec<(&str, PortDir, u32)> = UNIT_PORTS.iter().map(|p| (p.name, p.dir, p.width)).collect();
        ports.reverse();
        assert_eq!(unit_port_differences(ports.clone()), Vec::<String>::new());
        ports.retain(|p| p.0 != "obs_new");
        ports[0].2 = 64;
        ports.push(("extra", PortDir::Input, 1));
        let got = unit_port_differences(ports);
        assert_eq!(
            got,
            [
                "`obs_old` is Output, 64 bits; the port table says Output, 128 bits",
                "`extra` (Input, 1 bits) is not in the port table",
                "`obs_new` of the port table is missing",
            ]
        );
    }
}
