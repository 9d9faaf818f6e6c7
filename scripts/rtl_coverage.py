#!/usr/bin/env python3
"""Code coverage of the RTL by build and kind, after waivers (`make rtl-coverage`).

Reads a Verilator coverage data file (`coverage.dat`, the points summed over
every model of a run), groups its points by build (the model's top module,
the first name of the point's instance path: atomic_unit -> unit,
atomic_unit_l8_w32_int -> unit_l8_w32_int, ...; so the full unit's ALU,
which lies in atomic_alu.v, counts for the unit) and by kind (line, branch, toggle, expr, user: the
`v_<kind>/` page Verilator gives each point), applies the waiver rules and
writes a JSON summary (per build per kind: hit, total, waived, percent after
waivers) and the points neither hit nor waived.

Exit status: 0 when every checked build meets the thresholds and every
waiver is live; 1 when a build is below a threshold or a waiver is stale
(it names a point that was hit, or names no point at all of a build the data
holds: a waiver must hide a real hole, never a covered point); 2 on bad
input (FILE:LINE:COL: error: ...).

Waiver file, one rule per line (`#` starts a comment):

    BUILD-GLOB KIND REGEX | REASON

BUILD-GLOB an fnmatch pattern on the build name, KIND one of the kinds,
REGEX (Python `re.search`, no spaces: use \\s; ` | ` with spaces ends it) on the point's name
`<instance path>/<comment>` (toggle: `atomic_unit.req_surf_width[3]`-like
signal bits) followed by ` @ <source line>` (the Verilog text on the point's
line, stripped), so a rule names a signal or a construct, not a line number
that moves when the Verilog is emitted again. REASON is required.
"""

import argparse
import fnmatch
import json
import os
import re
import sys

KINDS = ("line", "branch", "toggle", "expr", "user")


class BadInput(Exception):
    pass


def parse_key(raw):
    fields = {}
    for part in raw.split("\x01"):
        if not part:
            continue
        if "\x02" not in part:
            continue
        k, v = part.split("\x02", 1)
        fields[k] = v
    return fields


def read_points(path):
    """(fields, count) for every point of a coverage data file."""
    points = []
    try:
        with open(path, encoding="latin-1") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise BadInput(f"{path}:1:1: error: cannot read coverage data: {e.strerror}")
    for no, line in enumerate(lines, 1):
        if not line or line.startswith("#"):
            continue
        if not line.startswith("C '"):
            raise BadInput(f"{path}:{no}:1: error: expected a point `C '<key>' <count>`")
        end = line.rfind("'")
        if end <= 2:
            raise BadInput(f"{path}:{no}:1: error: unterminated point key")
        try:
            count = int(line[end + 1:].strip())
        except ValueError:
            raise BadInput(f"{path}:{no}:{end + 2}: error: the count is not an integer")
        points.append((parse_key(line[3:end]), count))
    return points


def build_of(fields):
    hier = fields.get("h", "")
    if hier.startswith("TOP."):
        hier = hier[4:]
    base = hier.split(".", 1)[0]
    if not base:
        base = os.path.basename(fields.get("f", ""))
        if base.endswith(".v"):
            base = base[:-2]
    if base.startswith("atomic_unit"):
        return "unit" + base[len("atomic_unit"):]
    if base.startswith("atomic_alu"):
        return "alu" + base[len("atomic_alu"):]
    return base


def kind_of(fields):
    page = fields.get("page", "")
    if page.startswith("v_"):
        k = page[2:].split("/", 1)[0]
        return k
    return fields.get("t", "other") or "other"


class SourceLines:
    """The text of a Verilog line, for waiver names (cached per file)."""

    def __init__(self, roots):
        self.roots = roots
        self.cache = {}

    def line(self, filename, lineno):
        if filename not in self.cache:
            text = None
            for root in self.roots:
                p = filename if os.path.isabs(filename) else os.path.join(root, filename)
                if os.path.exists(p):
                    with open(p, encoding="latin-1") as f:
                        text = f.read().splitlines()
                    break
            self.cache[filename] = text
        text = self.cache[filename]
        try:
            n = int(lineno)
        except (TypeError, ValueError):
            return ""
        if text is None or not (1 <= n <= len(text)):
            return ""
        return " ".join(text[n - 1].split())


def point_name(fields, source):
    hier = fields.get("h", "")
    if hier.startswith("TOP."):
        hier = hier[4:]
    name = f"{hier}/{fields.get('o', '')}"
    src = source.line(fields.get("f", ""), fields.get("l"))
    return f"{name} @ {src}" if src else name


def read_waivers(path):
    rules = []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise BadInput(f"{path}:1:1: error: cannot read waivers: {e.strerror}")
    for no, line in enumerate(lines, 1):
        body = "" if line.lstrip().startswith("#") else line
        if not body.strip():
            continue
        if " | " not in body:
            raise BadInput(f"{path}:{no}:1: error: a waiver needs `BUILD KIND REGEX | REASON`")
        head, reason = body.split(" | ", 1)
        reason = reason.strip()
        parts = head.split()
        if len(parts) != 3:
            raise BadInput(f"{path}:{no}:1: error: a waiver needs `BUILD KIND REGEX | REASON`")
        build, kind, pattern = parts
        if kind not in KINDS:
            col = line.find(kind) + 1
            raise BadInput(f"{path}:{no}:{col}: error: unknown kind `{kind}` (one of {', '.join(KINDS)})")
        if not reason:
            raise BadInput(f"{path}:{no}:{line.find(' | ') + 2}: error: a waiver needs a reason after ` | `")
        try:
            regex = re.compile(pattern)
        except re.error as e:
            col = line.find(pattern) + 1 + (e.pos or 0)
            raise BadInput(f"{path}:{no}:{col}: error: bad regular expression: {e.msg}")
        rules.append({"line": no, "build": build, "kind": kind, "pattern": pattern,
                      "regex": regex, "reason": reason, "points": 0, "hit": []})
    return rules


