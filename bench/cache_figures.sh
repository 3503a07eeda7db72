#!/usr/bin/env bash
# The figures of issue 17 (docs/cache.md, "Figures"; seed 004 Figures 14-15): for each program, the miss rate
# over cache sizes (8-way LRU, 64-byte lines, 1 KB .. 1 MB; to 8 MB for the transpose model, whose two
# matrices are 4 MB) by every method, from the real `augur` binary, in one plot per program; the mean and
# maximum absolute error in percentage points, over all sizes and over the transition range; the time of each
# method. A benchmark: it prints figures and never fails on a time (docs/benchmarks.md).
#
#   bench/cache_figures.sh BUILD_DIR [--quick] [--out DIR] [--keep-csv DIR] [--png DIR] [--only PROGRAM]
#
# Models (examples/cache/ab_arms.model and examples/cache/models/*.model): `augur cache predict --sizes ...
# --csv` by the exact simulator on the expanded trace, the stochastic simulator at the loops' fixed point and
# in the seed's single pass, and StatStack (1 in 1000). Real programs (swim-plain 64 20, and
# examples/cache/transpose.c at N = 256), traced with valgrind lackey into a temporary folder (never kept):
# no model, so no stochastic method; the data accesses only (lackey's instruction fetches removed), by
# `augur cache sim` at each size (exact, 8-way), `augur cache curve` (exact, fully associative, one pass)
# and `augur cache curve --method statstack` (1 in 1000, fully associative).
# Writes DIR/<program>.svg (default docs/figures/cache); the tables (size and one miss rate per method) are
# copied to --keep-csv DIR, PNG copies of the plots to --png DIR; --only PROGRAM (ab_arms, ..., transpose_c,
# swim) runs that one alone. --quick: the a/b models and transpose.c at N = 16 only, pictures into the
# temporary folder unless --out is given (the smoke test, bench/cache_figures_smoke.cmake; a few seconds).
set -euo pipefail

usage() { echo "usage: $0 BUILD_DIR [--quick] [--out DIR] [--keep-csv DIR] [--png DIR] [--only PROGRAM]" >&2; exit 2; }
[ $# -ge 1 ] || usage
build=$(cd "$1" && pwd); shift
source_dir=$(cd "$(dirname "$0")/.." && pwd)
quick=no; out=""; keep_csv=""; png=""; only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=yes ;;
    --out) out=$2; shift ;;
    --keep-csv) keep_csv=$2; shift ;;
    --only) only=$2; shift ;;
    --png) png=$(mkdir -p "$2" && cd "$2" && pwd); shift ;;
    *) usage ;;
  esac
  shift
done
augur=$build/bin/augur
[ -x "$augur" ] || { echo "no $augur: build first" >&2; exit 1; }
for tool in gnuplot valgrind cc; do
  command -v "$tool" > /dev/null || { echo "$tool is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/augur-cache-figures.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$out" ]; then
  if [ $quick = yes ]; then out=$work/figures; else out=$source_dir/docs/figures/cache; fi
fi
mkdir -p "$out"

sizes=(1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576)
size_list=1K,2K,4K,8K,16K,32K,64K,128K,256K,512K,1M
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
human() { awk -v s="$1" 'BEGIN { if (s >= 1048576) printf "%gM", s / 1048576; else printf "%gK", s / 1024 }'; }

# The miss rate at each size of `sizes` from a curve's CSV (size,assoc,miss_rate: the sizes that the curve
# printed, powers of two of lines); past its last size the curve is flat (augur cache curve stops there).
curve_at() {
  awk -F, -v list="${sizes[*]}" 'NR > 1 { rate[$1] = $3; if ($1 + 0 > last) last = $1 + 0 }
    END { n = split(list, s, " "); for (i = 1; i <= n; ++i) print (s[i] in rate) ? rate[s[i]] : rate[last] }' "$1"
}
# The miss-rate column of `augur cache predict --csv` (size,level,accesses,misses,miss_rate,seconds).
predict_rates() { awk -F, 'NR > 1 { print $5 }' "$1"; }

