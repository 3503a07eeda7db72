// Where and when a coupling measurement runs: the machine's description and the start time, for the
// measurement file (coupling_measure.cpp). Private to src/runtime.
#pragma once

#include <string>

#include "augur/coupling.hpp"

namespace augur::runtime {

// The host name, the CPU model, the cores, the caches and the memory of this machine.
coupling::Machine describe_machine();

// ISO 8601 UTC with milliseconds: two runs started in the same second stay apart in the database.
std::string utc_now();

}  // namespace augur::runtime
