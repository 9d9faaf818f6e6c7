//! The device under test as a model verilated at run time
//! (`atomport_sim::dynamic`): [`RuntimeUnit`] is [`UnitPins`] over a runtime
//! model of any unit build, [`RuntimeAlu`] is [`AluPins`] over a runtime
//! model of an ALU. `atomport mutate` drives its mutant models through them:
//! the same ports as the checked-in models (checked by name, direction and
//! width against them), plus the mutant select input.

use std::sync::Arc;

use atomport_core::ops::UnitConfig;
use atomport_sim::dynamic::{DynError, DynLibrary, DynModel, PortId};
use atomport_sim::{Port, PortDir, SimError, VAtomicAlu, VAtomicUnit};

use super::alu_stream::{AluInputs, AluOutputs, AluPins};
use super::pins::{LanePayload, PinRequest, UnitOutputs, UnitPins};

/// Looks every port of `expected` up in `model` (same direction and width).
fn ports_like(model: &DynModel, expected: &[Port]) -> Result<Vec<PortId>, DynError> {
    expected.iter().map(|p| model.port(p.name, p.dir, Some(p.width))).collect()
}

/// The index of `name` in `ports` (a port list of a checked-in model).
fn at(ports: &[Port], name: &str) -> usize {
    ports.iter().position(|p| p.name == name).unwrap_or_else(|| panic!("the unit has no port `{name}`"))
}

/// The unit's ports by role, resolved once.
struct UnitIds {
    clock: PortId,
    reset: PortId,
    req_valid: PortId,
    req: [PortId; 13],
    pay: [PortId; 4],
    mem_rd_ready: PortId,
    mem_wr_ready: PortId,
    mem_rdata_valid: PortId,
    mem_rdata: PortId,
    out: [PortId; 23],
}

/// The `req_*` inputs besides `req_valid`, in [`RuntimeUnit::set_request`]'s order.
const REQ_PORTS: [&str; 13] = [
    "req_desc",
    "req_dmask",
    "req_pred_mask",
    "req_surf_kind",
    "req_surf_base",
    "req_surf_size",
    "req_surf_width",
    "req_surf_height",
    "req_surf_depth",
    "req_surf_array",
    "req_surf_levels",
    "req_surf_u16",
    "req_slm_size",
];
const PAY_PORTS: [&str; 4] = ["pay_addr", "pay_src0", "pay_src1", "pay_coord"];
/// The outputs, in [`RuntimeUnit::outputs`]'s order.
const OUT_PORTS: [&str; 23] = [
    "req_ready",
    "pay_valid",
    "pay_lane",
    "pay_slot",
    "mem_rd_valid",
    "mem_rd_addr",
    "mem_rd_space",
    "mem_rd_be",
    "mem_wr_valid",
    "mem_wr_addr",
    "mem_wr_space",
    "mem_wr_data",
    "mem_wr_be",
    "rsp_valid",
    "rsp_lane",
    "rsp_data",
    "rsp_done",
    "rsp_error",
    "obs_valid",
    "obs_lane",
    "obs_elem",
    "obs_old",
    "obs_new",
];

/// A unit build as a runtime model: every port of the checked-in unit
/// (`VAtomicUnit::PORTS`, the same for every build), and optionally a
/// select input (`mutsel`) held at a value for the model's life.
pub struct RuntimeUnit {
    model: DynModel,
    ids: UnitIds,
    config: UnitConfig,
    element_allowance: u64,
}

