// How the seed's TSPP method scales (issue 15, item 9): generated systems of 10^3, 10^4 and 10^5 tasks
// and a pipeline of 10^5 tasks (a serial chain of parallel groups of 10), each predicted in a child
// process that reports its time and peak resident memory (getrusage), or the refusal past the limit.
// Prints figures; never fails on a time.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>

#include "core/table.hpp"
#include "augur/tspp_predictor.hpp"
#include "bench_arguments.hpp"

namespace {

using augur::tspp::Node;
using augur::tspp::TaskSystem;

// A serial chain of parallel groups of `width` tasks on 3 resources (few concurrent pairs).
TaskSystem pipeline(int tasks, int width) {
  TaskSystem system;
  for (int k = 0; k < 3; ++k) system.resources.push_back({"r" + std::to_string(k + 1), {}, 1, {}});
  system.structure.kind = Node::Kind::Serial;
  for (int i = 0; i < tasks; ++i) {
    system.tasks.push_back({"t" + std::to_string(i + 1), {0.1 + 0.01 * (i % 7), i % 2 == 0 ? 0.2 : 0.0, 0.05 * (i % 3)}, {}});
    if (i % width == 0) system.structure.children.push_back(Node{Node::Kind::Parallel, -1, {}});
    system.structure.children.back().children.push_back(Node{Node::Kind::Task, i, {}});
  }
  return system;
}

// Runs the prediction in a child; returns "seconds|peak MB|iterations" or "refused: why".
std::string measure(const TaskSystem& system) {
  int channel[2];
  if (pipe(channel) != 0) return "pipe failed";
  const pid_t child = fork();
  if (child == 0) {
    close(channel[0]);
    std::string report;
    try {
      const auto start = std::chrono::steady_clock::now();
      const auto prediction = augur::tspp::predict(system);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
      char text[96];
      std::snprintf(text, sizeof text, "%.3g / %.3g|%.0f|%d", seconds, cpu, static_cast<double>(usage.ru_maxrss) / 1024.0,
                    prediction.iterations);
      report = text;
    } catch (const std::exception& error) {
      report = std::string("refused: ") + error.what();
      std::fprintf(stderr, "%s\n", report.c_str());
      report = "refused (past the limit)";
    }
    (void)!write(channel[1], report.data(), report.size());
    _exit(0);
  }
  close(channel[1]);
  std::string report;
  char buffer[512];
  for (ssize_t got; (got = read(channel[0], buffer, sizeof buffer)) > 0;) report.append(buffer, static_cast<std::size_t>(got));
  close(channel[0]);
  int status = 0;
  waitpid(child, &status, 0);
  return report.empty() ? "the child failed" : report;
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_tspp_scale\n"
                                "The TSPP method on 10^3 to 10^5 tasks: time and peak memory, or the refusal past its limit",
                                {}, 0);
  augur::core::TextTable table({"system", "tasks", "concurrent pairs", "seconds: wall / CPU", "peak MB", "iterations"});
  auto row = [&table](const std::string& name, const TaskSystem& system) {
    const std::string report = measure(system);
    const std::string pairs = std::to_string(augur::tspp::concurrent_pairs(system));
    if (report.rfind("refused", 0) == 0 || report.find('|') == std::string::npos) {
      table.add_row({name, std::to_string(system.tasks.size()), pairs, report, "", ""});
      return;
    }
    const auto first = report.find('|');
    const auto second = report.find('|', first + 1);
    table.add_row({name, std::to_string(system.tasks.size()), pairs, report.substr(0, first),
                   report.substr(first + 1, second - first - 1), report.substr(second + 1)});
  };
  for (int tasks : {1000, 10000, 100000}) {
    augur::tspp::GeneratorOptions options;
    options.tasks = tasks;
    options.resources = 3;
    options.depth = 12;
    options.seed = 1;
    row("gen-tasks --tasks " + std::to_string(tasks) + " --depth 12", augur::tspp::generate_task_system(options));
  }
  row("pipeline of parallel groups of 10", pipeline(100000, 10));
  std::printf("bench_tspp_scale: the seed's method (limit: %llu concurrent pairs), each run in a child process\n%s",
              augur::tspp::max_concurrent_pairs, table.render().c_str());
  return 0;
}
