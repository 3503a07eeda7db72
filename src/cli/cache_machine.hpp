// This machine's cache hierarchy, from Linux's /sys/devices/system/cpu/cpu0/cache/index*/ (augur cache sim
// --machine): one level per index (level, type, size, ways_of_associativity, coherency_line_size), LRU,
// write-back, write-allocate; named l1i and l1d (a split first level), l2, l3, ...
#pragma once

#include <string>
#include <vector>

#include "sim/cache/cache_spec.hpp"

namespace augur::cli {

// Throws std::runtime_error when the folder has no cache description, core::InputError when a file holds
// what is not expected.
[[nodiscard]] std::vector<sim::cache::CacheSpec> machine_cache_levels(
    const std::string& folder = "/sys/devices/system/cpu/cpu0/cache");

}  // namespace augur::cli
