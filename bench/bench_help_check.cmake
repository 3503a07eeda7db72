# Every benchmark answers `--help` with its usage on standard output and exit status 0, and refuses an option it
# does not take (exit status 2, or 1 from Google Benchmark's own parser) at once, before any measurement.
# cmake -DBIN=<build/bin> -DBENCHES="bench_a;bench_b;..." -P this
foreach(bench IN LISTS BENCHES)
  if(NOT EXISTS ${BIN}/${bench})
    message(FATAL_ERROR "${bench} is not built in ${BIN}")
  endif()
  execute_process(COMMAND ${BIN}/${bench} --help RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors
                  TIMEOUT 20)
  if(NOT status EQUAL 0 OR NOT output MATCHES "(usage: ${bench}|--benchmark_filter)")
    message(FATAL_ERROR "${bench} --help: exit ${status}, no usage on standard output\n${output}\n${errors}")
  endif()
  execute_process(COMMAND ${BIN}/${bench} --no-such-option RESULT_VARIABLE status OUTPUT_VARIABLE output
                  ERROR_VARIABLE errors TIMEOUT 20)
  if(NOT (status EQUAL 2 OR status EQUAL 1) OR NOT errors MATCHES "(no-such-option)")
    message(FATAL_ERROR "${bench} --no-such-option: exit ${status}, not refused\n${output}\n${errors}")
  endif()
endforeach()
list(LENGTH BENCHES count)
message(STATUS "${count} benchmarks answer --help and refuse an unknown option")
