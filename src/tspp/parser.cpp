#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include "augur/core/expression.hpp"
#include "augur/tspp.hpp"

namespace augur::tspp {
namespace {

using core::SourceText;

// Deeper structures would exhaust the stack of the recursive parser, predictor and simulator.
constexpr int max_depth = 1000;

bool is_name_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

// Reads the language of Figure 11: sections "resource", "task", "structure", in that order.
class Parser {
public:
  explicit Parser(SourceText source) : source_(std::move(source)), text_(source_.text()) { located_.file = source_.file(); }

  TaskSystem parse() {
    skip_blanks();
    expect_keyword("resource");
    while (starts_declaration()) resource();
    if (system_.resources.empty()) source_.fail(position_, "the resource section declares no resource");
    expect_keyword("task");
    while (starts_declaration()) task();
    if (system_.tasks.empty()) source_.fail(position_, "the task section declares no task");
    expect_keyword("structure");
    skip_blanks();
    if (peek() != '{' && peek() != '[') fail_here("expected '{' or '[' to start the structure");
    system_.structure = group();
    skip_blanks();
    if (position_ < text_.size()) fail_here("unexpected text after the structure (it is one group)");
    check_every_task_used();
    return std::move(system_);
  }

private:
  // Line and column of `offset`, scanning on from the last offset asked for (offsets mostly grow as
  // the parse goes on, so the whole file is scanned about once).
  core::SourceLocation locate(std::size_t offset) {
    if (offset < located_offset_) return source_.locate(offset);
    for (; located_offset_ < offset && located_offset_ < text_.size(); ++located_offset_) {
      if (text_[located_offset_] == '\n') {
        ++located_.line;
        located_.column = 1;
      } else {
        ++located_.column;
      }
    }
    return located_;
  }

  // ---- declarations ----

  void resource() {
    const std::size_t at = position_;
    Resource resource;
    resource.name = name("a resource name");
    resource.declared = locate(at);
    if (const auto previous = resource_indices_.find(resource.name); previous != resource_indices_.end()) {
      source_.fail(at, "resource '" + resource.name + "' is declared twice (first at " +
                           where(system_.resources[static_cast<std::size_t>(previous->second)].declared) + ")");
    }
    expect_arrow();
    skip_blanks();
    const std::size_t type_at = position_;
    const std::string type = name("a resource type (queuing or delay)");
    if (type == "delay") {
      resource.kind = Resource::Kind::Delay;
      resource.servers = 0;
    } else if (type == "queuing") {
      skip_blanks();
      if (peek() != ';') {
        const std::size_t expression_at = position_;
        const double servers = evaluate_expression();
        if (servers < 1.0 || servers != std::floor(servers) || servers > 1e6) {
          source_.fail(expression_at, "the number of servers of '" + resource.name +
                                          "' must be a positive integer, not " + core::format_shortest(servers));
        }
        resource.servers = static_cast<int>(servers);
      }
    } else {
      source_.fail(type_at, "unknown resource type '" + type + "' (expected queuing or delay)");
    }
    expect(';', "';' after the declaration of resource '" + resource.name + "'");
    resource_indices_[resource.name] = static_cast<int>(system_.resources.size());
    system_.resources.push_back(resource);
  }

