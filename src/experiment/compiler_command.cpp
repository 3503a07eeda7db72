// The wrapper mode of `augur cc` (translator.hpp): which arguments of a compiler command are sources, and
// the command with each source replaced by its translation, augur's include folder and, when it links,
// libaugur added. Pure: the arguments in, the planned command out.
#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "experiment/translator.hpp"

namespace augur::experiment {

bool is_source_path(std::string_view argument) {
  if (argument.empty() || argument.front() == '-') return false;
  const std::size_t dot = argument.rfind('.');
  if (dot == std::string_view::npos || argument.find('/', dot) != std::string_view::npos) return false;
  const std::string_view extension = argument.substr(dot);
  return extension == ".c" || extension == ".cc" || extension == ".cpp" || extension == ".cxx" || extension == ".C" || extension == ".c++";
}

CompilerCommand plan_compiler_command(const std::vector<std::string>& command, const CompilerSettings& settings) {
  namespace fs = std::filesystem;
  // GCC's options whose value is the next argument.
  static const std::set<std::string_view> with_value{
      "-o", "-I", "-L", "-l", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix",
      "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-MF", "-MT", "-MQ", "-x", "-Xlinker", "-Xassembler",
      "-Xpreprocessor", "-aux-info", "--param", "-T", "-u", "-z", "-e", "-specs", "-wrapper", "-arch"};
  CompilerCommand plan;
  if (command.empty()) return plan;
  std::vector<std::string> arguments(command.begin() + 1, command.end());
  std::set<std::string> names;  // translated paths, to keep base names apart
  std::vector<std::string> quote_directories;
  for (std::size_t index = 0; index < arguments.size(); ++index) {
    const std::string& argument = arguments[index];
    if (with_value.count(argument) != 0) {
      ++index;
      continue;
    }
    if (argument == "-c" || argument == "-S" || argument == "-E" || argument == "-M" || argument == "-MM" || argument == "-fsyntax-only") {
      plan.links = false;
    }
    if (!is_source_path(argument)) continue;
    const fs::path original(argument);
    const std::string base = original.filename().string();
    fs::path translated = fs::path(settings.temporary_directory) / base;
    for (int copy = 2; names.count(translated.string()) != 0; ++copy) {
      translated = fs::path(settings.temporary_directory) / std::to_string(copy) / base;
    }
    names.insert(translated.string());
    std::string directory = original.parent_path().string();
    if (directory.empty()) directory = ".";
    if (std::find(quote_directories.begin(), quote_directories.end(), directory) == quote_directories.end()) quote_directories.push_back(directory);
    plan.sources.push_back({index + 1, argument, translated.string()});
    arguments[index] = translated.string();
  }
  plan.argv.push_back(command.front());
  plan.argv.push_back("-I" + settings.include_directory);
  for (const std::string& directory : quote_directories) {
    plan.argv.push_back("-iquote");
    plan.argv.push_back(directory);
  }
  plan.argv.insert(plan.argv.end(), arguments.begin(), arguments.end());
  if (plan.links) {
    plan.argv.push_back("-L" + settings.library_directory);
    plan.argv.push_back("-laugur");
    plan.argv.push_back("-Wl,-rpath," + settings.library_directory);
  }
  return plan;
}

}  // namespace augur::experiment
