#include "cache_input.hpp"


#include <iostream>
#include <iterator>
#include <stdexcept>

#include "augur/core/expression.hpp"
#include "core/files.hpp"

namespace augur::cli {

core::Bindings parse_model_defines(const std::vector<std::string>& defines) {
  core::Bindings values;
  for (const std::string& define : defines) {
    const std::size_t equals = define.find('=');
    const std::string name = define.substr(0, equals);
    if (equals == std::string::npos || !core::is_name(name)) {
      throw core::InputError({"--define", 0, 0}, "expected NAME=VALUE, found '" + define + "'");
    }
    if (values.count(name) != 0)
      throw core::InputError({"--define", 0, 0}, "parameter '" + name + "' is defined twice");
    const core::SourceText value("--define " + name, define.substr(equals + 1));
    values[name] = core::evaluate(*core::parse_expression(value), {}, value);
  }
  return values;
}

sim::cache::Model read_cache_model(const std::string& path, const std::vector<std::string>& defines) {
  const core::Bindings values = parse_model_defines(defines);
  if (path == "-") {
    std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return sim::cache::parse_model(core::SourceText("<stdin>", std::move(text)), values);
  }
  return sim::cache::parse_model(core::SourceText(path, core::read_file(path)), values);
}

sim::cache::TraceFormat trace_format_option(const std::string& word) {
  sim::cache::TraceFormat format = sim::cache::TraceFormat::Detect;
  if (!sim::cache::parse_trace_format(word, format))
    throw core::InputError({"--format", 0, 0}, "expected din, lackey or augur, found '" + word + "'");
  return format;
}

std::unique_ptr<TraceInput> open_trace_input(const std::string& path, sim::cache::TraceFormat format) {
  auto input = std::make_unique<TraceInput>();
  std::istream* stream = &std::cin;
  input->name = "<stdin>";
  if (path != "-") {
    input->file.open(path, std::ios::binary);
    if (!input->file) throw std::runtime_error(path + ": cannot read");
    stream = &input->file;
    input->name = path;
  }
  input->reader = sim::cache::open_trace(*stream, input->name, format);
  return input;
}

}  // namespace augur::cli
