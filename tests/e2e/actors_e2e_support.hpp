// What the end-to-end tests of augur actors share (actors_e2e_test.cpp, actors_parallel_e2e_test.cpp): the
// binary, the examples' folder, a run of `augur actors ARGUMENTS...`, and a ping-pong of four trips.
#pragma once

#include <string>
#include <vector>

#include "core/process.hpp"

namespace augur::e2e::actors {

using Arguments = std::vector<std::string>;

inline const std::string augur_exe = AUGUR_EXE;
inline const std::string examples = std::string(AUGUR_EXAMPLES_DIR) + "/actors/";

// augur actors ARGUMENTS...
inline core::ProcessResult run_actors(const Arguments& arguments) {
  Arguments argv{augur_exe, "actors"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return core::run_process(argv);
}

// Four trips on two sites (docs/actors.md): send 1, 20 / 10 on the link, latency 2, receive 0.5, compute 3.
inline const char* const ping_pong = R"(type P {
  on serve { send ball(hits = 1) size 20 to b }
  on ball {
    compute 3
    if hits < 4 { send ball(hits = hits + 1) size 20 to sender }
  }
}
player a : P
player b : P
start serve to a
)";

}  // namespace augur::e2e::actors