impl RuntimeUnit {
    /// A new model of `lib`, built as `config`; `select`: the select input's
    /// name and the value it holds.
    pub fn new(
        lib: &Arc<DynLibrary>,
        config: UnitConfig,
        element_allowance: u64,
        select: Option<(&str, u64)>,
    ) -> Result<RuntimeUnit, RuntimeError> {
        let mut model = lib.model()?;
        let ports = VAtomicUnit::PORTS;
        let found = ports_like(&model, ports)?;
        let id = |name: &str| found[at(ports, name)];
        let ids = UnitIds {
            clock: id("clock"),
            reset: id("reset"),
            req_valid: id("req_valid"),
            req: REQ_PORTS.map(id),
            pay: PAY_PORTS.map(id),
            mem_rd_ready: id("mem_rd_ready"),
            mem_wr_ready: id("mem_wr_ready"),
            mem_rdata_valid: id("mem_rdata_valid"),
            mem_rdata: id("mem_rdata"),
            out: OUT_PORTS.map(id),
        };
        if model.ports().len() != ports.len() + select.is_some() as usize {
            let extra: Vec<&str> = model
                .ports()
                .iter()
                .map(|p| p.name.as_str())
                .filter(|n| !ports.iter().any(|p| p.name == *n) && Some(*n) != select.map(|s| s.0))
                .collect();
            return Err(RuntimeError::Port(DynError::Port(format!("the model has ports the unit has not: {}", extra.join(", ")))));
        }
        if let Some((name, value)) = select {
            let sel = model.port(name, PortDir::Input, None)?;
            model.set(sel, value as u128);
        }
        Ok(RuntimeUnit { model, ids, config, element_allowance })
    }
}

