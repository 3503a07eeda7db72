// What the files of the option registries share (options.cpp, options_values.cpp, options_channel.cpp).
#pragma once

#include <string>
#include <string_view>

namespace augur::runtime {

// A value as the warnings quote it: 'value'.
inline std::string quoted(std::string_view value) { return "'" + std::string(value) + "'"; }

}  // namespace augur::runtime
