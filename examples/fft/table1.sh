#!/usr/bin/env bash
# The seed's Table 1 on this machine: runs the parallel FFT (examples/fft/fft.c) over a grid of sizes
# N = 2^MIN .. 2^MAX and process counts P, fits the seed's formula (11) to the `fft` experiment with
# `augur fit` (intervals of validity along N), and prints measured against predicted times at N = 2^MAX
# with `augur predict`: from the fit to every run (the seed's Table 1), and from a fit that left the
# N = 2^MAX runs out (an extrapolation). Then the OBSP* and BSP models on a superstep trace of one
# transform per P > 1, with g and L from the h-relation benchmark (`augur bsp`).
#
# Usage: examples/fft/table1.sh [--build DIR] [--out DIR] [--repeat R] [--min LOG2N] [--max LOG2N]
#                               [--procs "1 2 4"] [--hrelation-bytes B]
#   --build  the build directory holding bin/augur, bin/fft and bin/hrelation (default: build)
#   --out    where the records and traces go (default: fft-table1); its files are replaced
#   --repeat transforms measured per run (default 5); the fit uses the median of all ranks' records
#   --hrelation-bytes  the largest message of the h-relation benchmark (default 16 MiB)
# Process counts above the number of cores run with mpirun --oversubscribe and are marked as such.
set -euo pipefail

build=build
out=fft-table1
repeat=5
min=12
max=22
procs="1 2 4"
hrelation_bytes=$((1 << 24))
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --min) min=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    --hrelation-bytes) hrelation_bytes=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "table1.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for tool in "$build/bin/augur" "$build/bin/fft" "$build/bin/hrelation"; do
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
# Intervals of validity along N: the constants change as the data leave the caches (the seed's
# "variation of the constants"). Oversubscribed runs are left out of the fit: formula (11) models P
# processors, not P processes sharing fewer cores; they are still predicted and compared.
fit_options=(--region fft --aggregate median --segments auto --segment-by N)
for P in $oversubscribed; do fit_options+=(--exclude "P=$P"); done
left_out=""
[ -n "$oversubscribed" ] && left_out=", oversubscribed runs (P =${oversubscribed}) left out"
echo
echo "== formula (11) fitted with intervals of validity along N (median of each point's records$left_out) =="
"$build/bin/augur" fit "$records" "${fit_options[@]}"
echo "== Table 1: N = $N, measured against formula (11) fitted to the runs =="
"$build/bin/augur" predict "$records" "${fit_options[@]}" --at "N=$N" --grid "P=${procs// /,}"
echo
echo "== N = $N predicted from the runs with N < $N only (an extrapolation to an unmeasured size) =="
"$build/bin/augur" predict "$records" "${fit_options[@]}" --exclude "N=$N" --at "N=$N" --grid "P=${procs// /,}"

# OBSP* and BSP: g and L from the h-relation benchmark, W and the partners from a superstep trace of
# one transform at N = 2^MAX on each process count above 1.
traced=""
for P in $procs; do (( P > 1 )) && traced="$traced $P"; done
if [ -n "$traced" ]; then
  echo
  echo "== g and L of this machine's MPI (h-relation benchmark, 2 processes) =="
  hrelation_records="$out/hrelation.cll.jsonl"
  rm -f "$hrelation_records"
  AUGUR_EXPERIMENT_FILE="$hrelation_records" mpirun -n 2 "$build/bin/hrelation" --max-bytes "$hrelation_bytes"
  for P in $traced; do
    flags=()
    (( P > cores )) && flags=(--oversubscribe)
    trace="$out/fft.P$P.trace.jsonl"
    AUGUR_EXPERIMENT_FILE=/dev/null mpirun "${flags[@]}" -n "$P" "$build/bin/fft" "$max" --repeat 1 --trace "$trace" > /dev/null
    echo
    echo "== OBSP* and BSP against one traced transform: N = $N, P = $P$( (( P > cores )) && echo ' (oversubscribed)') =="
    "$build/bin/augur" bsp "$trace" --hrelation "$hrelation_records"
  done
fi
if [ -n "$oversubscribed" ]; then
  echo
  echo "oversubscribed: P =${oversubscribed} ran with more processes than the $cores cores of this machine"
fi
