#!/usr/bin/env python3
"""ABC for sby's `abc bmc3` engine: runs Debian's yosys-abc (or ABC_REAL) and
rewrites the counterexample it writes (`write_cex -a FILE`) into the AIGER
witness layout Yosys 0.70's witness tool reads (and drops the `-l` sby
passes to `pdr`, which that ABC lacks): Debian's ABC (2022) writes
the initial state and the frames without the status and property lines
("1", "b0") and ends with "# DONE" instead of ".". run.py points sby's ABC
variable here."""
import os
import re
import subprocess
import sys

real = os.environ.get("ABC_REAL", "yosys-abc")
# Debian's ABC's pdr has no -l (sby 0.70 asks it to log which property it
# proved, one property here: nothing is lost)
args = [re.sub(r"\bpdr -v -l\b", "pdr -v", a) for a in sys.argv[1:]]
rc = subprocess.call([real] + args)
script = " ".join(args)
m = re.search(r"write_cex -a (\S+?)['\";\s]", script + " ")
if m and os.path.exists(m.group(1)):
    path = m.group(1)
    with open(path) as f:
        text = f.read()
    lines = text.replace("# DONE", "\n").split("\n")
    lines = [line.strip() for line in lines if line.strip()]
    if lines and lines[0] not in ("0", "1", "2"):
        lines = ["1", "b0"] + lines
    if lines and lines[-1] != ".":
        lines.append(".")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)
sys.exit(rc)
