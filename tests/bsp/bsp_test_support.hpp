// What the tests of the BSP engine share (bsp_test.cpp, bsp_trace_errors_test.cpp): the test data and a
// trace of machine "/" with 2 processes written record by record.
#pragma once

#include <string>

namespace augur::bsp::test {

inline const std::string data_dir = AUGUR_BSP_DATA_DIR;

inline const std::string header2 = R"({"augur":"bsp","version":1,"ranks":2})";

// A superstep record of machine "/" with 2 processes; `extra` is spliced in before the closing brace.
inline std::string record(int rank, int superstep, const std::string& sync = "oblivious", const std::string& extra = "") {
  return R"({"rank":)" + std::to_string(rank) + R"(,"machine":"/","pid":)" + std::to_string(rank) +
         R"(,"nprocs":2,"superstep":)" + std::to_string(superstep) +
         R"(,"work":1,"in":0,"out":0,"partners":[],"sync":")" + sync + R"(","end":)" + std::to_string(superstep) +
         extra + "}";
}

}  // namespace augur::bsp::test