def summarize(points, rules, source, builds_filter):
    builds = {}
    missed = []
    for fields, count in points:
        build = build_of(fields)
        if builds_filter and not any(fnmatch.fnmatchcase(build, g) for g in builds_filter):
            continue
        kind = kind_of(fields)
        name = point_name(fields, source)
        slot = builds.setdefault(build, {}).setdefault(kind, {"hit": 0, "total": 0, "waived": 0})
        slot["total"] += 1
        waived_by = None
        for r in rules:
            if r["kind"] == kind and fnmatch.fnmatchcase(build, r["build"]) and r["regex"].search(name):
                r["points"] += 1
                if count > 0:
                    r["hit"].append(f"{build} {name} ({count})")
                elif waived_by is None:
                    waived_by = r
        if count > 0:
            slot["hit"] += 1
        elif waived_by is not None:
            slot["waived"] += 1
        else:
            missed.append(f"{build} {kind} {fields.get('f', '')}:{fields.get('l', '')} {name}")
    for kinds in builds.values():
        for slot in kinds.values():
            den = slot["total"] - slot["waived"]
            slot["percent"] = round(100.0 * slot["hit"] / den, 2) if den else 100.0
            slot["percent_raw"] = round(100.0 * slot["hit"] / slot["total"], 2) if slot["total"] else 100.0
    return builds, missed


def write_whole(path, text):
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise BadInput(f"{path}:1:1: error: cannot write: {e.strerror}")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="Verilator coverage data files (summed point by point)")
    ap.add_argument("--waivers", required=True, help="waiver rules (BUILD KIND REGEX | REASON)")
    ap.add_argument("--source-root", action="append", default=[],
                    help="where the Verilog named in the points is found (default .)")
    ap.add_argument("--build", action="append", default=[],
                    help="a build (glob) whose thresholds are checked; repeatable")
    ap.add_argument("--min", action="append", default=[], metavar="KIND=PERCENT",
                    help="a threshold after waivers, e.g. branch=95; repeatable")
    ap.add_argument("--json", action="append", default=[],
                    help="write the summary here (whole file, temp + rename); repeatable")
    ap.add_argument("--missed", help="write the points neither hit nor waived here")
    a = ap.parse_args(argv)
    try:
        mins = {}
        for m in a.min:
            k, _, v = m.partition("=")
            if k not in KINDS:
                raise BadInput(f"--min:1:1: error: unknown kind `{k}`")
            try:
                mins[k] = float(v)
            except ValueError:
                raise BadInput(f"--min:1:{len(k) + 2}: error: `{v}` is not a percentage")
        rules = read_waivers(a.waivers)
        summed = {}
        for d in a.data:
            for fields, count in read_points(d):
                key = tuple(sorted(fields.items()))
                summed[key] = summed.get(key, 0) + count
        points = [(dict(k), c) for k, c in summed.items()]
        source = SourceLines(a.source_root or ["."])
        builds, missed = summarize(points, rules, source, a.build)
    except BadInput as e:
        print(e, file=sys.stderr)
        return 2
    failures = []
    for r in rules:
        present = any(fnmatch.fnmatchcase(b, r["build"]) for b in builds)
        if r["hit"]:
            failures.append(f"{a.waivers}:{r['line']}: stale waiver: it names {len(r['hit'])} point(s) that were hit, e.g. {r['hit'][0]}")
        elif present and r["points"] == 0:
            failures.append(f"{a.waivers}:{r['line']}: stale waiver: it names no point of the builds run")
    checked = sorted(builds)
    for b in checked:
        for k, need in mins.items():
            slot = builds[b].get(k)
            if slot and slot["percent"] < need:
                failures.append(f"{b}: {k} {slot['percent']:.2f}% after waivers < {need:g}%")
    print(f"{'build':28} {'kind':7} {'hit':>7} {'total':>7} {'waived':>7} {'raw %':>7} {'after %':>8}")
    for b in checked:
        for k in KINDS:
            s = builds[b].get(k)
            if s:
                print(f"{b:28} {k:7} {s['hit']:7} {s['total']:7} {s['waived']:7} {s['percent_raw']:7.2f} {s['percent']:8.2f}")
    print("waivers:")
    for r in rules:
        print(f"  {a.waivers}:{r['line']}: {r['build']} {r['kind']} {r['pattern']}: {r['points']} point(s) | {r['reason']}")
    summary = {
        "data": a.data,
        "waivers_file": a.waivers,
        "thresholds": mins,
        "builds": builds,
        "waivers": [{"line": r["line"], "build": r["build"], "kind": r["kind"], "pattern": r["pattern"],
                     "reason": r["reason"], "points": r["points"], "hit": len(r["hit"])} for r in rules],
        "missed": len(missed),
        "failures": failures,
    }
    try:
        for path in a.json:
            write_whole(path, json.dumps(summary, indent=1, sort_keys=True) + "\n")
        if a.missed:
            write_whole(a.missed, "".join(m + "\n" for m in missed))
    except BadInput as e:
        print(e, file=sys.stderr)
        return 2
    for f in failures:
        print(f"rtl-coverage: FAIL: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
