#!/usr/bin/env python3
"""Deliberate RTL bugs, one per class of property: each is written into a
copy of the emitted Verilog under target/formal/bugs/ (never into
hdl/verilog), the property that should catch it is run on the copy as a bounded run
from reset (BMC to BUG_DEPTH cycles, also for the properties proven by
induction: an induction failure alone is no trace of a reachable bug),
and the bug counts as caught when that property fails with a
counterexample (kept under target/formal/bugs/<bug>/<task>.vcd). The
counterexample's inputs are then replayed on the unbroken RTL
(<task>.good.vcd, every assertion holding), so that

  atomport wavediff target/formal/bugs/<bug>/<task>.vcd target/formal/bugs/<bug>/<task>.good.vcd --clock clock

names the first signals where the broken RTL parts from the real one.

  python3 formal/mutants.py            every bug
  python3 formal/mutants.py --only alu one of them

Exit status: 0 every bug caught, 1 a bug not caught, 2 bad usage.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402

SERIAL_V = "hdl/verilog/variants/serial_unit_l8_w32_int.v"
PIPELINED_V = "hdl/verilog/variants/atomic_unit_l8_w32_int.v"
BUG_DEPTH = 30

# (name, class, block, task, file (None: the block's emitted variant), the
#  text replaced (exactly once), the replacement, what the bug does)
MUTANTS = [
    ("alu_signed_compare", "ALU equal to the reference", "alu_w32_int", "alu_w32_int.alu", None,
     "old_less_than_src0 = compare_old < x_compare_src0$q;", "old_less_than_src0 = compare_old <= x_compare_src0$q;",
     "the magnitude comparator takes equal for less (min/max/imin/imax/PTX inc on equal operands)"),
    ("read_dropped", "channel rule", "serial_l8_w32_int", "serial_l8_w32_int.rd_hold", SERIAL_V,
     "                    if (mem_rd_ready) begin", "                    if (1'b1) begin",
     "the read request leaves the port after one cycle, accepted or not"),
    ("skid_data_lost", "channel rule", "unit_l8_w32_int", "unit_l8_w32_int.wr_hold", PIPELINED_V,
     "            port_data = s_data$q;", "            port_data = write_data;",
     "a refused write's data comes from the write stage, not from the skid register that holds it"),
    ("skid_extra_done", "channel rule", "unit_l8_w32_int", "unit_l8_w32_int.no_orphan", PIPELINED_V,
     "done <= ((full & ready) & wait_last) |", "done <= (full & ready) |",
     "a refused write leaving the write skid raises rsp_done even when it is not its message's last"),
    ("line_keeps_bit3", "write bytes", "unit_l8_w32_int", "unit_l8_w32_int.write_place", PIPELINED_V,
     "        line = addr & line_mask;", "        line = addr & 64'hfffffffffffffff8;",
     "the address stage's line keeps address bit 3: an element in a line's upper half goes out 8 bytes past its line"),
    ("pipe_illegal_runs", "illegal descriptor", "unit_l8_w32_int", "unit_l8_w32_int.illegal", PIPELINED_V,
     "sel_marker = (issue_state$q == IssueState$FirstLane) & (d_illegal$q | d_no_lanes$q);",
     "sel_marker = (issue_state$q == IssueState$FirstLane) & d_no_lanes$q;",
     "an illegal descriptor's lanes are selected and issued like a legal one's"),
    ("illegal_runs", "illegal descriptor", "serial_l8_w32_int", "serial_l8_w32_int.illegal", SERIAL_V,
     "                    if (decoder$illegal | ~|(decoder$lane_enables & lanes_built)) begin",
     "                    if (~|(decoder$lane_enables & lanes_built)) begin",
     "an illegal descriptor's lanes are selected like a legal one's"),
    ("done_lost", "completion", "serial_l8_w32_int", "serial_l8_w32_int.progress", SERIAL_V,
     "                    rsp_done_q$d = 1'b1;", "                    rsp_done_q$d = 1'b0;",
     "Done never raises rsp_done"),
    ("write_wrong_space", "write bytes", "serial_l8_w32_int", "serial_l8_w32_int.write_bytes", SERIAL_V,
     "    always @(*) mem_wr_space = e_space$q;", "    always @(*) mem_wr_space = ~e_space$q;",
     "writes go to the other space (SLM for flat, flat for SLM)"),
    ("old_unshifted", "memory ordering", "serial_l8_w32_int", "serial_l8_w32_int.ordering_old", SERIAL_V,
     "old$d = ((mem_rdata >> e_bit_offset$q) & elem_mask) & data_built;", "old$d = (mem_rdata & elem_mask) & data_built;",
     "the old value is cut from byte 0 of the line, not from the element's bytes"),
    ("write_wrong_element", "memory ordering", "serial_l8_w32_int", "serial_l8_w32_int.ordering_pairs", SERIAL_V,
     "    always @(*) mem_wr_be = e_byte_enables$q;",
     "    always @(*) mem_wr_be = {e_byte_enables$q[11:0], e_byte_enables$q[15:12]};",
     "an atomic writes the next element of its line, not the one it read"),
    ("reset_keeps_write", "after reset", "serial_l8_w32_int", "serial_l8_w32_int.reset_quiet", SERIAL_V,
     "            wr_valid$d = 1'b0;\n            rsp_valid_q$d = 1'b0;", "            rsp_valid_q$d = 1'b0;",
     "reset does not clear the write request (a power-up value survives)"),
]


def replay_on_good(work, good_rtl, out_vcd, env):
    """The counterexample's inputs replayed on the unbroken RTL: the bug's
    sby model rebuilt from the original Verilog (the same script), then
    smtbmc generating a trace under the witness (`-g --yw`), with every
    assertion holding. `atomport wavediff` of the two VCDs points at the
    bug. Returns the VCD, or None (with the reason printed)."""
    eng = os.path.join(work, "engine_0")
    yw = os.path.join(eng, "trace.yw")
    model = os.path.join(work, "model")
    if not os.path.exists(yw):
        print(f"mutants:   (no witness {yw}: no replay)")
        return None
    rdir = work + ".good"
    shutil.rmtree(rdir, ignore_errors=True)
    shutil.copytree(os.path.join(work, "src"), rdir)
    for f in good_rtl:
        shutil.copyfile(f, os.path.join(rdir, os.path.basename(f)))

    def body(name, drop):
        with open(os.path.join(model, name)) as f:
            return [ln for ln in f.read().splitlines() if ln and not ln.startswith("#") and not ln.startswith(drop)]
    script = (body("design.ys", ("write_jny", "write_rtlil")) + body("design_prep.ys", ("read_rtlil", "write_rtlil"))
              + body("design_smt2.ys", ("read_rtlil", "write_smt2")) + ["write_smt2 -wires good.smt2"])
    run.write_whole(os.path.join(rdir, "replay.ys"), "\n".join(script) + "\n")
    with open(yw) as f:
        steps = len(json.load(f)["steps"])
    good_vcd = os.path.join(rdir, "good.vcd")
    for cmd in ([env["YOSYS"], "-q", "replay.ys"],
                [env["SMTBMC"], "-s", "yices", "-g", "-t", str(steps), "--yw", yw, "--dump-vcd", good_vcd, "good.smt2"]):
        r = subprocess.run(cmd, cwd=rdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            # (e.g. a witness naming a free signal the bug created: the
            # unbroken RTL has no such signal)
            last = [ln for ln in r.stdout.splitlines() if ln.strip()][-1:] or [""]
            print(f"mutants:   no replay on the unbroken RTL: {os.path.basename(cmd[0])}: {last[0]}")
            return None
    shutil.copyfile(good_vcd, out_vcd)
    return out_vcd


def main():
    ap = argparse.ArgumentParser(description="deliberate RTL bugs against the formal properties")
    ap.add_argument("--only", action="append", default=[])
    args = ap.parse_args()
    env = run.tool_env()
    todo = [m for m in MUTANTS if not args.only or any(w in m[0] for w in args.only)]
    if not todo:
        run.die("no bug matches")
    results = []
    for name, klass, block, task_name, rel, old, new, what in todo:
        src = run.emit_variant(run.BLOCKS[block]["variant"], env) if rel is None else os.path.join(run.ROOT, rel)
        text = open(src).read()
        if text.count(old) != 1:
            run.die(f"{name}: the text to replace occurs {text.count(old)} times in {src}")
        bug_dir = os.path.join(run.OUT, "bugs", name)
        os.makedirs(bug_dir, exist_ok=True)
        copy = os.path.join(bug_dir, os.path.basename(src))
        run.write_whole(copy, text.replace(old, new))
        proof = next(t for t in run.TASKS if t["name"] == task_name)
        t = dict(proof)
        # a trace from reset: the same property bounded (a bounded task to
        # its own depth: progress needs GAP cycles and more), without the
        # helper invariants (they serve the induction; the property itself
        # must fail)
        t.update(mode="bmc", depth=t["depth"] if t["mode"] == "bmc" else BUG_DEPTH,
                 defines=[d for d in t["defines"] if not d.startswith("INV_")], probes={}, engine=None)
        # its own work directory (the proofs' results stay as they are)
        t["name"] = f"bug_{name}.{task_name}"
        rtl = [copy] + [os.path.join(run.ROOT, f) for f in run.BLOCKS[block].get("files", [])[1:]]
        print(f"mutants: {name} ({klass}): {what}; running {task_name} ...", flush=True)
        res = run.run_task(t, rtl, env)
        caught = res["status"] == "FAIL" and res["cex"] is not None
        cex = None
        if res["cex"]:
            cex = os.path.join(bug_dir, task_name + ".vcd")
            shutil.copyfile(res["cex"], cex)
        good = None
        if caught:
            good_rtl = [src] + [os.path.join(run.ROOT, f) for f in run.BLOCKS[block].get("files", [])[1:]]
            good = replay_on_good(os.path.join(run.OUT, "work", t["name"]), good_rtl,
                                  os.path.join(bug_dir, task_name + ".good.vcd"), env)
        if run.is_kind(proof):
            # a proof by ABC's induction: the proof itself, helper invariants,
            # cuts and all, must not come out proven on the broken copy
            # (its base case is too short for this trace: the step fails)
            pt = dict(proof, name=f"bug_{name}.{task_name}.proof")
            print(f"mutants:   the proof itself ({run.depth_text(dict(task=pt))}) on the broken copy ...", flush=True)
            pres = run.run_task(pt, rtl, env)
            print(f"mutants:   proof: {run.result_text(dict(pres, task=pt))} ({pres['seconds']:.0f} s)", flush=True)
            caught = caught and pres["status"] != "PASS"
        print(f"mutants:   {'caught' if caught else 'NOT caught'} ({res['status']} in {res['seconds']:.0f} s"
              + (f"; {res['detail']}" if res["detail"] else "") + ")"
              + (f"; counterexample {os.path.relpath(cex, run.ROOT)}" if cex else "")
              + (f", the same inputs on the unbroken RTL {os.path.relpath(good, run.ROOT)}" if good else ""), flush=True)
        results.append((name, klass, task_name, caught, res, cex))
    print()
    for name, klass, task_name, caught, res, cex in results:
        print(f"{name:20} {klass:28} {task_name:34} {'caught' if caught else 'NOT caught'} {res['seconds']:5.0f} s")
    return 0 if all(r[3] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