  void task() {
    const std::size_t at = position_;
    Task task;
    task.name = name("a task name");
    task.declared = locate(at);
    if (const auto previous = task_indices_.find(task.name); previous != task_indices_.end()) {
      source_.fail(at, "task '" + task.name + "' is declared twice (first at " +
                           where(system_.tasks[static_cast<std::size_t>(previous->second)].declared) + ")");
    }
    task.demands.assign(system_.resources.size(), 0.0);
    std::vector<bool> given(system_.resources.size(), false);
    expect_arrow();
    expect('{', "'{' to open the demands of task '" + task.name + "'");
    skip_blanks();
    while (peek() != '}') {
      const std::size_t resource_at = position_;
      const std::string resource = name("a resource name or '}'");
      const auto found = resource_indices_.find(resource);
      if (found == resource_indices_.end()) {
        source_.fail(resource_at, "unknown resource '" + resource + "' in task '" + task.name + "'");
      }
      const int index = found->second;
      if (given[static_cast<std::size_t>(index)]) {
        source_.fail(resource_at, "task '" + task.name + "' gives its demand on '" + resource + "' twice");
      }
      expect(':', "':' after the resource name '" + resource + "'");
      skip_blanks();
      const std::size_t demand_at = position_;
      const double demand = evaluate_expression();
      if (demand > max_demand) {
        source_.fail(demand_at, "the demand of task '" + task.name + "' on '" + resource + "' is too large (" +
                                    core::format_shortest(demand) + "; at most 1e15)");
      }
      if (demand < 0.0) {
        source_.fail(demand_at, "the demand of task '" + task.name + "' on '" + resource + "' is negative (" +
                                    core::format_shortest(demand) + ")");
      }
      task.demands[static_cast<std::size_t>(index)] = demand < min_demand ? 0.0 : demand;
      given[static_cast<std::size_t>(index)] = true;
      expect(';', "';' after the demand on '" + resource + "'");
      skip_blanks();
      if (peek() == '\0') fail_here("the demands of task '" + task.name + "' are not closed with '}'");
    }
    ++position_;
    task_indices_[task.name] = static_cast<int>(system_.tasks.size());
    system_.tasks.push_back(task);
  }

  // ---- structure ----

  Node group(int depth = 1) {
    const std::size_t open_at = position_;
    if (depth > max_depth) {
      source_.fail(open_at, "groups nested more than " + std::to_string(max_depth) + " deep");
    }
    const char open = text_[position_++];
    const char close = open == '{' ? '}' : ']';
    Node node;
    node.kind = open == '{' ? Node::Kind::Serial : Node::Kind::Parallel;
    for (;;) {
      skip_blanks();
      const char c = peek();
      if (c == close) {
        ++position_;
        break;
      }
      if (c == '\0') {
        source_.fail(open_at, std::string("this '") + open + "' is never closed with '" + close + "'");
      }
      if (c == '{' || c == '[') {
        node.children.push_back(group(depth + 1));
        continue;
      }
      if (c == '}' || c == ']') fail_here(std::string("'") + c + "' does not close the '" + open + "' at " + where(source_.locate(open_at)));
      node.children.push_back(task_reference());
    }
    if (node.children.empty()) {
      source_.fail(open_at, std::string("empty ") + (open == '{' ? "serial group {}" : "parallel group []"));
    }
    return node;
  }

  Node task_reference() {
    const std::size_t at = position_;
    const std::string task = name("a task name, '{' or '['");
    const auto found = task_indices_.find(task);
    if (found == task_indices_.end()) source_.fail(at, "unknown task '" + task + "' in the structure");
    const int index = found->second;
    if (!used_.insert(index).second) {
      source_.fail(at, "task '" + task + "' appears twice in the structure (first at " + where(used_at_[task]) + ")");
    }
    used_at_[task] = locate(at);
    expect(';', "';' after the task name '" + task + "'");
    Node node;
    node.kind = Node::Kind::Task;
    node.task = index;
    return node;
  }

  void check_every_task_used() {
    for (std::size_t index = 0; index < system_.tasks.size(); ++index) {
      if (used_.count(static_cast<int>(index)) == 0) {
        const Task& task = system_.tasks[index];
        throw core::InputError(task.declared, "task '" + task.name + "' is declared but never used in the structure");
      }
    }
  }

  // ---- lexical ----

  double evaluate_expression() {
    const auto expression = core::parse_expression(source_, position_);
    return core::evaluate(*expression, {}, source_);
  }

  std::string name(const std::string& what) {
    skip_blanks();
    const std::size_t start = position_;
    while (position_ < text_.size() && is_name_character(text_[position_])) ++position_;
    if (position_ == start) {
      if (peek() == '\0') source_.fail(start, "expected " + what + " but the file ends");
      source_.fail(start, "expected " + what + " but found '" + std::string(1, peek()) + "'");
    }
    return text_.substr(start, position_ - start);
  }

