// The program file read (docs/formats.md, "Hierarchical programs"): `levels L`, then `function NAME` blocks
// of `call NAME [after I ...]` and `run TIME [after I ...]` lines, tasks numbered from 0 in each function.
#include <cctype>
#include <map>
#include <utility>

#include "augur/core/diagnostics.hpp"
#include "sim/hierarchy/program.hpp"
#include "sim/hierarchy/words.hpp"

namespace augur::sim::hierarchy {
namespace {

bool is_name(const std::string& text) {
  if (text.empty() || text.size() > 200) return false;
  for (const char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

class ProgramReader {
public:
  ProgramReader(const std::string& text, const std::string& file) : source_(file, text) {}

  Program read() {
    const auto lines = lines_of_words(source_.text());
    if (lines.empty() || lines[0][0].text != "levels") source_.fail(lines.empty() ? 0 : lines[0][0].offset, "a program starts with 'levels L'");
    if (lines[0].size() != 2) source_.fail(lines[0][0].offset, "'levels' takes one whole number");
    program_.levels = static_cast<int>(whole_of(source_, lines[0][1], 1, 8));
    for (std::size_t i = 1; i < lines.size(); ++i) line(lines[i]);
    if (program_.functions.empty()) source_.fail(source_.text().size(), "the program has no function");
    resolve();
    return std::move(program_);
  }

private:
  void line(const std::vector<Word>& words) {
    const std::string& key = words[0].text;
    if (key == "function") {
      if (words.size() != 2 || !is_name(words[1].text)) source_.fail(words.size() < 2 ? words[0].offset + 8 : words[1].offset, "expected 'function NAME' (letters, digits, _ - .)");
      close_function();
      if (index_.count(words[1].text) != 0) source_.fail(words[1].offset, "function '" + words[1].text + "' defined twice");
      index_[words[1].text] = static_cast<int>(program_.functions.size());
      program_.functions.push_back({words[1].text, 0, static_cast<int>(program_.callee.size()), 0});
      function_offset_.push_back(words[0].offset);
      return;
    }
    if (key != "call" && key != "run") source_.fail(words[0].offset, "expected 'function', 'call' or 'run', found '" + key + "'");
    if (program_.functions.empty()) source_.fail(words[0].offset, "a task outside a function");
    if (words.size() < 2) source_.fail(words[0].offset + key.size(), "'" + key + "' needs " + (key == "call" ? "a function name" : "an execution time"));
    auto& function = program_.functions.back();
    if (static_cast<long>(program_.callee.size()) >= maximum_tasks) source_.fail(words[0].offset, "more than " + std::to_string(maximum_tasks) + " tasks");
    const int task = function.tasks++;
    program_.callee.push_back(-1);
    program_.time.push_back(0.0);
    task_offset_.push_back(words[0].offset);
    if (key == "call") {
      calls_.emplace_back(static_cast<int>(program_.callee.size()) - 1, words[1]);
    } else {
      const double time = number_of(source_, words[1]);
      if (time < 0) source_.fail(words[1].offset, "an execution time cannot be negative");
      program_.time.back() = time;
    }
    if (words.size() == 2) return;
    if (words[2].text != "after") source_.fail(words[2].offset, "expected 'after' or the end of the line, found '" + words[2].text + "'");
    if (words.size() == 3) source_.fail(words[2].offset + 5, "'after' needs task numbers");
    for (std::size_t i = 3; i < words.size(); ++i) {
      const long before = whole_of(source_, words[i], 0, 1L << 30);
      if (before >= task) source_.fail(words[i].offset, "task " + std::to_string(task) + " can only depend on tasks before it (0 to " + std::to_string(task - 1) + "), found " + words[i].text);
      edges_.emplace_back(function.first_task + static_cast<int>(before), function.first_task + task);
    }
  }

  void close_function() {
    if (!program_.functions.empty() && program_.functions.back().tasks == 0)
      source_.fail(function_offset_.back(), "function '" + program_.functions.back().name + "' has no task");
  }

  // Calls bound to functions, levels assigned from the top, the ground level checked.
  void resolve() {
    close_function();
    std::vector<std::size_t> call_offset(program_.callee.size(), 0);
    for (const auto& [task, name] : calls_) {
      const auto found = index_.find(name.text);
      if (found == index_.end()) source_.fail(name.offset, "no function '" + name.text + "'");
      if (found->second == 0) source_.fail(name.offset, "the top function '" + name.text + "' cannot be called");
      program_.callee[static_cast<std::size_t>(task)] = found->second;
      call_offset[static_cast<std::size_t>(task)] = name.offset;
    }
    auto& functions = program_.functions;
    functions[0].level = 1;
    // Breadth first from the top: every function gets the level of its callers + 1, once.
    std::vector<int> queue{0};
    for (std::size_t next = 0; next < queue.size(); ++next) {
      const auto& function = functions[static_cast<std::size_t>(queue[next])];
      for (int t = function.first_task; t < function.first_task + function.tasks; ++t) {
        const int called = program_.callee[static_cast<std::size_t>(t)];
        const bool ground = function.level == program_.levels;
        if (ground && called >= 0)
          source_.fail(call_offset[static_cast<std::size_t>(t)], "function '" + function.name + "' is at the ground level (" + std::to_string(program_.levels) + "): its tasks are 'run', not 'call'");
        if (!ground && called < 0)
          source_.fail(task_offset_[static_cast<std::size_t>(t)], "function '" + function.name + "' is at level " + std::to_string(function.level) + " of " + std::to_string(program_.levels) + ": its tasks call functions of the next level ('run' is for the ground level)");
        if (called < 0) continue;
        auto& target = functions[static_cast<std::size_t>(called)];
        if (target.level == 0) {
          target.level = function.level + 1;
          queue.push_back(called);
        } else if (target.level != function.level + 1) {
          source_.fail(call_offset[static_cast<std::size_t>(t)], "function '" + target.name + "' is called at level " + std::to_string(function.level + 1) + " here and at level " + std::to_string(target.level) + " before");
        }
      }
    }
    for (std::size_t f = 0; f < functions.size(); ++f)
      if (functions[f].level == 0) source_.fail(function_offset_[f], "function '" + functions[f].name + "' is never called");
    link_dependencies(program_, edges_);
    if (program_.elementary_executions() > static_cast<double>(maximum_tasks) * 5)
      source_.fail(0, "the program executes more than " + std::to_string(maximum_tasks * 5) + " elementary functions");
  }

  core::SourceText source_;
  Program program_;
  std::map<std::string, int> index_;
  std::vector<std::size_t> function_offset_;
  std::vector<std::size_t> task_offset_;
  std::vector<std::pair<int, Word>> calls_;
  std::vector<std::pair<int, int>> edges_;
};

}  // namespace

Program parse_program(const std::string& text, const std::string& file) { return ProgramReader(text, file).read(); }

}  // namespace augur::sim::hierarchy
