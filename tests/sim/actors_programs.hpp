// Programs and machines the unit tests of the actor simulator share (actors_test.cpp, actors_errors_test.cpp,
// actors_trace_test.cpp, actors_wormhole_test.cpp), and the check of their located errors.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "sim/actors/simulate.hpp"

namespace augur::sim::actors::test {

// The simulation of a program on a machine under a mapping, all given as text.
inline Simulation run_mapped(const std::string& program_text, const std::string& machine_text, const std::string& mapping_text) {
  const Program program = parse_program(program_text, "p.actors", {});
  const Machine machine = parse_machine(machine_text, "m.machine");
  return simulate(program, machine, read_mapping(mapping_text, "m.map", program, machine).mapping, {});
}

// Sites 0-1-2-3 in a line, latency 1, bandwidth 5 but the middle link's. Channels: 0 is 0->1, 2 is 1->2,
// 4 is 2->3 (the odd ones the other way).
inline std::string line_of_four(const std::string& switching, const std::string& middle_bandwidth = "5") {
  return "topology links 4\nlink 0 1\nlink 1 2 bandwidth " + middle_bandwidth +
         "\nlink 2 3\nlatency 1\nbandwidth 5\nswitching " + switching + "\n";
}

// A ball between a and b: `rounds` hits (4 unless set), each a compute of 3 and a message of size 20.
inline const char* const ping_pong = R"(param rounds = 4
type Player {
  on serve { send ball(hits = 1) size 20 to b }
  on ball {
    compute 3
    if hits < rounds { send ball(hits = hits + 1) size 20 to sender }
  }
}
player a : Player
player b : Player
start serve to a
)";

// One message of size 10 from s to z (map them: "s 0\nz 3\n").
inline const char* const one_message = R"(type S { on go { send data size 10 to z } }
type Z { on data { compute 0 } }
player s : S
player z : Z
start go to s
)";

// Two messages of size 10, from a and from b, to z, both sent at 0 (map them: "a 0\nb 0\nz 3\n").
inline const char* const two_senders = R"(type S { on go { send data size 10 to z } }
type Z { on data { compute 0 } }
player a : S
player b : S
player z : Z
start go to a
start go to b
)";

// The located message of the InputError that `read(input)` throws, or "no error".
template <typename Read>
std::string error_of(const Read& read, const std::string& input) {
  try {
    read(input);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

// Each input (first) read by `read` fails with its message (second).
template <typename Read>
void expect_errors(const Read& read, const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [input, message] : cases) EXPECT_EQ(error_of(read, input), message) << input;
}

inline std::string program_error(const std::string& text, std::map<std::string, double> set = {}) {
  return error_of([&](const std::string& input) { (void)parse_program(input, "p.actors", set); }, text);
}

// A 3-stage pipeline of `items` items (actors_test.cpp, actors_errors_test.cpp).
inline constexpr const char* pipeline = R"(param items = 4
param stages = 3
type Source { on go { loop items { send item size 10 to stage[0] } } }
type Stage {
  on item {
    compute 5
    if index + 1 < stages { send item size 10 to stage[index + 1] }
  }
}
player source : Source
group stage[stages] : Stage
start go to source
)";

}  // namespace augur::sim::actors::test
