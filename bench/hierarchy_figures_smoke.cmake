# The smoke test of bench/hierarchy_figures.sh: `--quick` (small sweeps, pictures in a temporary folder) exits 0,
# prints each of its sections and draws the three plots; the figures are not checked (they are the sweep's,
# which the examples and tests check). cmake -DSCRIPT=<bench/hierarchy_figures.sh> -DBUILD=<build folder> -P this
set(out ${BUILD}/hierarchy_figures_smoke)
file(REMOVE_RECURSE ${out})
execute_process(COMMAND bash ${SCRIPT} ${BUILD} --quick --out ${out} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "hierarchy_figures.sh --quick exited with ${status}\n${output}\n${errors}")
endif()
foreach(section "augur hierarchy figures (" "  two: augur hierarchy sweep --model UU20,XU11,XP11,XU20 --fanout 2,4 "
                "  levels_three: augur hierarchy sweep --levels 3 " "  levels_three_grasp64: augur hierarchy sweep --machine "
                "== Figure 19: execution time relative to the ideal execution" "  XU20        4 "
                "== Figure 20: execution time" "  XP11    ideal " "  1. fan-out 4, 16 processors and more: ratio "
                "  2. XU20: mean ratio " "  3. UU20 fan-out 2: time " "  4. middle grasp 64, XU11 fan-out 2: "
                "  levels_three_grasp64\n  Model Fan-out       8      16\n" "== plots: " "== done: ")
  string(FIND "${output}" "${section}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "hierarchy_figures.sh --quick printed no '${section}':\n${output}\n${errors}")
  endif()
endforeach()
foreach(plot relative actual levels)
  file(READ ${out}/${plot}.svg svg LIMIT 4000)
  string(FIND "${svg}" "<svg" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "hierarchy_figures.sh --quick drew no SVG ${out}/${plot}.svg")
  endif()
endforeach()
file(REMOVE_RECURSE ${out})
