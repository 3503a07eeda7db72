#!/usr/bin/env bash
# Kernel coupling on the SP mini-application (examples/sp/sp.cpp), as in the seed's section 4: every size
# and thread count measured whole (kernels alone, all chains, the loop) and stored in a performance
# database; then, from the database, the coupling prediction against summation for every run
# (`augur couple report --summary`), the reuse of coupling values across sizes and thread counts for every
# run (`augur couple reuse`), the last run predicted from every other (`augur couple predict`, the seed's
# Tables 7 to 10), and the transitions along size.
#
# Usage: examples/sp/figures.sh [--build DIR] [--out DIR] [--sizes "8 12 16 24 32"] [--threads "1 2"]
#                               [--iterations N] [--min-time S] [--samples N]
#   --build       the build directory holding bin/augur and bin/sp (default: build)
#   --out         where the database and the measurement files go (default: sp-coupling); replaced
#   --sizes       grid points per side (default "8 12 16 24 32")
#   --threads     OpenMP thread counts (default "1 2")
#   --iterations  time steps of the loop (default 100)
#   --min-time, --samples   the harness's timing (defaults 0.03 s, 9)
set -euo pipefail

build=build
out=sp-coupling
sizes="8 12 16 24 32"
threads="1 2"
iterations=100
min_time=0.03
samples=9
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --min-time) min_time=$2; shift 2 ;;
    --samples) samples=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "figures.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for tool in "$build/bin/augur" "$build/bin/sp"; do
  [ -x "$tool" ] || { echo "figures.sh: $tool not found: build first (cmake --build $build)" >&2; exit 1; }
done
augur="$build/bin/augur"
rm -rf "$out"
mkdir -p "$out"
db="$out/perf.db"

for t in $threads; do
  for s in $sizes; do
    echo "figures.sh: measuring sp --size $s on $t thread(s)" >&2
    OMP_NUM_THREADS=$t "$augur" couple measure -q --db "$db" --save "$out/sp-$s-t$t.jsonl" \
      --min-time "$min_time" --samples "$samples" -- "$build/bin/sp" --measure --size "$s" --iterations "$iterations" >/dev/null
  done
done

echo "== Coupling (k = 5) against summation, every run =="
"$augur" couple report --db "$db" --application sp --summary
echo
echo "== Reuse of coupling values (k = 5): each run predicted from the nearest other configuration =="
"$augur" couple reuse --db "$db" --application sp
echo
last=$("$augur" db list runs --db "$db" --json | sed -n 's/^ *"id": *\([0-9]*\).*/\1/p' | tail -1)
echo "== The last run predicted from every other (the seed's Tables 7 to 10) =="
"$augur" couple predict --db "$db" --target-run "$last" --application sp
echo
echo "== Transitions of the coupling values along size =="
"$augur" couple transitions --db "$db" --application sp
