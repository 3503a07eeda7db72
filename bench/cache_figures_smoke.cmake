# The smoke test of bench/cache_figures.sh: `--quick` (the a/b models and transpose.c at N = 16, pictures in a
# temporary folder) exits 0 and prints each of its sections; the figures are not checked (the times are noise
# on a shared machine). cmake -DSCRIPT=<bench/cache_figures.sh> -DBUILD=<build folder> -P this
execute_process(COMMAND bash ${SCRIPT} ${BUILD} --quick RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cache_figures.sh --quick exited with ${status}\n${output}\n${errors}")
endif()
foreach(section "augur cache figures (" "== ab_arms (examples/cache/ab_arms.model)" "  time fixed " "  time single "
                "  stochastic-fixed       mean 0.000 / max 0.000 points" "== ab_loop (" "== transpose_c ("
                "  time exact 8-way " "  time statstack 1/1000 " "  statstack              mean " "ab_loop.svg" "== done: ")
  string(FIND "${output}" "${section}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "cache_figures.sh --quick printed no '${section}':\n${output}\n${errors}")
  endif()
endforeach()
