#include "tspp_command.hpp"

#include "task_system_io.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "command.hpp"
#include "augur/core/diagnostics.hpp"
#include "core/json_text.hpp"
#include "core/stats_json.hpp"
#include "core/table.hpp"
#include "augur/tspp_predictor.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

using core::format_number;
using tspp::Moments;

std::string with_deviation(const Moments& moments) {
  return format_number(moments.mean, 3) + " (" + format_number(moments.deviation(), 3) + ")";
}

// Figure 12 of the seed: resources, the two per-task queue tables, the times, the completion.
std::string render_table(const tspp::TaskSystem& system, const tspp::Prediction& prediction, bool brief) {
  std::ostringstream out;
  if (!brief) {
    out << "Results\n\n" << render_queue_tables(system, prediction.resources, prediction.tasks);
  }
  core::TextTable times({"Task", "Start", "Residence", "End"});
  for (std::size_t i = 0; i < system.tasks.size(); ++i) {
    const auto& task = prediction.tasks[i];
    times.add_row({system.tasks[i].name, with_deviation(task.start), with_deviation(task.residence), with_deviation(task.end)});
  }
  out << times.render() << "\n";
  out << "Completion time = " << with_deviation(prediction.completion);
  if (!brief && prediction.states > 0) {
    out << "  States of the Markov chain = " << prediction.states;
  } else if (!brief && (prediction.part.empty() || prediction.iterations > 0)) {  // the deterministic limit: neither
    out << "  Number of iterations = " << prediction.iterations;
  }
  if (!brief && prediction.dropped > 0.0) out << "  Probability dropped = " << prediction.dropped;
  out << "\n";
  if (!brief && !prediction.part.empty()) out << "Answered by: " << prediction.part << "\n";
  if (!prediction.converged) out << "Not converged: an estimate (the last of " << prediction.iterations << " iterations)\n";
  return out.str();
}

std::string render_csv(const tspp::TaskSystem& system, const tspp::Prediction& prediction) {
  std::vector<TaskTimes> times;
  for (const auto& task : prediction.tasks) {
    times.push_back({task.start.mean, task.start.deviation(), task.residence.mean, task.residence.deviation(), task.end.mean,
                     task.end.deviation()});
  }
  return render_times_csv(system, times, prediction.completion.mean, prediction.completion.deviation());
}

// Figure 13 of the seed: one value per line, in its order.
std::string render_dump(const tspp::TaskSystem& system, const tspp::Prediction& prediction, bool brief) {
  std::ostringstream out;
  auto line = [&out](double value) { out << format_number(value, 6) << "\n"; };
  if (!brief) {
    out << system.tasks.size() << "\n" << system.resources.size() << "\n";
    for (const auto& resource : prediction.resources) line(resource.utilization);
    for (const auto& resource : prediction.resources) line(resource.queue_length);
    for (const auto& task : prediction.tasks) {
      for (double value : task.arrival_queue) line(value);
    }
    for (const auto& task : prediction.tasks) {
      for (double value : task.queue_of_task) line(value);
    }
  }
  for (const auto& task : prediction.tasks) {
    for (const Moments* moments : {&task.start, &task.residence, &task.end}) {
      line(moments->mean);
      line(moments->deviation());
    }
  }
  line(prediction.completion.mean);
  line(prediction.completion.deviation());
  if (!brief) out << prediction.iterations << "\n";
  return out.str();
}

// A prediction has no confidence interval: {"mean", "std"}.
nlohmann::ordered_json moments_json(const Moments& moments) {
  return core::estimate_json({moments.mean, moments.deviation(), std::nullopt});
}

std::string render_json(const tspp::TaskSystem& system, const tspp::Prediction& prediction, const std::string& method) {
  nlohmann::ordered_json json;
  json["method"] = method;
  json["completion"] = moments_json(prediction.completion);
  json["iterations"] = prediction.iterations;
  json["converged"] = prediction.converged;
  if (prediction.states > 0) json["states"] = prediction.states;
  if (!prediction.part.empty()) json["part"] = prediction.part;
  if (prediction.dropped > 0.0) json["dropped"] = prediction.dropped;
  nlohmann::ordered_json resources = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < system.resources.size(); ++k) {
    const auto& resource = system.resources[k];
    resources.push_back({{"name", resource.name},
                         {"kind", resource.kind == tspp::Resource::Kind::Delay ? "delay" : "queuing"},
                         {"servers", resource.kind == tspp::Resource::Kind::Delay ? nlohmann::ordered_json(nullptr)
                                                                                  : nlohmann::ordered_json(resource.servers)},
                         {"utilization", prediction.resources[k].utilization},
                         {"queue_length", prediction.resources[k].queue_length}});
  }
  json["resources"] = std::move(resources);
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < system.tasks.size(); ++i) {
    const auto& task = prediction.tasks[i];
    tasks.push_back({{"name", system.tasks[i].name},
                     {"start", moments_json(task.start)},
                     {"residence", moments_json(task.residence)},
                     {"end", moments_json(task.end)},
                     {"residence_at", task.residence_at},
                     {"arrival_queue", task.arrival_queue},
                     {"queue_of_task", task.queue_of_task}});
  }
  json["tasks"] = std::move(tasks);
  return core::json_text(json, 2) + "\n";
}

}  // namespace

