#!/usr/bin/env python3
"""The signal bits of a unit build that are constant by construction, for
the code coverage report's waivers (`make rtl-coverage`).

A toggle point that can never move is not a hole in the stimulus: a register
bit the build's width never drives (a 32-bit build's data bits 32..127 after
`& data_built`), a field a constant masks, a flip-flop whose next value is its
power-up value whatever the inputs. This script lets Yosys find them instead
of a person: per build it reads the emitted Verilog, flattens it and runs
`opt -fine` and `wreduce` with `opt_dff -sat` (a flip-flop is replaced by
its power-up value when, with the flip-flop at that value, its next value
equals it for every input: an induction proof) in two rounds, twice: once
freely, once with every named wire kept. Memories
stay memories (mapping them to flip-flops made the full unit's run take
more than 20 minutes): a RAM's read data is not listed. A bit of a named
wire that is then driven by a constant 0 is constant by construction. No
`opt -full`/`-undriven`: nothing is derived from an x, so a bit is listed
only when it is constant in every simulator.

Output (one line per signal with constant bits; written whole):

    BUILD VERILATOR-SIGNAL BITS VALUE-PER-BIT

VERILATOR-SIGNAL is the name Verilator's toggle points carry
(`<top>.<top>[.instance...]/<signal>`, `$` as `__024`), BITS a list of
ranges (`32-127,130`). scripts/rtl_coverage.py --constants waives exactly
these points; one that was hit fails the report (the proof or the name
mapping would be wrong).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

# build -> (top module, Verilog files relative to the repository)
BUILDS = {
    "unit": ("atomic_unit", ["hdl/verilog/atomic_unit.v", "hdl/verilog/atomic_alu.v"]),
    "unit_l8_w32_int": ("atomic_unit_l8_w32_int", ["hdl/verilog/variants/atomic_unit_l8_w32_int.v"]),
    "serial_unit_l8_w32_int": ("serial_unit_l8_w32_int", ["hdl/verilog/variants/serial_unit_l8_w32_int.v"]),
}

YOSYS_SCRIPT = """\
{reads}
hierarchy -check -top {top}
proc
flatten
design -save flat
{opt}
write_json {plain}
design -load flat
setattr -set keep 1 w:*
{opt}
write_json {kept}
"""

# opt (bit by bit: -fine; wreduce drops the constant upper bits of a cell's
# result) until nothing changes, flip-flops proven constant by induction
# included; every pass keeps the design equivalent, none assumes an x
OPT = "\n".join(["opt -fine", "wreduce", "opt_dff -sat"] * 2 + ["opt -fine"])


def ranges(bits):
    bits = sorted(bits)
    out = []
    start = prev = bits[0]
    for b in bits[1:]:
        if b == prev + 1:
            prev = b
            continue
        out.append((start, prev))
        start = prev = b
    out.append((start, prev))
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in out)


def verilator_name(top, netname):
    """`alu.x_src0$q` -> `<top>.<top>.alu/x_src0__024q`; `t_src0$d` -> `<top>.<top>/t_src0__024d`."""
    if "." in netname:
        inst, sig = netname.rsplit(".", 1)
        scope = f"{top}.{top}.{inst}"
    else:
        scope, sig = f"{top}.{top}", netname
    return f"{scope}/{sig.replace('$', '__024')}"


def zero_bits(design, top):
    """{netname: set of bits driven by a constant 0} of one Yosys JSON design."""
    nets = design["modules"][top]["netnames"]
    found = {}
    for name, net in nets.items():
        if name.startswith("$") or "\\" in name or " " in name:
            continue
        zeros = {i for i, b in enumerate(net["bits"]) if b == "0"}
        if zeros:
            found[name] = zeros
    return found


def constants_of(build, root, yosys):
    """The bits constant 0 in either of two runs: one as Yosys optimizes
    freely (more flip-flops proven constant, but a wire whose readers are
    gone loses its name or its driver) and one with every named wire kept
    (every name survives). Constant 1 bits are not listed: Verilator counts
    their rise from the power-up 0 as a toggle."""
    top, files = BUILDS[build]
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "plain.json")
        kept = os.path.join(tmp, "kept.json")
        script = YOSYS_SCRIPT.format(
            reads="\n".join(f"read_verilog {os.path.join(root, f)}" for f in files),
            top=top, opt=OPT, plain=plain, kept=kept)
        path = os.path.join(tmp, "constants.ys")
        with open(path, "w", encoding="utf-8") as f:
            f.write(script)
        run = subprocess.run([yosys, "-q", "-s", path], capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"yosys failed on {build}:\n{run.stderr[-2000:]}")
        found = {}
        for out in (plain, kept):
            with open(out, encoding="utf-8") as f:
                for name, zeros in zero_bits(json.load(f), top).items():
                    found.setdefault(name, set()).update(zeros)
    lines = []
    for name in sorted(found):
        bits = sorted(found[name])
        lines.append(f"{build} {verilator_name(top, name)} {ranges(bits)} {'0' * len(bits)}")
    return lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", action="append", default=[], choices=sorted(BUILDS),
                    help="a build (repeatable; default every build)")
    ap.add_argument("--root", default=".", help="the repository (default .)")
    ap.add_argument("--yosys", default=os.environ.get("YOSYS_BIN", "yosys"))
    ap.add_argument("--out", required=True, help="the list (written whole, temp + rename)")
    a = ap.parse_args(argv)
    lines = [
        "# Signal bits constant by construction (scripts/rtl_constants.py: Yosys flatten,",
        "# opt + opt_dff -sat on the emitted Verilog). BUILD SIGNAL BITS VALUES",
    ]
    for build in a.build or list(BUILDS):
        try:
            found = constants_of(build, a.root, a.yosys)
        except (OSError, RuntimeError) as e:
            print(f"rtl_constants: error: {e}", file=sys.stderr)
            return 2
        bits = sum(len(l.split()[3]) for l in found)
        print(f"rtl_constants: {build}: {bits} constant bits in {len(found)} signals", file=sys.stderr)
        lines.extend(found)
    tmp = f"{a.out}.tmp-{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(tmp, a.out)
    except OSError as e:
        print(f"{a.out}:1:1: error: cannot write: {e.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
