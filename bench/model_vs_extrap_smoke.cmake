# The smoke test of bench/model_vs_extrap.py: one synthetic set per parameter count and noise level through
# the real augur prints augur's two rows (EXTRAP_SRC unset); the figures are not checked.
# cmake -DPYTHON=<python3> -DSCRIPT=<bench/model_vs_extrap.py> -DAUGUR=<augur> -P this
execute_process(COMMAND ${PYTHON} ${SCRIPT} --augur ${AUGUR} --cases 1 RESULT_VARIABLE status OUTPUT_VARIABLE output
                ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "model_vs_extrap.py --cases 1 exited with ${status}\n${output}\n${errors}")
endif()
foreach(section "synthetic sets: 3 per noise level" "| 1% | augur | " "| 5% | augur | " "(EXTRAP_SRC not set: augur alone)")
  string(FIND "${output}" "${section}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "model_vs_extrap.py --cases 1 printed no '${section}':\n${output}\n${errors}")
  endif()
endforeach()
