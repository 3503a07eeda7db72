#!/usr/bin/env bash
# The figures of issue 19 (docs/hierarchy.md, "Sweeps: Figures 19 and 20"; seed 004 Figures 19-20): from the
# real `augur hierarchy sweep --csv`, the execution time relative to the ideal execution (Figure 19) and the
# actual execution time with the ideal one (Figure 20) by system size, one panel per program model and one
# curve per fan-out; and the two-level check (three-level systems against two-level ones of the same size).
# Prints the tables and the numbers behind each of the seed's conclusions. A benchmark: it never fails on a
# figure or a time (docs/benchmarks.md).
#
#   bench/hierarchy_figures.sh BUILD_DIR [--quick] [--out DIR] [--keep-csv DIR] [--png DIR]
#
# Writes DIR/relative.svg, DIR/actual.svg and DIR/levels.svg (default docs/figures/hierarchy); the sweeps'
# CSV are copied to --keep-csv DIR, PNG copies of the plots to --png DIR. --quick: small sweeps (fan-outs 2
# and 4, 4 to 16 processors, 2 replications; three levels at 8 and 16 processors, 1 replication), pictures
# into a temporary folder unless --out is given (the smoke test, bench/hierarchy_figures_smoke.cmake).
set -euo pipefail

usage() { echo "usage: $0 BUILD_DIR [--quick] [--out DIR] [--keep-csv DIR] [--png DIR]" >&2; exit 2; }
[ $# -ge 1 ] || usage
build=$(cd "$1" && pwd); shift
source_dir=$(cd "$(dirname "$0")/.." && pwd)
quick=no; out=""; keep_csv=""; png=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=yes ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift ;;
    --keep-csv) [ $# -ge 2 ] || usage; keep_csv=$2; shift ;;
    --png) [ $# -ge 2 ] || usage; png=$(mkdir -p "$2" && cd "$2" && pwd); shift ;;
    *) usage ;;
  esac
  shift
done
augur=$build/bin/augur
[ -x "$augur" ] || { echo "no $augur: build first" >&2; exit 1; }
command -v gnuplot > /dev/null || { echo "gnuplot is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/augur-hierarchy-figures.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$out" ]; then
  if [ $quick = yes ]; then out=$work/figures; else out=$source_dir/docs/figures/hierarchy; fi
fi
mkdir -p "$out"

models=(UU20 XU11 XP11 XU20)
model_list=$(IFS=,; echo "${models[*]}")
three_machine=$source_dir/examples/hierarchy/three_level.machine
if [ $quick = yes ]; then
  fanouts=2,4; sizes=4:16:*2; replications=2
  level_fanouts=2; level_sizes=8:16:*2; level_replications=1
else
  fanouts=2,4,8,16; sizes=4:512:*2; replications=10
  level_fanouts=2,4; level_sizes=16:1024:*2; level_replications=5
fi

# One sweep into $work/NAME.csv; prints its command and its CPU time (user + system, from `time`).
sweep() {
  local name=$1; shift
  local t
  echo "  $name: augur hierarchy sweep $* --csv -q"
  t=$( { TIMEFORMAT='%U %S'; time "$augur" hierarchy sweep "$@" --csv -q > "$work/$name.csv"; } 2>&1 )
  awk -v t="$t" -v n="$(($(wc -l < "$work/$name.csv") - 1))" 'BEGIN { split(t, a, " "); printf "    %d points, %.2f s of CPU time\n", n, a[1] + a[2] }'
}

echo "augur hierarchy figures ($(date -u +%Y-%m-%dT%H:%MZ), $(uptime | sed 's/.*load/load/'))"
echo
echo "== sweeps (CSV: model,fanout,processors,ratio,ratio_low,ratio_high,time,ideal_time,migrated)"
sweep two --model "$model_list" --fanout "$fanouts" --processors "$sizes" --replications "$replications"
sweep levels_two --model "$model_list" --fanout "$level_fanouts" --processors "$level_sizes" --replications "$level_replications"
sweep levels_three --levels 3 --model "$model_list" --fanout "$level_fanouts" --processors "$level_sizes" --replications "$level_replications"
sweep levels_three_grasp64 --machine "$three_machine" --model "$model_list" --fanout "$level_fanouts" --processors "$level_sizes" \
  --replications "$level_replications"