void add_tspp_options(CLI::App* command, TsppOptions& options) {
  command->add_option("file", options.file, "The task system (docs/formats.md); '-' or none: standard input");
  command->add_flag("-b,--brief", options.brief, "Brief: only the tasks' start, residence and end times and the completion");
  command->add_flag("-d,--dump", options.dump, "Dump: one value per line, in the order of the seed's Figure 13");
  add_json_flag(*command, options.json, "JSON instead of the table");
  add_csv_flag(*command, options.csv, "The task times and the completion time as CSV instead of the table");
  command->add_option("--residence", options.residence,
                      "mak-lundstrom: distribution of a task's residence time: exponential (the seed's) or phases (one exponential "
                      "phase per resource; more accurate against simulation, docs/tspp.md)")
      ->default_val("exponential")
      ->check(CLI::IsMember({"exponential", "phases"}));
  command->add_option("--method", options.method,
                      "mak-lundstrom (the seed's method, reconstructed), transient (the same two steps resolved in time: "
                      "steadier against simulation, slower), exact (the Markov chain of the system with exponential "
                      "service, solved exactly: small systems only), pruned (the exact chain passed forwards level by level, each "
                      "level thinned to about --beam states by systematic sampling that keeps its probability), decomposition "
                      "(a chain of the active tasks with rates from their closed queueing network, for systems whose chain fits) "
                      "or hybrid (the default: each system by the first that takes it of the deterministic limit from 10 stages "
                      "on, the exact chain, the pruned pass with a beam of 10^7 / (levels x tasks) from 50 to 20000, from 3 "
                      "visits an interpolation in 1/sqrt(V) between the chains of 1 to 3 visits and the sharing limit, the "
                      "decomposition, the transient method, then the seed's method; docs/tspp.md, \"The hybrid method\")")
      ->default_val("hybrid")
      ->check(CLI::IsMember({"mak-lundstrom", "transient", "exact", "decomposition", "hybrid", "pruned"}));
  command->add_option("--discipline", options.discipline,
                      "exact and hybrid: the queuing centres' discipline, fcfs or ps (processor sharing), as augur sim --discipline")
      ->default_val("fcfs")
      ->check(CLI::IsMember({"fcfs", "ps"}));
  command->add_option("--max-states", options.max_states,
                      "exact, decomposition and hybrid: the limit of the Markov chain's states (default: 2000000 for exact, "
                      "which refuses past it; 200000 for decomposition, which first gives the tasks fewer phases; for hybrid, "
                      "which takes another method past it, 1000000 for its exact chain and 200000 for its decomposition, "
                      "this value for both when given)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}));
  command->add_option("--beam", options.beam,
                      "pruned: the states kept at each level of the chain (default 20000; at least the widest level: the exact "
                      "method's figures)")
      ->check(CLI::Range(std::size_t{1}, tspp::max_pruned_beam));
  command->add_option("-V,--visits", options.visits,
                      "transient, exact, decomposition and hybrid: visit cycles per task over its resources, as augur sim -V")
      ->default_val(1)
      ->check(CLI::Range(1, visit_limit));
  command->add_option("--stages", options.stages,
                      "transient, exact, decomposition and hybrid: exponential stages per visit (1: exponential service; more: less variable, "
                      "e.g. 10 for nearly deterministic service)")
      ->default_val(1)
      ->check(CLI::Range(1, 100));
  command->add_option("--grid", options.grid, "transient: bins of the time axis (more: finer, slower)")
      ->default_val(1000)
      ->check(CLI::Range(64, 100000));
  command->footer("Example:\n  augur tspp examples/tspp/figure11.tspp\nThe seed's interface is build/bin/tspp [-b] [-d] <in >out.");
}

int run_tspp_command(const TsppOptions& options) {
  const std::string name = options.file.empty() || options.file == "-" ? "<stdin>" : options.file;
  try {
    const tspp::TaskSystem system = load_task_system(options.file);
    tspp::PredictorOptions predictor;
    predictor.method = options.method == "transient" ? tspp::Method::Transient
                       : options.method == "exact"   ? tspp::Method::Exact
                       : options.method == "decomposition" ? tspp::Method::Decomposition
                       : options.method == "hybrid" ? tspp::Method::Hybrid
                       : options.method == "pruned" ? tspp::Method::Pruned
                                                     : tspp::Method::MakLundstrom;
    predictor.discipline = options.discipline == "ps" ? tspp::Discipline::ProcessorSharing
                                                      : tspp::Discipline::FirstComeFirstServed;
    predictor.max_states = options.max_states;
    predictor.beam = options.beam;
    predictor.visits = options.visits;
    predictor.stages = options.stages;
    predictor.grid = options.grid;
    predictor.residence = options.residence == "phases" ? tspp::ResidenceDistribution::Phases : tspp::ResidenceDistribution::Exponential;
    tspp::Prediction prediction;
    try {
      prediction = tspp::predict(system, predictor);
    } catch (const std::exception& error) {  // past a method's limit, or not finite: nothing on stdout
      std::fprintf(stderr, "tspp: %s: %s\n", name.c_str(), error.what());
      return 1;
    }
    if (!prediction.converged) {
      std::fprintf(stderr, "tspp: %s: not converged after %d iterations; the figures are the last iteration's\n",
                   name.c_str(), prediction.iterations);
    }
    const std::string output = options.json  ? render_json(system, prediction, options.method)
                               : options.csv ? render_csv(system, prediction)
                               : options.dump ? render_dump(system, prediction, options.brief)
                                              : render_table(system, prediction, options.brief);
    std::fputs(output.c_str(), stdout);
    return 0;
  } catch (const core::InputError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tspp: %s\n", error.what());
    return 1;
  }
}

Runner declare_tspp_command(CLI::App& command) {
  auto options = std::make_shared<TsppOptions>();
  add_tspp_options(&command, *options);
  return [options] { return run_tspp_command(*options); };
}

}  // namespace augur::cli