# Errors of columns 3.. against column 2 (the exact 8-way curve) of a table "size exact m1 m2 ...", in points:
# mean and max over all sizes and over the transition range (sizes where the exact curve moves by more than
# a point to a neighbour, as bench_cache_predict does).
errors() {
  awk -v names="$2" '
    { size[NR] = $1; for (c = 2; c <= NF; ++c) v[NR, c] = 100 * $c; cols = NF }
    END {
      n = NR; split(names, name, " ")
      for (i = 1; i <= n; ++i) {
        t[i] = (i > 1 && (v[i, 2] - v[i - 1, 2] > 1 || v[i - 1, 2] - v[i, 2] > 1)) || (i < n && (v[i, 2] - v[i + 1, 2] > 1 || v[i + 1, 2] - v[i, 2] > 1))
        if (t[i]) { tn++; if (!first) first = size[i]; lastt = size[i] }
      }
      if (tn) range = sprintf("%s .. %s (%d sizes)", h(first), h(lastt), tn); else range = "(none)"
      printf "  transition range: %s\n", range
      for (c = 3; c <= cols; ++c) {
        sum = 0; mx = 0; ts = 0; tm = 0
        for (i = 1; i <= n; ++i) {
          e = v[i, c] - v[i, 2]; if (e < 0) e = -e
          sum += e; if (e > mx) mx = e
          if (t[i]) { ts += e; if (e > tm) tm = e }
        }
        if (tn) tr = sprintf("%.3f / %.3f", ts / tn, tm); else tr = "-"
        printf "  %-22s mean %.3f / max %.3f points; in the transition: %s\n", name[c - 2], sum / n, mx, tr
      }
    }
    function h(s) { return s >= 1048576 ? sprintf("%gM", s / 1048576) : sprintf("%gK", s / 1024) }' "$1"
}

