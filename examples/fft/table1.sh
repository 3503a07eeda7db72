#!/usr/bin/env bash
# The seed's Table 1 on this machine: runs the parallel FFT (examples/fft/fft.c) over a grid of sizes
# N = 2^MIN .. 2^MAX and process counts P, fits the seed's formula (11) to the `fft` experiment with
# `augur fit`, and prints measured against predicted times at N = 2^MAX with `augur predict`, the
# prediction made from a fit that left the N = 2^MAX runs out (an extrapolation to an unmeasured size).
#
# Usage: examples/fft/table1.sh [--build DIR] [--out DIR] [--repeat R] [--min LOG2N] [--max LOG2N] [--procs "1 2 4"]
#   --build  the build directory holding bin/augur and bin/fft (default: build)
#   --out    where the records go (default: fft-table1); its fft.cll.jsonl is replaced
#   --repeat transforms measured per run (default 5); the fit uses the median of all ranks' records
# Process counts above the number of cores run with mpirun --oversubscribe and are marked as such.
set -euo pipefail

build=build
out=fft-table1
repeat=5
min=12
max=22
procs="1 2 4"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --min) min=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "table1.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for tool in "$build/bin/augur" "$build/bin/fft"; do
  [ -x "$tool" ] || { echo "table1.sh: $tool not found: build first (cmake --build $build)" >&2; exit 1; }
done
command -v mpirun >/dev/null || { echo "table1.sh: mpirun not found (scripts/setup.sh installs Open MPI)" >&2; exit 1; }
if ! [[ "$min" =~ ^[0-9]+$ && "$max" =~ ^[0-9]+$ ]] || (( min < 1 || max > 26 || min >= max )); then
  echo "table1.sh: --min and --max must satisfy 1 <= min < max <= 26" >&2
  exit 2
fi

# Open MPI refuses to run as root unless told twice; CI runs as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cores=$(nproc)
mkdir -p "$out"
records="$out/fft.cll.jsonl"
rm -f "$records"
oversubscribed=""
for P in $procs; do
  flags=()
  if (( P > cores )); then
    flags=(--oversubscribe)
    oversubscribed="$oversubscribed $P"
  fi
  for (( log2n = min; log2n <= max; ++log2n )); do
    AUGUR_EXPERIMENT_FILE="$records" mpirun "${flags[@]}" -n "$P" "$build/bin/fft" "$log2n" --repeat "$repeat"
  done
done

N=$((1 << max))
echo
echo "== formula (11) fitted to every run (median of the repetitions of each point) =="
"$build/bin/augur" fit "$records" --region fft --aggregate median
echo "== Table 1: N = $N, predicted from the runs with N < $N =="
"$build/bin/augur" predict "$records" --region fft --aggregate median --exclude "N=$N" --at "N=$N" --grid "P=${procs// /,}"
if [ -n "$oversubscribed" ]; then
  echo "oversubscribed: P =${oversubscribed} ran with more processes than the $cores cores of this machine"
fi
