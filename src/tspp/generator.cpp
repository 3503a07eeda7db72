// The random task systems of `augur gen-tasks`, and the writer of the input language. The generator
// emits its system as it draws it (resources, then each task, then the structure), to a sink that
// either builds a TaskSystem or writes the text: `augur gen-tasks` keeps one task's demands at a time.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <utility>

#include "augur/core/expression.hpp"
#include "augur/tspp.hpp"

namespace augur::tspp {
namespace {

using SparseDemands = std::vector<std::pair<std::size_t, double>>;  // (resource, demand), by resource

// What the generator emits, in this order: resources, tasks, then the structure depth-first.
class Sink {
public:
  virtual ~Sink() = default;
  virtual void resource(const std::string& name) = 0;
  virtual void task(const std::string& name, const SparseDemands& demands) = 0;
  virtual void open(Node::Kind kind, int indent) = 0;
  virtual void leaf(int task, int indent) = 0;
  virtual void close(Node::Kind kind, int indent) = 0;
};

std::string pad(int indent) { return std::string(static_cast<std::size_t>(indent) * 2, ' '); }
const char* opening(Node::Kind kind) { return kind == Node::Kind::Serial ? "{\n" : "[\n"; }
const char* closing(Node::Kind kind) { return kind == Node::Kind::Serial ? "}\n" : "]\n"; }

void append_task_line(std::string& text, const std::string& name, const std::vector<std::string>& resources,
                      const SparseDemands& demands) {
  text += "  " + name + " <- {";
  for (const auto& [k, value] : demands) text += " " + resources[k] + ": " + core::format_shortest(value) + ";";
  text += " }\n";
}

class Generator {
public:
  Generator(const GeneratorOptions& options, Sink& sink) : options_(options), sink_(sink), random_(options.seed) {}

  void run() {
    for (int k = 0; k < options_.resources; ++k) sink_.resource("r" + std::to_string(k + 1));
    std::uniform_real_distribution<double> demand(options_.demand_min, options_.demand_max);
    std::bernoulli_distribution uses(options_.use_probability);
    std::uniform_int_distribution<int> any_resource(0, options_.resources - 1);
    SparseDemands demands;
    for (int i = 0; i < options_.tasks; ++i) {
      demands.clear();
      for (std::size_t k = 0; k < static_cast<std::size_t>(options_.resources); ++k) {
        if (uses(random_)) demands.emplace_back(k, round3(demand(random_)));
      }
      if (demands.empty()) {  // the demand is drawn before the resource (as C++17 orders `a[f()] = g()`)
        const double value = round3(demand(random_));
        demands.emplace_back(static_cast<std::size_t>(any_resource(random_)), value);
      }
      sink_.task("t" + std::to_string(i + 1), demands);
    }
    const bool parallel_root = std::bernoulli_distribution(0.5)(random_);
    group(options_.tasks, 1, parallel_root);
  }

private:
  // Demands with three decimals: the file reads back to the same numbers.
  static double round3(double value) { return std::max(0.001, std::round(value * 1000.0) / 1000.0); }

  // A group of `count` tasks; groups alternate serial and parallel as they nest.
  void group(int count, int level, bool parallel) {
    const Node::Kind kind = parallel ? Node::Kind::Parallel : Node::Kind::Serial;
    sink_.open(kind, level);
    if (count == 1 || level >= options_.depth) {
      for (int i = 0; i < count; ++i) sink_.leaf(next_task_++, level + 1);
      sink_.close(kind, level);
      return;
    }
    // Split the tasks into 2 to 4 parts (fewer when there are fewer tasks).
    const int parts = std::uniform_int_distribution<int>(2, std::min(count, 4))(random_);
    std::vector<int> sizes(static_cast<std::size_t>(parts), 1);
    for (int extra = count - parts; extra > 0; --extra) {
      sizes[static_cast<std::size_t>(std::uniform_int_distribution<int>(0, parts - 1)(random_))] += 1;
    }
    for (int size : sizes) {
      if (size == 1) {
        sink_.leaf(next_task_++, level + 1);
      } else {
        group(size, level + 1, !parallel);
      }
    }
    sink_.close(kind, level);
  }

