# TestLabels.EveryTestIsUnitOrE2e: every test known to CTest in BUILD_DIRECTORY carries exactly one of the
# labels `unit` and `e2e` (tests/CMakeLists.txt). Asks CTest itself (`ctest -N`), so it sees the tests
# gtest_discover_tests found and any test added without augur_test; fails naming the tests at fault.
# Run as: cmake -DCTEST=<ctest> -DBUILD_DIRECTORY=<build> -P check_labels.cmake
foreach(variable CTEST BUILD_DIRECTORY)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "check_labels.cmake: -D${variable}=... is required")
  endif()
endforeach()

# The names of the tests `ctest -N <arguments>` lists, in `output`.
function(list_tests output)
  execute_process(COMMAND ${CTEST} --test-dir ${BUILD_DIRECTORY} -N ${ARGN}
                  OUTPUT_VARIABLE text ERROR_VARIABLE error RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ctest -N ${ARGN} failed (${status}): ${error}")
  endif()
  string(REGEX MATCHALL "Test +#[0-9]+: [^\n]*" lines "${text}")
  set(names "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^Test +#[0-9]+: " "" name "${line}")
    list(APPEND names "${name}")
  endforeach()
  set(${output} "${names}" PARENT_SCOPE)
endfunction()

list_tests(all)
list_tests(unit -L "^unit$")
list_tests(e2e -L "^e2e$")
list_tests(neither -LE "^(unit|e2e)$")
list_tests(both -L "^unit$" -L "^e2e$")  # several -L: a test must match each
list(LENGTH all total)
list(LENGTH unit unit_count)
list(LENGTH e2e e2e_count)
message(STATUS "${total} tests: ${unit_count} unit, ${e2e_count} e2e")

set(problems "")
if(total EQUAL 0)
  string(APPEND problems "\nno tests found in ${BUILD_DIRECTORY}")
endif()
foreach(name IN LISTS neither)
  string(APPEND problems "\n${name}: neither unit nor e2e")
endforeach()
foreach(name IN LISTS both)
  string(APPEND problems "\n${name}: both unit and e2e")
endforeach()
math(EXPR labelled "${unit_count} + ${e2e_count}")
if(problems STREQUAL "" AND NOT labelled EQUAL total)
  string(APPEND problems "\n${unit_count} unit + ${e2e_count} e2e tests differ from the ${total} tests")
endif()
if(NOT problems STREQUAL "")
  message(FATAL_ERROR "every test must carry exactly one of the labels unit and e2e (tests/CMakeLists.txt):${problems}")
endif()
