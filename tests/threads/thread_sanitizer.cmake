# Run by the CApiThreadSanitizer test (tests/threads/CMakeLists.txt): configures the project with clang and
# the build type ThreadSanitize in BUILD_DIR, builds libaugur and c_api_threads_test, runs the test in
# WORK_DIR, and fails on a build failure, a failed check or any ThreadSanitizer report.
foreach(variable SOURCE_DIR BUILD_DIR WORK_DIR GENERATOR)
  if(NOT ${variable})
    message(FATAL_ERROR "thread_sanitizer.cmake: ${variable} is not set")
  endif()
endforeach()
if(NOT C_COMPILER OR NOT CXX_COMPILER)
  message(FATAL_ERROR "CApiThreadSanitizer needs clang and clang++ (not found when the project was configured)")
endif()

# Runs a step; on failure prints its output and stops.
function(step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${name} failed (${status}):\n${output}")
  endif()
  message(STATUS "${name}: done")
  set(step_output "${output}" PARENT_SCOPE)
endfunction()

set(launcher "")
if(LAUNCHER)
  set(launcher -DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
step("configure with ThreadSanitizer" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BUILD_DIR} -G ${GENERATOR}
  -DCMAKE_BUILD_TYPE=ThreadSanitize -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
  -DAUGUR_BUILD_TESTS=ON -DAUGUR_BUILD_BENCHMARKS=OFF -DAUGUR_WERROR=OFF ${launcher})
step("build libaugur and c_api_threads_test" ${CMAKE_COMMAND} --build ${BUILD_DIR} --target c_api_threads_test)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
# The variables of the user's environment that would change what the test does are cleared.
step("c_api_threads_test under ThreadSanitizer" ${CMAKE_COMMAND} -E env
  "TSAN_OPTIONS=halt_on_error=1 exitcode=66 second_deadlock_stack=1"
  --unset=AUGUR_MODE --unset=AUGUR_TOOL_OPTIONS --unset=AUGUR_EXPERIMENT_FILE --unset=AUGUR_COUNTERS
  --unset=AUGUR_BSP_TRACE --unset=AUGUR_HISTORY --unset=AUGUR_SWEEP --unset=AUGUR_SELF_TUNING
  ${BUILD_DIR}/bin/c_api_threads_test ${WORK_DIR})
if(step_output MATCHES "ThreadSanitizer")
  message(FATAL_ERROR "ThreadSanitizer reported:\n${step_output}")
endif()
message(STATUS "no ThreadSanitizer report")
file(REMOVE_RECURSE ${WORK_DIR})