  // True when the next token is a name that is not the next section's keyword.
  bool starts_declaration() {
    skip_blanks();
    if (!is_name_character(peek())) return false;
    std::size_t end = position_;
    while (end < text_.size() && is_name_character(text_[end])) ++end;
    const std::string word = text_.substr(position_, end - position_);
    return word != "resource" && word != "task" && word != "structure";
  }

  void expect_keyword(const std::string& keyword) {
    skip_blanks();
    const std::size_t at = position_;
    if (peek() == '\0') source_.fail(at, "expected the '" + keyword + "' section but the file ends");
    std::size_t end = position_;
    while (end < text_.size() && is_name_character(text_[end])) ++end;
    const std::string word = text_.substr(position_, end - position_);
    if (word != keyword) {
      source_.fail(at, "expected the '" + keyword + "' section" +
                           (word.empty() ? std::string(" but found '") + peek() + "'" : " but found '" + word + "'") +
                           " (sections come in the order resource, task, structure)");
    }
    position_ = end;
  }

  void expect_arrow() {
    skip_blanks();
    if (text_.compare(position_, 2, "<-") != 0) fail_here("expected '<-'");
    position_ += 2;
  }

  void expect(char wanted, const std::string& what) {
    skip_blanks();
    if (peek() == wanted) {
      ++position_;
      return;
    }
    fail_here("expected " + what + (peek() == '\0' ? std::string(" but the file ends") : " but found '" + std::string(1, peek()) + "'"));
  }

  // Spaces, newlines and comments ('%' to the end of the line).
  void skip_blanks() {
    while (position_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[position_]))) {
        ++position_;
      } else if (text_[position_] == '%') {
        while (position_ < text_.size() && text_[position_] != '\n') ++position_;
      } else {
        break;
      }
    }
  }

  [[noreturn]] void fail_here(const std::string& message) { source_.fail(position_, message); }
  [[nodiscard]] char peek() const { return position_ < text_.size() ? text_[position_] : '\0'; }
  [[nodiscard]] static std::string where(const core::SourceLocation& location) {
    return std::to_string(location.line) + ":" + std::to_string(location.column);
  }

  SourceText source_;
  const std::string& text_;
  std::size_t position_ = 0;
  TaskSystem system_;
  std::set<int> used_;
  std::unordered_map<std::string, core::SourceLocation> used_at_;
  std::unordered_map<std::string, int> resource_indices_;
  std::unordered_map<std::string, int> task_indices_;
  std::size_t located_offset_ = 0;
  core::SourceLocation located_{"", 1, 1};
};

void describe(const TaskSystem& system, const Node& node, std::string& text) {
  if (node.kind == Node::Kind::Task) {
    text += system.tasks[static_cast<std::size_t>(node.task)].name + "; ";
    return;
  }
  text += node.kind == Node::Kind::Serial ? "{ " : "[ ";
  for (const Node& child : node.children) describe(system, child, text);
  text += node.kind == Node::Kind::Serial ? "} " : "] ";
}

}  // namespace

int TaskSystem::resource_index(const std::string& name) const {
  for (std::size_t index = 0; index < resources.size(); ++index) {
    if (resources[index].name == name) return static_cast<int>(index);
  }
  return -1;
}

int TaskSystem::task_index(const std::string& name) const {
  for (std::size_t index = 0; index < tasks.size(); ++index) {
    if (tasks[index].name == name) return static_cast<int>(index);
  }
  return -1;
}

TaskSystem parse_task_system(const std::string& text, const std::string& file) {
  return Parser(SourceText(file, text)).parse();
}

std::string describe_structure(const TaskSystem& system) {
  std::string text;
  describe(system, system.structure, text);
  if (!text.empty()) text.pop_back();
  return text;
}

}  // namespace augur::tspp
