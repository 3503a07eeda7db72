// Reading a program model for the augur cache commands that take one (trace, predict): the file (or '-',
// standard input) and the --define N=V overrides of its parameters (docs/formats.md, "Program models").
#pragma once

#include <string>
#include <vector>

#include "sim/cache/model.hpp"

namespace augur::cli {

// "N=V" words as parameter values: N a name of the expression language, V an expression of numbers (1e6,
// 2^20). Errors are core::InputError under "--define".
[[nodiscard]] core::Bindings parse_model_defines(const std::vector<std::string>& defines);

// The model at `path` ("-": standard input) with `defines` applied; errors are core::InputError at the
// file:line:col of the fault, a file that cannot be read a std::runtime_error naming it.
[[nodiscard]] sim::cache::Model read_cache_model(const std::string& path, const std::vector<std::string>& defines);

}  // namespace augur::cli
