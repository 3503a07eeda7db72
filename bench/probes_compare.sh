#!/bin/sh
# The cost of the probes with two builds of libaugur, measured alternately (docs/benchmarks.md):
#
#   bench/probes_compare.sh BENCH_PROBES LIBDIR_A LIBDIR_B [ROUNDS]
#
# BENCH_PROBES is build/bin/bench_probes; LIBDIR_A and LIBDIR_B are folders holding a libaugur.so.0 each
# (for example a copy of build/lib before and after a change). Each round runs bench_probes once with
# each library (LD_LIBRARY_PATH outranks the binary's RUNPATH), in an order that alternates between
# rounds, and prints the time per call of each benchmark; the last lines are the medians over the rounds.
# Prints figures, never fails on a time.
set -eu
if [ $# -lt 3 ]; then
  echo "usage: $0 BENCH_PROBES LIBDIR_A LIBDIR_B [ROUNDS]" >&2
  exit 2
fi
bench=$1
a=$2
b=$3
rounds=${4:-11}
results=$(mktemp)
trap 'rm -f "$results"' EXIT

run() {  # label libdir
  LD_LIBRARY_PATH=$2 "$bench" --benchmark_min_time=0.2 --benchmark_format=csv 2>/dev/null |
    awk -F, -v label="$1" '$1 ~ /^"(open_close_iteration|init_end_par|iteration_with_three_loops)"$/ {
      gsub(/"/, "", $1); print label, $1, $NF }' >>"$results"
}

round=1
while [ "$round" -le "$rounds" ]; do
  if [ $((round % 2)) -eq 1 ]; then run A "$a"; run B "$b"; else run B "$b"; run A "$a"; fi
  round=$((round + 1))
done
# per_call is the last column of the csv (seconds per call, a counter with kInvert): printed in ns.
awk '{ printf "%s %-28s %.2f ns\n", $1, $2, $3 * 1e9 }' "$results"
echo "medians over $rounds rounds (A = $a, B = $b):"
for name in open_close_iteration init_end_par iteration_with_three_loops; do
  for label in A B; do
    awk -v n="$name" -v l="$label" '$1 == l && $2 == n { print $3 * 1e9 }' "$results" | sort -g |
      awk -v n="$name" -v l="$label" '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s %-28s %.2f ns per call\n", l, n, m }'
  done
done
