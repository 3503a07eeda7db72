// Speed of the exact method (docs/tspp.md, "The exact method"): states of the Markov chain, CPU time and
// states per CPU second, on n tasks forked together over 2 resources (processor sharing: (1 + 2)^n states)
// and on random systems of `augur gen-tasks` under FCFS and PS. Prints figures; never fails.
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <string>

#include "core/table.hpp"
#include "augur/tspp_predictor.hpp"
#include "bench_arguments.hpp"

namespace {

// n tasks forked together, each using both resources.
augur::tspp::TaskSystem fork_of(int tasks) {
  std::string text = "resource cpu <- queuing; disk <- queuing;\ntask\n";
  std::string structure = "structure [";
  for (int i = 0; i < tasks; ++i) {
    const std::string name = "t" + std::to_string(i + 1);
    text += "  " + name + " <- { cpu: " + std::to_string(0.5 + 0.1 * i) + "; disk: " + std::to_string(1.0 - 0.05 * i) + "; }\n";
    structure += " " + name + ";";
  }
  return augur::tspp::parse_task_system(text + structure + " ]\n", "fork.tspp");
}

void measure(augur::core::TextTable& table, const std::string& name, const augur::tspp::TaskSystem& system,
             augur::tspp::Discipline discipline) {
  augur::tspp::PredictorOptions options;
  options.method = augur::tspp::Method::Exact;
  options.discipline = discipline;
  const std::clock_t start = std::clock();
  std::string states;
  std::string completion;
  try {
    const auto prediction = augur::tspp::predict(system, options);
    states = std::to_string(prediction.states);
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", prediction.completion.mean);
    completion = text;
  } catch (const std::invalid_argument&) {
    states = "refused: > " + std::to_string(augur::tspp::max_exact_states);
    completion = "-";
  }
  const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  char cpu[32];
  std::snprintf(cpu, sizeof cpu, "%.2f", seconds);
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.0f", completion == "-" || seconds <= 0.0 ? 0.0 : std::stod(states) / seconds);
  table.add_row({name, discipline == augur::tspp::Discipline::ProcessorSharing ? "PS" : "FCFS", states, cpu, rate, completion});
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_tspp_exact_speed\n"
                                "The exact TSPP method: states of the chain per CPU second",
                                {}, 0);
  augur::core::TextTable table({"system", "discipline", "states", "CPU s", "states per CPU s", "completion"});
  for (int tasks : {8, 10, 12, 13}) {
    measure(table, std::to_string(tasks) + " tasks forked on 2 resources", fork_of(tasks), augur::tspp::Discipline::ProcessorSharing);
    std::fprintf(stderr, "bench_tspp_exact_speed: %d tasks forked\n", tasks);
  }
  for (int tasks : {12, 16}) {
    const auto system = augur::tspp::generate_task_system({.tasks = tasks, .resources = 4, .depth = 2, .seed = 2});
    for (auto discipline : {augur::tspp::Discipline::FirstComeFirstServed, augur::tspp::Discipline::ProcessorSharing}) {
      measure(table, "gen-tasks --tasks " + std::to_string(tasks) + " --resources 4 --depth 2 --seed 2", system, discipline);
    }
  }
  std::printf("%s", table.render().c_str());
  std::printf("CPU time of predict(): building the chain, one backward pass for the completion and three per task\n");
  return 0;
}