# A table of one column of a sweep (column number $2, printf format $3) by model and fan-out over sizes;
# with $4 = ideal, the ideal time of each model (column 8) in rows of its own.
table() {
  awk -F, -v col="$2" -v fmt="$3" -v ideal="${4:-}" '
    NR == 1 { next }
    { key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; keys[++k] = key }
      if (!($3 in isize)) { isize[$3] = 1; s[++n] = $3 + 0 }
      v[key, $3] = $col; id[$1, $3] = $8; if (!($1 in m)) { m[$1] = 1; ms[++nm] = $1 } }
    END {
      for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
      printf "  %-5s %7s", "Model", "Fan-out"; for (i = 1; i <= n; ++i) printf " %7d", s[i]; printf "\n"
      for (r = 1; r <= k; ++r) {
        split(keys[r], a, " "); printf "  %-5s %7s", a[1], a[2]
        for (i = 1; i <= n; ++i) if ((keys[r], s[i]) in v) printf " " fmt, v[keys[r], s[i]]; else printf " %7s", "-"
        printf "\n"
      }
      if (ideal == "") exit
      for (r = 1; r <= nm; ++r) {
        printf "  %-5s %7s", ms[r], "ideal"
        for (i = 1; i <= n; ++i) if ((ms[r], s[i]) in id) printf " " fmt, id[ms[r], s[i]]; else printf " %7s", "-"
        printf "\n"
      }
    }' "$1"
}

echo
echo "== Figure 19: execution time relative to the ideal execution, 2 levels, by processors"
table "$work/two.csv" 4 "%7.3f"
echo
echo "== Figure 20: execution time, 2 levels, by processors; the ideal execution in the last rows"
table "$work/two.csv" 7 "%7.1f" ideal

# The numbers behind the seed's conclusions (docs/hierarchy.md, "The seed's conclusions, one by one").
echo
echo "== conclusions"
awk -F, 'NR > 1 && $3 >= 16 { key = $2; if ($4 > worst[key]) worst[key] = $4; if (!(key in best) || $4 < best[key]) best[key] = $4 }
  END { for (f in worst) printf "  1. fan-out %s, 16 processors and more: ratio %.3f .. %.3f\n", f, best[f], worst[f] }' \
  "$work/two.csv" | sort -t' ' -k4n
awk -F, 'NR > 1 { sum[$1] += $4; count[$1]++; key = $2 " " $3; if (!(key in low) || $4 < low[key]) { low[key] = $4; who[key] = $1 } }
  END { for (m in sum) printf "  2. %s: mean ratio %.3f over its points\n", m, sum[m] / count[m]
        for (k in who) lowest[who[k]]++
        for (m in sum) printf "  2. %s: the lowest ratio of the four at %d of %d (fan-out, size) points\n", m, lowest[m] + 0, length(who) }' \
  "$work/two.csv" | sort
awk -F, 'NR > 1 { key = $1 " " $2; if (!(key in first) || $3 < fs[key]) { first[key] = $7; fs[key] = $3 }
    if (!(key in last) || $3 > ls[key]) { last[key] = $7; ls[key] = $3 }
    if ($4 > over[key]) over[key] = $4 }
  END { for (k in first) { split(k, a, " "); printf "  3. %s fan-out %s: time %.1f at %d processors, %.1f at %d (%.1f times less); ratio at most %.3f\n", a[1], a[2], first[k], fs[k], last[k], ls[k], first[k] / last[k], over[k] } }' \
  "$work/two.csv" | sort -k3,3 -k5n
# The two-level check: per model and fan-out, the largest difference of the three-level ratio from the
# two-level one of the same size, over all sizes and from 256 processors on.
compare() {
  awk -F, -v label="$3" 'FNR == 1 { file++; next }
    file == 1 { two[$1, $2, $3] = $4; next }
    (($1, $2, $3) in two) { key = $1 " " $2; d = $4 - two[$1, $2, $3]; if (d < 0) d = -d
      if (d > all[key]) all[key] = d; if ($3 >= 256 && d > big[key]) big[key] = d; seen[key] = 1 }
    END { for (k in seen) { split(k, a, " "); printf "  4. %s, %s fan-out %s: |three-level - two-level| ratio at most %.3f, from 256 processors on %s\n", label, a[1], a[2], all[k], (k in big) ? sprintf("%.3f", big[k]) : "-" } }' \
    "$1" "$2" | sort
}
compare "$work/levels_two.csv" "$work/levels_three.csv" "default grasp"
compare "$work/levels_two.csv" "$work/levels_three_grasp64.csv" "middle grasp 64"
echo
echo "== two-level check: ratio by processors, two levels, three levels, three levels whose middle grasps below 64"
for name in levels_two levels_three levels_three_grasp64; do
  echo "  $name"
  table "$work/$name.csv" 4 "%7.3f"
done

# Per model and fan-out a data file "processors ratio low high time ideal" for gnuplot.
split_curves() {
  awk -F, -v dir="$work" -v prefix="$2" 'NR > 1 { f = dir "/" prefix "." $1 "." $2 ".dat"; print $3, $4, $5, $6, $7, $8 > f }' "$1"
}
split_curves "$work/two.csv" two
split_curves "$work/levels_two.csv" l2
split_curves "$work/levels_three.csv" l3
split_curves "$work/levels_three_grasp64.csv" l3g

