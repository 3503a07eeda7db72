# The smoke test of bench_outer_region: `--quick` exits 0 and prints each of its sections (the figures
# themselves are noise on a shared machine and are not checked). cmake -DBENCH=<bench_outer_region> -P this
execute_process(COMMAND ${BENCH} --quick RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "bench_outer_region --quick exited with ${status}\n${output}\n${errors}")
endif()
foreach(section "== gcc outer_region " "  the machine's steadiness before it (1 ms chunks of fixed work, 0.2 s each" "    arithmetic on 1 thread: mean " "    memory on 2 threads: mean "
                "== the machine's steadiness before each of 2 programs" "  period stability, 2 runs of augur run -p 2 --one-run: " "  accuracy, 1 interleaved rounds" "    the reference against itself: " "    the pace alone on 2 threads (its own clock: EXAMPLE_PACE=1, or NPB's progress lines stamped): "
                "    the pace alone on 1 thread (its own clock: "
                "    round 1: period " "      placement: team on one core in " "    placement: " "  disturbance, 1 runs of augur run" "runs: within 15% or flagged"
                "== no report from fewer than the minimum iterations" "  gcc cg_steps 96 6: period " "== summary" " latest     alone   alone 1  disturbed"
                "== goals of issue 16 over 2 programs" "  one-run S(2) within 10% of T(1)/T(2): " "  disturbed runs within 15% or flagged: ")
  string(FIND "${output}" "${section}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "bench_outer_region --quick printed no '${section}':\n${output}\n${errors}")
  endif()
endforeach()
