// Pages of augur tspp --json and augur sim --json (a Gantt chart of the tasks, the resources), and of
// augur couple report --json (kernels, couplings, the predictors against the measured time).
#include <algorithm>
#include <cmath>

#include "builders.hpp"
#include "report/svg.hpp"

namespace augur::report {
namespace {

// "1.94 ± 0.12" from {mean, ci95_half_width} (sim) or "1.82 (std 1.82)" from {mean, std} (tspp).
std::string estimate_text(const View& estimate) {
  const double mean = estimate["mean"].number();
  if (const auto half = estimate.maybe("ci95_half_width")) return format_number(mean) + " ± " + format_number(*half, 2);
  if (const auto std_dev = estimate.maybe("std")) return format_number(mean) + " (std " + format_number(*std_dev, 3) + ")";
  return format_number(mean);
}

}  // namespace

void add_tasks(Part& part, const View& tasks_json, bool simulated) {
  const View completion = tasks_json["completion"];
  const View tasks = tasks_json["tasks"];
  const View resources = tasks_json["resources"];
  std::string how = simulated ? "simulated (" + tasks_json.text_or("replications", "?") + " replications, 95% interval)"
                              : "predicted by " + tasks_json.text_or("method", "?");
  part.summary("completion time " + estimate_text(completion) + ", " + how + "; " + std::to_string(tasks.size()) + " tasks on " +
               std::to_string(resources.size()) + " resources");
  std::optional<std::pair<std::string, double>> busiest;
  for (std::size_t index = 0; index < resources.size(); ++index) {
    const double utilization = resources[index]["utilization"].number();
    if (!busiest || utilization > busiest->second) busiest = {{resources[index]["name"].text(), utilization}};
  }
  if (busiest) part.summary("busiest resource " + busiest->first + ", utilization " + percent(busiest->second, 2));
  Section& section = part.section("Tasks: mean start and end");
  Gantt gantt{"Tasks (mean start to mean end)", "time", {}, 760};
  Table table{"Tasks", {"task", "start", "residence", "end"}, {}};
  for (std::size_t index = 0; index < tasks.size(); ++index) {
    const View task = tasks[index];
    const double start = task["start"]["mean"].number(), end = task["end"]["mean"].number();
    gantt.bars.push_back({task["name"].text(), start, end, "residence " + estimate_text(task["residence"])});
    table.rows.push_back({text_cell(task["name"].text()), number_cell(start), number_cell(task["residence"]["mean"].number()), number_cell(end)});
  }
  section.svg(render_gantt(gantt));
  section.table(std::move(table));
  Section& queues = part.section("Resources");
  BarChart bars{"Utilization per resource", "utilization", {"utilization"}, {}, 640, 300};
  for (std::size_t index = 0; index < resources.size(); ++index) {
    bars.groups.push_back({resources[index]["name"].text(), {resources[index]["utilization"].number()}});
  }
  queues.svg(render_bars(bars));
  queues.table(rows_table(resources, "Resources"));
  queues.table(scalar_table(tasks_json, "The " + std::string(simulated ? "simulation" : "prediction")));
}

void add_couple(Part& part, const View& couple) {
  const View kernels = couple["kernels"];
  const View couplings = couple["couplings"];
  const View predictions = couple["predictions"];
  const auto measured = couple.find("measured");
  const double measured_seconds = measured ? measured->maybe("seconds").value_or(NAN) : NAN;  // NaN: not measured
  const bool was_measured = !std::isnan(measured_seconds);
  std::string run = couple.text_or("source", "-");
  if (const auto about = couple.find("run")) run = about->text_or("application", "?") + " (" + about->text_or("dataset", "?") + ")";
  std::optional<std::pair<std::string, double>> best;
  for (std::size_t index = 0; index < predictions.size(); ++index) {
    const View prediction = predictions[index];
    if (const auto error = prediction.maybe("error"); error && (!best || std::fabs(*error) < std::fabs(best->second))) {
      best = {{prediction["method"].text() + " (chains of " + prediction.text_or("length", "?") + ")", *error}};
    }
  }
  std::string line = run + ": " + std::to_string(kernels.size()) + " kernels, " + std::to_string(couplings.size()) + " couplings";
  if (was_measured) line += ", measured " + format_number(measured_seconds) + " s";
  part.summary(line);
  if (best) part.summary("closest predictor: " + best->first + ", error " + percent(best->second, 2));
  if (const auto widest = couple.find("widest_interval")) {
    part.summary("widest interval: " + percent(widest->maybe("relative_width").value_or(NAN), 2) + " of its value at " +
                 widest->text_or("where", "-") + (widest->text_or("noisy", "no") == "yes" ? " (noisy)" : ""));
  }
  Section& section = part.section("Coupling: predictors against the measured time");
  BarChart bars{"Predicted time by method" + std::string(was_measured ? " (last bar: measured)" : ""), "seconds", {"seconds"}, {}, 640, 320};
  Table table{"Predictions", {"method", "chain length", "seconds", "error"}, {}};
  for (std::size_t index = 0; index < predictions.size(); ++index) {
    const View prediction = predictions[index];
    const std::string label = prediction["method"].text() + " " + prediction.text_or("length", "");
    bars.groups.push_back({label, {prediction["seconds"].number()}});
    table.rows.push_back({text_cell(prediction["method"].text()), number_cell(prediction.maybe("length")),
                          number_cell(prediction["seconds"].number()), number_cell(prediction.maybe("error"), 3)});
  }
  if (was_measured) bars.groups.push_back({"measured", {measured_seconds}});
  section.svg(render_bars(bars));
  section.table(std::move(table));
  Section& kernel_section = part.section("Kernels and couplings");
  Table alone{"Kernels alone", {"kernel", "invocations", "seconds", "95% low", "95% high", "alpha"}, {}};
  for (std::size_t index = 0; index < kernels.size(); ++index) {
    const View kernel = kernels[index];
    const auto timing = kernel.find("alone");
    alone.rows.push_back({text_cell(kernel["name"].text()), number_cell(kernel.maybe("invocations")),
                          number_cell(timing ? timing->maybe("seconds") : std::nullopt), number_cell(timing ? timing->maybe("ci_low") : std::nullopt),
                          number_cell(timing ? timing->maybe("ci_high") : std::nullopt), number_cell(kernel.maybe("alpha"))});
  }
  kernel_section.table(std::move(alone));
  Table chains{"Couplings (c < 1: the kernels help each other; c > 1: they interfere)", {"chain", "length", "seconds", "sum alone", "coupling"}, {}};
  for (std::size_t index = 0; index < couplings.size(); ++index) {
    const View coupling = couplings[index];
    std::string chain;
    const View names = coupling["chain"];
    for (std::size_t k = 0; k < names.size(); ++k) chain += (k ? " → " : "") + names[k].text();
    chains.rows.push_back({text_cell(chain), number_cell(coupling.maybe("length")), number_cell(coupling.maybe("seconds")),
                           number_cell(coupling.maybe("sum_alone")), number_cell(coupling.maybe("coupling"))});
  }
  kernel_section.table(std::move(chains));
  if (const auto about = couple.find("run")) kernel_section.table(scalar_table(*about, "The run"));
}

}  // namespace augur::report
