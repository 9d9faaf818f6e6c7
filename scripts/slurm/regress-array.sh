#!/usr/bin/env bash
# Run one seeded atomport regression as a Slurm job array: task K of N runs
# `atomport regress ... --shard K/N` (scripts/slurm/regress-shard.sbatch), then a
# job that depends on the whole array merges the shard reports
# (scripts/slurm/regress-merge.sbatch, `atomport merge`). docs/testbench.md
# "Scaling out" explains the shards; every shard runs the same binary and options.
#
#   scripts/slurm/regress-array.sh [-n SHARDS] [-c CPUS] [-o DIR] [-b ATOMPORT]
#                                  [-e EXPECT.json] [-p PARTITION] [-t TIME] [-w]
#                                  -- REGRESS-OPTIONS...
#
#   -n SHARDS     array size N (default 4)
#   -c CPUS       CPUs per task, passed to `regress --jobs` (default 1)
#   -o DIR        shared directory for reports, logs and failing scripts
#                 (default runs/regress-<date>); must be visible to every node
#   -b ATOMPORT   the atomport binary (default: target/release/atomport of this
#                 checkout, else `atomport` on PATH); on a shared file system
#   -e FILE.json  a report the merge must equal (`atomport merge --expect`),
#                 e.g. the unsharded run of the same options
#   -p PARTITION  / -t TIME   passed to sbatch
#   -w            wait for the merge and exit with its status (sbatch --wait)
#
# Example: scripts/slurm/regress-array.sh -n 16 -c 4 -o /shared/nightly -- \
#            --seed "$(date +%Y%m%d)" --count 10000000 --max-failures 0
# Outputs in DIR: shard-K.json / shard-K.xml / shard-K.log per task,
# merged.json, merged.xml (JUnit), merge.log, failures/fail-SEED-k.atom.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
shards=4 cpus=1 out="runs/regress-$(date +%Y%m%d-%H%M%S)" bin="" expect="" wait="" sbatch_opts=()
usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "n:c:o:b:e:p:t:wh" opt; do
  case "$opt" in
    n) shards="$OPTARG" ;;
    c) cpus="$OPTARG" ;;
    o) out="$OPTARG" ;;
    b) bin="$OPTARG" ;;
    e) expect="$OPTARG" ;;
    p) sbatch_opts+=(--partition="$OPTARG") ;;
    t) sbatch_opts+=(--time="$OPTARG") ;;
    w) wait=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "regress-array: -n wants a positive shard count, not '$shards'" >&2; exit 2; }
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || { echo "regress-array: -c wants a positive CPU count, not '$cpus'" >&2; exit 2; }
for a in "$@"; do
  case "$a" in --shard|--shard=*|--script|--script=*|--report|--report=*|--junit|--junit=*|--jobs|--jobs=*|--until-covered)
    echo "regress-array: $a is set by the array (or cannot be sharded); give only the options of the run" >&2; exit 2 ;;
  esac
done
if [ -z "$bin" ]; then
  if [ -x "$repo/target/release/atomport" ]; then bin="$repo/target/release/atomport"; else bin="$(command -v atomport || true)"; fi
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "regress-array: no atomport binary (cargo build --release, or -b PATH)" >&2; exit 2; }
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
mkdir -p "$out/failures"
out="$(cd "$out" && pwd)"
if [ -n "$expect" ]; then
  [ -r "$expect" ] || { echo "regress-array: cannot read $expect" >&2; exit 2; }
  expect="$(cd "$(dirname "$expect")" && pwd)/$(basename "$expect")"
fi
export ATOMPORT="$bin" ATOMPORT_OUT="$out" ATOMPORT_SHARDS="$shards" ATOMPORT_EXPECT="$expect"
array=$(sbatch --parsable "${sbatch_opts[@]}" --array="1-$shards" --cpus-per-task="$cpus" \
  --job-name=atomport-regress --output="$out/shard-%a.log" --export=ALL \
  "$here/regress-shard.sbatch" "$@")
array="${array%%;*}"
echo "regress-array: submitted shards as job array $array (tasks 1-$shards, $cpus CPUs each), reports in $out"
merge_opts=("${sbatch_opts[@]}" --dependency="afterany:$array" --job-name=atomport-merge --output="$out/merge.log" --export=ALL)
if [ -n "$wait" ]; then
  echo "regress-array: waiting for the merge job"
  set +e
  sbatch --wait "${merge_opts[@]}" "$here/regress-merge.sbatch"
  status=$?
  set -e
  cat "$out/merge.log"
  exit "$status"
fi
merge=$(sbatch --parsable "${merge_opts[@]}" "$here/regress-merge.sbatch")
echo "regress-array: merge job ${merge%%;*} runs after the array: $out/merge.log, $out/merged.json, $out/merged.xml"