# Curve styles in the order of the curves: by fan-out (Figures 19, 20), and for the two-level check by
# system (colour) and fan-out (solid 2, dashed 4).
fanout_styles=("lc rgb '#000000' dt 1 pt 7" "lc rgb '#d62728' dt 2 pt 5" "lc rgb '#1f77b4' dt 4 pt 9" "lc rgb '#2ca02c' dt 5 pt 13")
level_styles=("lc rgb '#000000' dt 1 pt 7" "lc rgb '#d62728' dt 1 pt 5" "lc rgb '#1f77b4' dt 1 pt 9"
              "lc rgb '#000000' dt 2 pt 6" "lc rgb '#d62728' dt 2 pt 4" "lc rgb '#1f77b4' dt 2 pt 8")
styles=("${fanout_styles[@]}")
height=760; width=1000
# The head of a 2×2 multiplot (one panel per model); $1 the SVG, $2 the title, $3 the y label.
plot_head() {
  echo "set terminal svg size $width,$height dynamic enhanced font 'Sans,11' background rgb 'white'"
  echo "set output '$1'"
  echo "set multiplot layout 2,2 title \"$2\" noenhanced"
  echo "set logscale x 2"
  echo "set xlabel 'processors (log scale)'"
  echo "set ylabel '$3'"
  echo "set grid"
  echo "set key top right noenhanced"
}
# One panel's plot line: $1 the model, $2 the columns ("ratio": the ratio with its 95% interval; "time": the
# execution time, and the ideal one from the first curve's file: it is the same for every fan-out), then
# triples "prefix|fan-out|title" (a data file, a curve).
plot_panel() {
  local model=$1 columns=$2; shift 2
  local c=0 entry prefix fanout title file first=""
  printf "set title '%s'\nplot " "$model"
  for entry in "$@"; do
    IFS='|' read -r prefix fanout title <<< "$entry"
    file=$work/$prefix.$model.$fanout.dat
    [ -s "$file" ] || continue
    [ -n "$first" ] || first=$file
    [ $c -gt 0 ] && printf ", "
    case $columns in
      ratio) printf "'%s' using 1:2:3:4 with yerrorlines lw 1.5 ps 0.7 %s title '%s'" "$file" "${styles[$c]}" "$title" ;;
      time) printf "'%s' using 1:5 with linespoints lw 1.5 ps 0.7 %s title '%s'" "$file" "${styles[$c]}" "$title" ;;
    esac
    c=$((c + 1))
  done
  if [ "$columns" = time ] && [ -n "$first" ]; then
    printf ", '%s' using 1:6 with lines lw 2.5 lc rgb '#7f7f7f' dt 1 title 'ideal execution'" "$first"
  fi
  echo
}
draw() {  # gnuplot on $1 (a script), and the PNG copy with --png
  gnuplot "$1"
  if [ -n "$png" ]; then
    sed -e "s|^set terminal svg .*|set terminal pngcairo size $width,$height enhanced font 'Sans,9' background rgb 'white'|" \
        -e "s|^set output '\(.*\)/\([^/]*\)\.svg'|set output '$png/\2.png'|" "$1" > "$1.png.gp"
    gnuplot "$1.png.gp"
  fi
}
IFS=, read -r -a fanout_array <<< "$fanouts"
IFS=, read -r -a level_fanout_array <<< "$level_fanouts"

# Figures 19 and 20: $1 the plot's name, $2 its title, $3 the y label, $4 the columns (plot_panel), $5 an
# extra gnuplot line; one panel per model, one curve per fan-out of the two-level sweep.
fanout_figure() {
  {
    plot_head "$out/$1.svg" "$2" "$3"
    [ -z "$5" ] || echo "$5"
    for model in "${models[@]}"; do
      curves=(); for f in "${fanout_array[@]}"; do curves+=("two|$f|fan-out $f"); done
      plot_panel "$model" "$4" "${curves[@]}"
    done
    echo "unset multiplot"
  } > "$work/$1.gp"
  draw "$work/$1.gp"
}
fanout_figure relative "Figure 19: execution time relative to the ideal execution (2 levels; 95% intervals)" "execution time / ideal" ratio ""
fanout_figure actual "Figure 20: actual execution time (2 levels; time unit: a mean elementary function)" "execution time" time \
  "set logscale y 2"
styles=("${level_styles[@]}"); height=800; width=1150
{
  plot_head "$out/levels.svg" "Three levels against two of the same size (ratio to the ideal; 95% intervals)" "execution time / ideal"
  echo "set key outside right top vertical samplen 1.5 width -4 font ',9'"
  for model in "${models[@]}"; do
    curves=()
    for f in "${level_fanout_array[@]}"; do curves+=("l2|$f|2 levels, F = $f" "l3|$f|3 levels, F = $f" "l3g|$f|3, grasp 64, F = $f"); done
    plot_panel "$model" ratio "${curves[@]}"
  done
  echo "unset multiplot"
} > "$work/levels.gp"
draw "$work/levels.gp"
echo
echo "== plots: $out/relative.svg $out/actual.svg $out/levels.svg"
if [ -n "$keep_csv" ]; then mkdir -p "$keep_csv"; cp "$work"/*.csv "$keep_csv"/; fi
echo "== done: $(uptime | sed 's/.*load/load/')"
