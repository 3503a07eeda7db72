// The inputs of the augur cache commands: a trace named on the command line (sim, curve), a program model
// and the --define N=V overrides of its parameters (trace, predict; docs/formats.md, "Program models"). Whether progress goes
// to standard error: progress_on_stderr (progress.hpp).
#pragma once

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "sim/cache/model.hpp"
#include "sim/cache/trace_reader.hpp"

namespace augur::cli {

// "N=V" words as parameter values: N a name of the expression language, V an expression of numbers (1e6,
// 2^20). Errors are core::InputError under "--define".
[[nodiscard]] core::Bindings parse_model_defines(const std::vector<std::string>& defines);

// The model at `path` ("-": standard input) with `defines` applied; errors are core::InputError at the
// file:line:col of the fault, a file that cannot be read a std::runtime_error naming it.
[[nodiscard]] sim::cache::Model read_cache_model(const std::string& path, const std::vector<std::string>& defines);

// --format: "din", "lackey", "augur", or empty to detect; any other word is a core::InputError under "--format".
[[nodiscard]] sim::cache::TraceFormat trace_format_option(const std::string& word);

// A trace opened for reading: the file at `path` ("-": standard input, named "<stdin>") and its reader, which
// reads from `file` (so the whole is held by pointer, never moved). A file that cannot be read is a
// std::runtime_error naming it; a trace in no known format a core::InputError.
struct TraceInput {
  std::ifstream file;
  std::string name;
  std::unique_ptr<sim::cache::TraceReader> reader;
};
[[nodiscard]] std::unique_ptr<TraceInput> open_trace_input(const std::string& path, sim::cache::TraceFormat format);

}  // namespace augur::cli