  GeneratorOptions options_;
  Sink& sink_;
  std::mt19937_64 random_;
  int next_task_ = 0;
};

// Builds the TaskSystem.
class Builder final : public Sink {
public:
  void resource(const std::string& name) override {
    Resource resource;
    resource.name = name;
    system.resources.push_back(resource);
  }
  void task(const std::string& name, const SparseDemands& demands) override {
    Task task;
    task.name = name;
    task.demands.assign(system.resources.size(), 0.0);
    for (const auto& [k, value] : demands) task.demands[k] = value;
    system.tasks.push_back(std::move(task));
  }
  void open(Node::Kind kind, int /*indent*/) override {
    Node node;
    node.kind = kind;
    open_.push_back(std::move(node));
  }
  void leaf(int task, int /*indent*/) override {
    Node node;
    node.task = task;
    open_.back().children.push_back(node);
  }
  void close(Node::Kind /*kind*/, int /*indent*/) override {
    Node node = std::move(open_.back());
    open_.pop_back();
    if (open_.empty()) {
      system.structure = std::move(node);
    } else {
      open_.back().children.push_back(std::move(node));
    }
  }
  TaskSystem system;

private:
  std::vector<Node> open_;  // the groups being filled, outermost first
};

// Writes the text as write_task_system does, in pieces of about `chunk` characters.
class Writer final : public Sink {
public:
  Writer(const std::function<void(std::string_view)>& write, std::size_t chunk) : write_(write), chunk_(chunk) {
    text_ = "resource\n";
  }
  void resource(const std::string& name) override {
    names_.push_back(name);
    text_ += "  " + name + " <- queuing;\n";
    flush(false);
  }
  void task(const std::string& name, const SparseDemands& demands) override {
    if (!in_tasks_) text_ += "task\n";
    in_tasks_ = true;
    append_task_line(text_, name, names_, demands);
    flush(false);
  }
  void open(Node::Kind kind, int indent) override {
    if (!in_structure_) text_ += "structure\n";
    in_structure_ = true;
    text_ += pad(indent) + opening(kind);
    flush(false);
  }
  void leaf(int task, int indent) override {
    text_ += pad(indent) + "t" + std::to_string(task + 1) + ";\n";
    flush(false);
  }
  void close(Node::Kind kind, int indent) override {
    text_ += pad(indent) + closing(kind);
    flush(indent == 1);
  }

private:
  void flush(bool always) {
    if (!always && text_.size() < chunk_) return;
    write_(text_);
    text_.clear();
  }
  const std::function<void(std::string_view)>& write_;
  std::size_t chunk_;
  std::string text_;
  std::vector<std::string> names_;
  bool in_tasks_ = false;
  bool in_structure_ = false;
};

void write_node(const TaskSystem& system, const Node& node, int indent, std::string& text) {
  if (node.kind == Node::Kind::Task) {
    text += pad(indent) + system.tasks[static_cast<std::size_t>(node.task)].name + ";\n";
    return;
  }
  text += pad(indent) + opening(node.kind);
  for (const Node& child : node.children) write_node(system, child, indent + 1, text);
  text += pad(indent) + closing(node.kind);
}

void check(const GeneratorOptions& options) {
  if (options.tasks < 1 || options.resources < 1 || options.depth < 1) {
    throw std::invalid_argument("tasks, resources and depth must be at least 1");
  }
  if (!(options.demand_min > 0.0) || options.demand_max < options.demand_min) {
    throw std::invalid_argument("demands must satisfy 0 < demand_min <= demand_max");
  }
  if (!(options.demand_max <= max_demand)) {
    throw std::invalid_argument("demand_max is " + core::format_shortest(options.demand_max) + "; the input language reads demands of at most " +
                                core::format_shortest(max_demand));
  }
}

}  // namespace

std::string write_task_system(const TaskSystem& system) {
  std::string text = "resource\n";
  std::vector<std::string> names;
  for (const Resource& resource : system.resources) {
    names.push_back(resource.name);
    text += "  " + resource.name + " <- ";
    if (resource.kind == Resource::Kind::Delay) {
      text += "delay;\n";
    } else {
      text += resource.servers == 1 ? "queuing;\n" : "queuing " + std::to_string(resource.servers) + ";\n";
    }
  }
  text += "task\n";
  SparseDemands demands;
  for (const Task& task : system.tasks) {
    demands.clear();
    for (std::size_t k = 0; k < task.demands.size(); ++k) {
      if (task.demands[k] > 0.0) demands.emplace_back(k, task.demands[k]);
    }
    append_task_line(text, task.name, names, demands);
  }
  text += "structure\n";
  write_node(system, system.structure, 1, text);
  return text;
}

TaskSystem generate_task_system(const GeneratorOptions& options) {
  check(options);
  Builder builder;
  Generator(options, builder).run();
  return std::move(builder.system);
}

void write_generated_task_system(const GeneratorOptions& options, const std::function<void(std::string_view)>& write) {
  check(options);
  Writer writer(write, 1 << 16);
  Generator(options, writer).run();
}

}  // namespace augur::tspp