/// Why a runtime model could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error("{0}")]
    Sim(#[from] SimError),
    #[error("{0}")]
    Port(#[from] DynError),
}

impl UnitPins for RuntimeUnit {
    #[inline]
    fn set_reset(&mut self, reset: bool) {
        self.model.set(self.ids.reset, reset as u128);
    }

    fn set_request(&mut self, r: &PinRequest) {
        let values = [
            r.desc,
            r.dmask as u128,
            r.pred_mask as u128,
            r.surf_kind as u128,
            r.surf_base as u128,
            r.surf_size as u128,
            r.surf_width as u128,
            r.surf_height as u128,
            r.surf_depth as u128,
            r.surf_array as u128,
            r.surf_levels as u128,
            r.surf_u16 as u128,
            r.slm_size as u128,
        ];
        for (id, v) in self.ids.req.into_iter().zip(values) {
            self.model.set(id, v);
        }
    }

    #[inline]
    fn set_payload(&mut self, p: &LanePayload) {
        let [addr, src0, src1, coord] = self.ids.pay;
        self.model.set(addr, p.addr as u128);
        self.model.set(src0, p.src0);
        self.model.set(src1, p.src1);
        self.model.set(coord, p.coord);
    }

    #[inline]
    fn set_req_valid(&mut self, valid: bool) {
        self.model.set(self.ids.req_valid, valid as u128);
    }

    #[inline]
    fn set_mem(&mut self, rd_ready: bool, wr_ready: bool, rdata_valid: bool, rdata: u128) {
        self.model.set(self.ids.mem_rd_ready, rd_ready as u128);
        self.model.set(self.ids.mem_wr_ready, wr_ready as u128);
        self.model.set(self.ids.mem_rdata_valid, rdata_valid as u128);
        self.model.set(self.ids.mem_rdata, rdata);
    }

    #[inline]
    fn settle(&mut self) -> Result<(), SimError> {
        self.model.set(self.ids.clock, 0);
        self.model.eval()
    }

    #[inline]
    fn outputs(&self) -> UnitOutputs {
        let v: [u128; 23] = self.ids.out.map(|id| self.model.get(id));
        let [req_ready, pay_valid, pay_lane, pay_slot, rd_valid, rd_addr, rd_space, rd_be, wr_valid, wr_addr, wr_space, wr_data, wr_be, rsp_valid, rsp_lane, rsp_data, rsp_done, rsp_error, obs_valid, obs_lane, obs_elem, obs_old, obs_new] =
            v;
        let (pay_valid, rd_valid, wr_valid, rsp_valid, obs_valid) =
            (pay_valid != 0, rd_valid != 0, wr_valid != 0, rsp_valid != 0, obs_valid != 0);
        let when = |valid: bool, x: u128| if valid { x } else { 0 };
        UnitOutputs {
            req_ready: req_ready != 0,
            pay_valid,
            pay_lane: when(pay_valid, pay_lane) as u8,
            pay_slot: pay_valid && pay_slot != 0,
            rd_valid,
            rd_addr: when(rd_valid, rd_addr) as u64,
            rd_slm: rd_valid && rd_space != 0,
            rd_be: when(rd_valid, rd_be) as u16,
            wr_valid,
            wr_addr: when(wr_valid, wr_addr) as u64,
            wr_slm: wr_valid && wr_space != 0,
            wr_data: when(wr_valid, wr_data),
            wr_be: when(wr_valid, wr_be) as u16,
            rsp_valid,
            rsp_lane: when(rsp_valid, rsp_lane) as u8,
            rsp_data: when(rsp_valid, rsp_data),
            rsp_done: rsp_done != 0,
            rsp_error: rsp_error != 0,
            obs_valid,
            obs_lane: when(obs_valid, obs_lane) as u8,
            obs_elem: when(obs_valid, obs_elem) as u8,
            obs_old: when(obs_valid, obs_old),
            obs_new: when(obs_valid, obs_new),
        }
    }

    #[inline]
    fn edge(&mut self) -> Result<(), SimError> {
        self.model.set(self.ids.clock, 1);
        self.model.eval()
    }

    fn open_trace(&mut self, _path: &std::path::Path) -> Result<(), SimError> {
        Err(SimError::Trace("a runtime model writes no waveform".into()))
    }

    fn close_trace(&mut self) -> Result<(), SimError> {
        Ok(())
    }

    fn config(&self) -> UnitConfig {
        self.config
    }

    fn element_allowance(&self) -> u64 {
        self.element_allowance
    }
}

/// An ALU build as a runtime model: every port of the checked-in ALU
/// (`VAtomicAlu::PORTS`, the same for every build), and optionally a select
/// input held at a value.
pub struct RuntimeAlu {
    model: DynModel,
    /// clock, pipe_advance, op, ty, ftz, src0, src1, old_value
    inputs: [PortId; 8],
    /// new_true, new_false, new_cond, ret_value, float_op, float_value
    outputs: [PortId; 6],
}

impl RuntimeAlu {
    pub fn new(lib: &Arc<DynLibrary>, select: Option<(&str, u64)>) -> Result<RuntimeAlu, RuntimeError> {
        let mut model = lib.model()?;
        let ports = VAtomicAlu::PORTS;
        let found = ports_like(&model, ports)?;
        let id = |name: &str| found[at(ports, name)];
        let inputs = ["clock", "pipe_advance", "op", "ty", "ftz", "src0", "src1", "old_value"].map(id);
        let outputs = ["new_true", "new_false", "new_cond", "ret_value", "float_op", "float_value"].map(id);
        if let Some((name, value)) = select {
            let sel = model.port(name, PortDir::Input, None)?;
            model.set(sel, value as u128);
        }
        Ok(RuntimeAlu { model, inputs, outputs })
    }
}

impl AluPins for RuntimeAlu {
    #[inline]
    fn set_inputs(&mut self, x: &AluInputs) {
        let [_, advance, op, ty, ftz, src0, src1, _] = self.inputs;
        self.model.set(advance, x.advance as u128);
        self.model.set(op, x.op as u128);
        self.model.set(ty, x.ty as u128);
        self.model.set(ftz, x.ftz as u128);
        self.model.set(src0, x.src0);
        self.model.set(src1, x.src1);
    }

    #[inline]
    fn set_old_value(&mut self, old: u128) {
        self.model.set(self.inputs[7], old);
    }

    #[inline]
    fn settle(&mut self) -> Result<(), SimError> {
        self.model.set(self.inputs[0], 0);
        self.model.eval()
    }

    #[inline]
    fn outputs(&self) -> AluOutputs {
        let [new_true, new_false, new_cond, ret, float_op, float_value] = self.outputs.map(|id| self.model.get(id));
        AluOutputs { new_true, new_false, new_cond: new_cond != 0, ret, float_op: float_op != 0, float_value }
    }

    #[inline]
    fn edge(&mut self) -> Result<(), SimError> {
        self.model.set(self.inputs[0], 1);
        self.model.eval()
    }
}