# One SVG: columns 2.. of the table against the size, log scale; `titles` one per column, '|'-separated.
plot() {
  local table=$1 svg=$2 title=$3 titles=$4
  local IFS='|'; local -a t=($titles); unset IFS
  local styles=("lt 1 lc rgb '#000000' lw 2.5 dt 1 pt 7 ps 0.9" "lt 1 lc rgb '#d62728' lw 2 dt 2 pt 5 ps 0.8"
                "lt 1 lc rgb '#1f77b4' lw 2 dt 4 pt 9 ps 1.0" "lt 1 lc rgb '#2ca02c' lw 2 dt 5 pt 13 ps 0.9")
  {
    echo "set terminal svg size 960,450 dynamic enhanced font 'Sans,12' background rgb 'white'"
    echo "set output '$svg'"
    echo "set title \"$title\" noenhanced"
    echo "set logscale x 2"
    echo "set xtics ('1K' 1024, '2K' 2048, '4K' 4096, '8K' 8192, '16K' 16384, '32K' 32768, '64K' 65536, '128K' 131072, '256K' 262144, '512K' 524288, '1M' 1048576, '2M' 2097152, '4M' 4194304, '8M' 8388608)"
    echo "set xrange [768:${sizes[${#sizes[@]} - 1]} * 1.35]"
    echo "set xlabel 'cache size (bytes; 8-way LRU, 64-byte lines; log scale)'"
    echo "set ylabel 'miss rate (%)'"
    echo 'set format y "%g"'
    echo "set yrange [0:*]"
    echo "set grid"
    echo "set key outside right top vertical Left reverse box noenhanced width 1"
    printf "plot "
    local c
    for ((c = 0; c < ${#t[@]}; ++c)); do
      [ $c -gt 0 ] && printf ", "
      printf "'%s' using 1:(100*\$%d) with linespoints %s title \"%s\"" "$table" $((c + 2)) "${styles[$c]}" "${t[$c]}"
    done
    echo
  } > "$work/plot.gp"
  gnuplot "$work/plot.gp"
  if [ -n "$png" ]; then  # a PNG copy to look at (--png DIR)
    sed -e "s|^set terminal svg .*|set terminal pngcairo size 960,450 enhanced font 'Sans,10' background rgb 'white'|" \
        -e "s|^set output .*|set output '$png/$(basename "$svg" .svg).png'|" "$work/plot.gp" > "$work/plot-png.gp"
    gnuplot "$work/plot-png.gp"
  fi
}

echo "augur cache figures ($(date -u +%Y-%m-%dT%H:%MZ), $(uptime | sed 's/.*load/load/'))"
echo "sizes $size_list, 8-way LRU, 64-byte lines; errors in percentage points against the exact 8-way curve"

model_figure() {
  local name=$1 model=$2
  local -a methods=("--method exact" "--method stochastic --loops fixed" "--method stochastic --loops single" "--method statstack")
  local -a labels=(exact fixed single statstack)
  local i t0 t1
  echo
  echo "== $name ($model)"
  for i in 0 1 2 3; do
    t0=$(now)
    # shellcheck disable=SC2086
    "$augur" cache predict "$source_dir/$model" --cache l1:size=1K,assoc=8,line=64 --sizes $size_list --csv -q \
      ${methods[$i]} > "$work/$name.${labels[$i]}.csv"
    t1=$(now)
    local accesses; accesses=$(awk -F, 'NR == 2 { print $3 }' "$work/$name.${labels[$i]}.csv")
    printf "  time %-10s %7.3f s for the ${#sizes[@]} sizes (wall, augur cache predict; %s accesses)\n" "${labels[$i]}" \
      "$(elapsed "$t0" "$t1")" "$accesses"
  done
  paste -d' ' <(printf '%s\n' "${sizes[@]}") <(predict_rates "$work/$name.exact.csv") \
    <(predict_rates "$work/$name.fixed.csv") <(predict_rates "$work/$name.single.csv") \
    <(predict_rates "$work/$name.statstack.csv") > "$work/$name.table"
  errors "$work/$name.table" "stochastic-fixed stochastic-single statstack"
  echo "  size  exact%  fixed%  single%  statstack%"
  awk '{ printf "  %-5s %7.3f %7.3f %7.3f %7.3f\n", ($1 >= 1048576 ? $1 / 1048576 "M" : $1 / 1024 "K"), 100 * $2, 100 * $3, 100 * $4, 100 * $5 }' "$work/$name.table"
  plot "$work/$name.table" "$out/$name.svg" "$name: miss rate over cache sizes" \
    "exact (expanded trace)|stochastic, loop fixed point|stochastic, seed's single pass|StatStack 1/1000 (fully assoc.)"
  echo "  plot: $out/$name.svg"
}

real_figure() {
  local name=$1; shift
  local t0 t1 size
  echo
  echo "== $name ($*), valgrind lackey, data accesses"
  t0=$(now)
  (cd "$work" && valgrind --tool=lackey --trace-mem=yes --log-file="$work/$name.lackey" "$@" > /dev/null)
  grep -v '^I' "$work/$name.lackey" > "$work/$name.data"
  rm -f "$work/$name.lackey"
  t1=$(now)
  printf "  trace: %s data records in %.1f s (valgrind lackey, not timed as a method)\n" \
    "$(grep -c '^ [LSM]' "$work/$name.data")" "$(elapsed "$t0" "$t1")"
  t0=$(now)
  : > "$work/$name.exact"
  for size in "${sizes[@]}"; do
    "$augur" cache sim "$work/$name.data" --format lackey --cache "l1:size=$size,assoc=8,line=64" --no-3c --json -q \
      | tr -d ' \n' | sed 's/.*"miss_rate":\([^,}]*\).*/\1\n/' >> "$work/$name.exact"
  done
  t1=$(now)
  printf "  time %-22s %7.3f s for the ${#sizes[@]} sizes (augur cache sim, one run per size)\n" "exact 8-way" "$(elapsed "$t0" "$t1")"
  t0=$(now)
  "$augur" cache curve "$work/$name.data" --format lackey --line 64 --csv -q > "$work/$name.curve.csv"
  t1=$(now)
  printf "  time %-22s %7.3f s for every size (augur cache curve, one pass)\n" "exact fully assoc." "$(elapsed "$t0" "$t1")"
  t0=$(now)
  "$augur" cache curve "$work/$name.data" --format lackey --line 64 --method statstack --sample 1e-3 --csv -q \
    > "$work/$name.statstack.csv"
  t1=$(now)
  printf "  time %-22s %7.3f s for every size (augur cache curve --method statstack, one pass)\n" "statstack 1/1000" \
    "$(elapsed "$t0" "$t1")"
  paste -d' ' <(printf '%s\n' "${sizes[@]}") "$work/$name.exact" <(curve_at "$work/$name.curve.csv") \
    <(curve_at "$work/$name.statstack.csv") > "$work/$name.table"
  errors "$work/$name.table" "exact-fully-assoc statstack"
  echo "  size  exact%  exact-FA%  statstack%"
  awk '{ printf "  %-5s %7.3f %9.3f %9.3f\n", ($1 >= 1048576 ? $1 / 1048576 "M" : $1 / 1024 "K"), 100 * $2, 100 * $3, 100 * $4 }' "$work/$name.table"
  plot "$work/$name.table" "$out/$name.svg" "$name (real program, lackey trace): no model, no stochastic method" \
    "exact, 8-way (augur cache sim)|exact, fully assoc. (stack distances)|StatStack 1/1000 (fully assoc.)"
  echo "  plot: $out/$name.svg"
}

if [ $quick = yes ]; then
  models=(ab_arms:examples/cache/ab_arms.model ab_loop:examples/cache/models/ab_loop.model)
  transpose_n=16
else
  models=(ab_arms:examples/cache/ab_arms.model ab_loop:examples/cache/models/ab_loop.model
          matmul:examples/cache/models/matmul.model matmul_tiled:examples/cache/models/matmul_tiled.model
          stencil2d:examples/cache/models/stencil2d.model transpose:examples/cache/models/transpose.model
          linked_walk:examples/cache/models/linked_walk.model)
  transpose_n=256
fi
for entry in "${models[@]}"; do
  name=${entry%%:*}
  [ -z "$only" ] || [ "$only" = "$name" ] || continue
  if [ "$name" = transpose ]; then  # its 4 MB of matrices leave the 8-way curve flat up to 1 MB: up to 8 MB
    sizes+=(2097152 4194304 8388608); size_list+=,2M,4M,8M
    echo "  (transpose: sizes up to 8M)"
  fi
  model_figure "$name" "${entry#*:}"
  sizes=("${sizes[@]:0:11}"); size_list=${size_list%%,2M*}
done

# transpose.c, built as its comment says, at a size whose two matrices cross the cache sizes.
sed "s/^#define N 16$/#define N $transpose_n/" "$source_dir/examples/cache/transpose.c" > "$work/transpose.c"
cc -O1 -nostdlib -static -fno-stack-protector -fno-pie -no-pie -o "$work/transpose" "$work/transpose.c"
[ -n "$only" ] && [ "$only" != transpose_c ] || real_figure "transpose_c" "$work/transpose"
if [ $quick = no ] && { [ -z "$only" ] || [ "$only" = swim ]; }; then
  [ -x "$build/bin/swim-plain" ] || { echo "no $build/bin/swim-plain" >&2; exit 1; }
  real_figure "swim" "$build/bin/swim-plain" 64 20
fi
if [ -n "$keep_csv" ]; then mkdir -p "$keep_csv"; cp "$work"/*.table "$keep_csv"/; fi
echo
echo "== done: $(uptime | sed 's/.*load/load/')"
