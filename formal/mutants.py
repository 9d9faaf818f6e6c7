#!/usr/bin/env python3
"""Deliberate RTL bugs, one per class of property: each is written into a
copy of the emitted Verilog under target/formal/bugs/ (never into
hdl/verilog), the property that should catch it is run on the copy, and
the bug counts as caught when that property fails with a counterexample
(target/formal/cex/<task>.vcd, kept per bug under target/formal/bugs/).

  python3 formal/mutants.py            every bug
  python3 formal/mutants.py --only alu one of them

Exit status: 0 every bug caught, 1 a bug not caught, 2 bad usage.
"""

import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402

SERIAL_V = "hdl/verilog/variants/serial_unit_l8_w32_int.v"

# (name, class, block, task, file (None: the block's emitted variant), the
#  text replaced (exactly once), the replacement, what the bug does)
MUTANTS = [
    ("alu_signed_compare", "ALU equal to the reference", "alu_w32_int", "alu_w32_int.alu", None,
     "old_less_than_src0 = compare_old < x_compare_src0$q;", "old_less_than_src0 = compare_old <= x_compare_src0$q;",
     "the magnitude comparator takes equal for less (min/max/imin/imax/PTX inc on equal operands)"),
    ("read_dropped", "channel rule", "serial_l8_w32_int", "serial_l8_w32_int.rd_hold", SERIAL_V,
     "                    if (mem_rd_ready) begin", "                    if (1'b1) begin",
     "the read request leaves the port after one cycle, accepted or not"),
    ("illegal_runs", "illegal descriptor", "serial_l8_w32_int", "serial_l8_w32_int.illegal", SERIAL_V,
     "                    if (decoder$illegal | ~|(decoder$lane_enables & lanes_built)) begin",
     "                    if (~|(decoder$lane_enables & lanes_built)) begin",
     "an illegal descriptor's lanes are selected like a legal one's"),
    ("done_lost", "completion", "serial_l8_w32_int", "serial_l8_w32_int.progress", SERIAL_V,
     "                    rsp_done_q$d = 1'b1;", "                    rsp_done_q$d = 1'b0;",
     "Done never raises rsp_done"),
    ("write_unmasked", "write bytes", "serial_l8_w32_int", "serial_l8_w32_int.write_bytes", SERIAL_V,
     "        mem_wr_data = write_align$data & write_align$mask;", "        mem_wr_data = write_align$data;",
     "the write data is not masked to its byte enables"),
    ("old_unshifted", "memory ordering", "serial_l8_w32_int", "serial_l8_w32_int.ordering", SERIAL_V,
     "old$d = ((mem_rdata >> e_bit_offset$q) & elem_mask) & data_built;", "old$d = (mem_rdata & elem_mask) & data_built;",
     "the old value is cut from byte 0 of the line, not from the element's bytes"),
    ("reset_keeps_write", "after reset", "serial_l8_w32_int", "serial_l8_w32_int.reset_quiet", SERIAL_V,
     "            wr_valid$d = 1'b0;\n            rsp_valid_q$d = 1'b0;", "            rsp_valid_q$d = 1'b0;",
     "reset does not clear the write request (a power-up value survives)"),
]


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
        t = next(t for t in run.TASKS if t["name"] == task_name)
        rtl = [copy] + [os.path.join(run.ROOT, f) for f in run.BLOCKS[block].get("files", [])[1:]]
        print(f"mutants: {name} ({klass}): {what}; running {task_name} ...", flush=True)
        res = run.run_task(t, rtl, env)
        caught = res["status"] == "FAIL" and res["cex"] is not None
        cex = None
        if res["cex"]:
            cex = os.path.join(bug_dir, os.path.basename(res["cex"]))
            shutil.copyfile(res["cex"], cex)
        print(f"mutants:   {'caught' if caught else 'NOT caught'} ({res['status']} in {res['seconds']:.0f} s"
              + (f"; {res['detail']}" if res["detail"] else "") + ")"
              + (f"; counterexample {os.path.relpath(cex, run.ROOT)}" if cex else ""), flush=True)
        results.append((name, klass, task_name, caught, res, cex))
    print()
    for name, klass, task_name, caught, res, cex in results:
        print(f"{name:20} {klass:28} {task_name:34} {'caught' if caught else 'NOT caught'} {res['seconds']:5.0f} s")
    return 0 if all(r[3] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
