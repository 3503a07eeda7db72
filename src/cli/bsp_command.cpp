#include "bsp_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bsp/bsp.hpp"
#include "augur/core/diagnostics.hpp"
#include "core/table.hpp"
#include "model/dataset.hpp"
#include "model_common.hpp"

namespace augur::cli {
namespace {

using Json = nlohmann::ordered_json;

// Where g and L came from, for the report.
struct ParameterSource {
  bsp::CostParameters parameters;
  std::optional<bsp::HRelationFit> fit;  // set when fitted to h-relation records
  std::string records;                   // the records' path
  std::string experiment;
};

ParameterSource cost_parameters(const BspOptions& options) {
  ParameterSource source;
  const bsp::Combine combine = options.combine == "max" ? bsp::Combine::Max : bsp::Combine::Sum;
  source.parameters.combine = combine;
  if (options.hrelation.empty()) {
    source.parameters.g = *options.g;
    source.parameters.L = *options.L;
    return source;
  }
  const model::Dataset dataset = model::read_dataset(options.hrelation);
  const model::Series* series = nullptr;
  std::string found;
  for (const model::Series& candidate : dataset.series) {
    if (candidate.metric != "time") continue;
    if (candidate.region == options.experiment) series = &candidate;
    found += (found.empty() ? "" : ", ") + candidate.region;
  }
  if (series == nullptr) {
    throw core::InputError({options.hrelation, 0, 0}, "no experiment '" + options.experiment +
                                                          "' with times in the records" +
                                                          (found.empty() ? std::string() : " (found: " + found + ")"));
  }
  try {
    source.fit = bsp::fit_hrelation(*series, combine);
  } catch (const core::InputError&) {
    throw;
  } catch (const std::exception& error) {
    throw std::runtime_error("cannot fit g and L to experiment '" + options.experiment + "' of " + options.hrelation +
                             ": " + error.what());
  }
  source.parameters = source.fit->parameters;
  source.records = options.hrelation;
  source.experiment = options.experiment;
  return source;
}

// (measured − predicted) / measured in percent, the sign of the seed's Table 1 (and of augur predict).
double error_percent(double predicted, double measured) {
  if (!std::isfinite(predicted) || measured == 0.0) return std::nan("");
  return 100.0 * (measured - predicted) / measured;
}

std::string seconds(double value) {
  return significant(value, 6);
}

std::string percent(double value) {
  if (!std::isfinite(value)) return "-";
  return (value > 0 ? "+" : "") + significant(value, 3) + "%";
}

nlohmann::json number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// "1 rank", "2 ranks"; "1 process", "2 processes".
std::string plural(std::size_t count, const std::string& word) {
  if (count == 1) return "1 " + word;
  return std::to_string(count) + " " + word + (word.ends_with("s") ? "es" : "s");
}

std::string list(const std::vector<int>& values) {
  std::string text;
  for (const int value : values) text += (text.empty() ? "" : ",") + std::to_string(value);
  return text;
}

// Everything the report prints, computed once.
struct Report {
  const bsp::Trace& trace;
  const ParameterSource& source;
  bsp::ObspPrediction obsp;
  bsp::BspPrediction bsp;
  std::vector<double> measured;
  double measured_program = 0.0;
};

// "g = 1e-09 s/byte, L = 2 s (given: --g, --L); @ = sum" and, when fitted, where from.
std::string parameters_text(const ParameterSource& source) {
  const bsp::CostParameters& parameters = source.parameters;
  std::ostringstream out;
  const char* combine = bsp::combine_name(parameters.combine);
  if (!source.fit) {
    out << "g = " << significant(parameters.g, 6) << " s/byte, L = " << significant(parameters.L, 6)
        << " s (given by --g and --L); @ = " << combine << "\n";
    return out.str();
  }
  const bsp::HRelationFit& fit = *source.fit;
  const auto with_error = [](double value, double error) {
    return significant(value, 6) + (std::isfinite(error) ? " ± " + significant(error, 3) : std::string(" ± -"));
  };
  out << "g = " << with_error(parameters.g, fit.g_standard_error)
      << " s/byte, L = " << with_error(parameters.L, fit.L_standard_error) << " s; @ = " << combine << "\n";
  out << "  fitted to experiment '" << source.experiment << "' of " << source.records << ": " << fit.formula << " over "
      << plural(static_cast<std::size_t>(fit.points), "point") << " (R² " << significant(fit.r2, 6) << ", SMAPE "
      << significant(fit.smape, 3) << "%); L = " << fit.constant_name << "[0], g = " << fit.constant_name << "[1]"
      << (parameters.combine == bsp::Combine::Sum ? " / 2 (h = in + out = 2b for b bytes each way)"
                                                  : " (h = max(in, out) = b for b bytes each way)")
      << "\n";
  if (fit.constrained) {
    out << "  note: the unconstrained fit gave L = " << significant(fit.unconstrained_L, 4)
        << " s, g = " << significant(fit.unconstrained_g, 4)
        << " s/byte; a negative constant was refitted with both constants >= 0\n";
  }
  return out.str();
}

std::string render_table(const Report& report, bool supersteps) {
  const bsp::Trace& trace = report.trace;
  std::ostringstream out;
  const bsp::Machine& top = trace.machines.front();
  out << trace.file << (trace.label.empty() ? "" : ": " + trace.label) << "\n";
  out << "  " << plural(static_cast<std::size_t>(trace.ranks), "rank") << ", "
      << plural(trace.machines.size(), "machine") << ", "
      << plural(static_cast<std::size_t>(top.superstep_count()), "superstep") << " of the top machine\n";
  out << parameters_text(report.source) << "\n";

  core::TextTable table({"rank", "measured", "OBSP*", "error", "BSP", "error"});
  for (int rank = 0; rank < trace.ranks; ++rank) {
    const auto at = static_cast<std::size_t>(rank);
    const double measured = report.measured[at];
    const double obsp = report.obsp.rank_finish[at];
    const double bsp = report.bsp.applicable ? report.bsp.rank_finish[at] : std::nan("");
    table.add_row({std::to_string(rank), seconds(measured), seconds(obsp), percent(error_percent(obsp, measured)),
                   seconds(bsp), percent(error_percent(bsp, measured))});
  }
  const double bsp_program = report.bsp.applicable ? report.bsp.program : std::nan("");
  table.add_row({"program", seconds(report.measured_program), seconds(report.obsp.program),
                 percent(error_percent(report.obsp.program, report.measured_program)), seconds(bsp_program),
                 percent(error_percent(bsp_program, report.measured_program))});
  out << table.render();
  out << "(seconds; error = (measured - predicted) / measured; program = the largest over the ranks)\n";
  if (!report.bsp.applicable) {
    out << "BSP: not applicable: " << report.bsp.reason << "\n";
  } else {
    out << "BSP: " << plural(report.bsp.supersteps.size(), "superstep")
        << " under global barriers once the partitions are flattened\n";
  }

  if (!supersteps) return out.str();
  for (std::size_t index = 0; index < trace.machines.size(); ++index) {
    const bsp::Machine& machine = trace.machines[index];
    const bsp::MachineTimes& times = report.obsp.machines[index];
    std::string starts;
    for (const double start : times.start) starts += (starts.empty() ? "" : ",") + seconds(start);
    out << "\nmachine " << machine.id << ": " << plural(machine.ranks.size(), "process") << " (rank"
        << (machine.ranks.size() == 1 ? " " : "s ") << list(machine.ranks) << "), "
        << plural(static_cast<std::size_t>(machine.superstep_count()), "superstep");
    if (machine.parent) {
      out << ", entered in superstep " << machine.parent_superstep << " of " << trace.machines[*machine.parent].id
          << " as group " << machine.group;
    }
    out << "; OBSP* start x = " << starts << "\n";
    core::TextTable steps({"superstep", "pid", "rank", "sync", "work", "in", "out", "partners", "child", "h", "OBSP* F",
                           "measured end", "error"});
    for (std::size_t s = 0; s < machine.supersteps.size(); ++s) {
      for (std::size_t pid = 0; pid < machine.ranks.size(); ++pid) {
        const bsp::Superstep& step = machine.supersteps[s][pid];
        const double finish = times.finish[s][pid];
        steps.add_row({std::to_string(s + 1), std::to_string(pid), std::to_string(step.rank),
                       bsp::synchronization_name(step.synchronization), seconds(step.work),
                       significant(step.incoming_bytes, 15), significant(step.outgoing_bytes, 15),
                       step.partners.empty() ? "-" : list(step.partners),
                       step.child ? trace.machines[*step.child].id : "-",
                       step.synchronization == bsp::Synchronization::None ? "-" : significant(times.h[s][pid], 15),
                       seconds(finish), seconds(step.end), percent(error_percent(finish, step.end))});
      }
    }
    out << steps.render();
  }
  return out.str();
}

std::string render_json(const Report& report, bool supersteps) {
  const bsp::Trace& trace = report.trace;
  const ParameterSource& source = report.source;
  Json json;
  json["trace"] = trace.file;
  json["label"] = trace.label;
  json["ranks"] = trace.ranks;
  Json parameters;
  parameters["g"] = source.parameters.g;
  parameters["L"] = source.parameters.L;
  parameters["combine"] = bsp::combine_name(source.parameters.combine);
  if (!source.fit) {
    parameters["source"] = "options";
  } else {
    const bsp::HRelationFit& fit = *source.fit;
    parameters["source"] = "hrelation";
    parameters["g_stderr"] = number(fit.g_standard_error);
    parameters["L_stderr"] = number(fit.L_standard_error);
    parameters["records"] = source.records;
    parameters["experiment"] = source.experiment;
    parameters["formula"] = fit.formula;
    parameters["points"] = fit.points;
    parameters["r2"] = number(fit.r2);
    parameters["smape"] = number(fit.smape);
    parameters["constrained"] = fit.constrained;
    parameters["unconstrained"] = {{"g", number(fit.unconstrained_g)}, {"L", number(fit.unconstrained_L)}};
  }
  json["parameters"] = parameters;
  const auto row = [&](double measured, double obsp, double bsp) {
    return Json{{"measured", number(measured)},
                {"obsp", number(obsp)},
                {"obsp_error_percent", number(error_percent(obsp, measured))},
                {"bsp", number(bsp)},
                {"bsp_error_percent", number(error_percent(bsp, measured))}};
  };
  const double nan = std::nan("");
  Json ranks = Json::array();
  for (int rank = 0; rank < trace.ranks; ++rank) {
    const auto at = static_cast<std::size_t>(rank);
    Json entry{{"rank", rank}};
    entry.update(row(report.measured[at], report.obsp.rank_finish[at],
                     report.bsp.applicable ? report.bsp.rank_finish[at] : nan));
    ranks.push_back(std::move(entry));
  }
  json["per_rank"] = std::move(ranks);
  json["program"] = row(report.measured_program, report.obsp.program, report.bsp.applicable ? report.bsp.program : nan);
  Json bsp{{"applicable", report.bsp.applicable}};
  bsp["reason"] = report.bsp.applicable ? Json(nullptr) : Json(report.bsp.reason);
  bsp["flattened_supersteps"] = report.bsp.flattened_supersteps;
  Json flat = Json::array();
  for (const bsp::FlatSuperstep& superstep : report.bsp.supersteps) {
    flat.push_back({{"max_work", superstep.max_work},
                    {"max_h", superstep.max_h},
                    {"communicates", superstep.communicates},
                    {"cost", superstep.cost}});
  }
  bsp["supersteps"] = std::move(flat);
  json["bsp"] = std::move(bsp);
  if (supersteps) {
    Json machines = Json::array();
    for (std::size_t index = 0; index < trace.machines.size(); ++index) {
      const bsp::Machine& machine = trace.machines[index];
      const bsp::MachineTimes& times = report.obsp.machines[index];
      Json entry{{"id", machine.id}, {"ranks", machine.ranks}};
      entry["parent"] = machine.parent ? Json(trace.machines[*machine.parent].id) : Json(nullptr);
      entry["start"] = times.start;
      Json steps = Json::array();
      for (std::size_t s = 0; s < machine.supersteps.size(); ++s) {
        Json members = Json::array();
        for (std::size_t pid = 0; pid < machine.ranks.size(); ++pid) {
          const bsp::Superstep& step = machine.supersteps[s][pid];
          Json member{{"pid", pid},
                      {"rank", step.rank},
                      {"sync", bsp::synchronization_name(step.synchronization)},
                      {"work", step.work},
                      {"in", static_cast<std::int64_t>(step.incoming_bytes)},
                      {"out", static_cast<std::int64_t>(step.outgoing_bytes)},
                      {"partners", step.partners}};
          member["child"] = step.child ? Json(trace.machines[*step.child].id) : Json(nullptr);
          member["h"] = times.h[s][pid];
          member["predicted"] = times.finish[s][pid];
          member["measured"] = step.end;
          members.push_back(std::move(member));
        }
        steps.push_back({{"superstep", s + 1}, {"members", std::move(members)}});
      }
      entry["supersteps"] = std::move(steps);
      machines.push_back(std::move(entry));
    }
    json["machines"] = std::move(machines);
  }
  return json.dump(2) + "\n";
}

}  // namespace

CLI::App* add_bsp_command(CLI::App& app, BspOptions& options) {
  CLI::App* command =
      app.add_subcommand("bsp",
                         "Predict a BSP program's time from its superstep trace with OBSP* (oblivious synchronisation, "
                         "partitions) and with classical BSP (global barriers), against the measured times.");
  command->add_option("TRACE", options.trace, "The superstep trace, JSON Lines (docs/formats.md); '-': standard input")
      ->required();
  const CLI::Validator non_negative(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(value) || value < 0) {
          return "expected a finite number >= 0, not '" + text + "'";
        }
        return {};
      },
      "", "non-negative");
  CLI::Option* g = command->add_option("--g", options.g, "g: seconds per byte of an h-relation (seed eq. 2)")
                       ->type_name("SECONDS_PER_BYTE")
                       ->check(non_negative);
  CLI::Option* latency = command->add_option("--L", options.L, "L: seconds per synchronisation (seed eq. 2)")
                             ->type_name("SECONDS")
                             ->check(non_negative);
  CLI::Option* hrelation =
      command
          ->add_option(
              "--hrelation", options.hrelation,
              "Fit g and L to these h-relation benchmark records (augur experiment records, JSON Lines) instead")
          ->type_name("RECORDS");
  command
      ->add_option("--experiment", options.experiment, "The experiment of the h-relation records to fit (variable h)")
      ->type_name("NAME")
      ->default_val("hrelation")
      ->needs(hrelation);
  g->excludes(hrelation);
  latency->excludes(hrelation);
  g->needs(latency);
  latency->needs(g);
  command
      ->add_option("--combine", options.combine,
                   "How in and out bytes combine into h (the @ of seed eq. 4): sum or max")
      ->default_val("sum")
      ->check(CLI::IsMember({"sum", "max"}));
  command->add_flag("--supersteps", options.supersteps,
                    "Add a table per machine and superstep (predicted F, measured end)");
  command->add_flag("--json", options.json, "Write JSON instead of tables");
  command->footer(
      "Examples:\n"
      "  augur bsp examples/bsp/figure1.jsonl --g 0 --L 2           the seed's Figure 1: 10 s, OBSP* 10 s, BSP 12 s\n"
      "  augur bsp fft.jsonl --g 1e-9 --L 5e-5 --supersteps         every machine and superstep\n"
      "  augur bsp fft.jsonl --hrelation hrel.jsonl --combine max   g and L fitted to a benchmark\n"
      "Guide and method: docs/bsp.md; formats: docs/formats.md");
  return command;
}

int run_bsp_command(const BspOptions& options) {
  if (options.hrelation.empty() && (!options.g || !options.L)) {
    std::fprintf(stderr,
                 "augur bsp: give the machine parameters, --g SECONDS_PER_BYTE and --L SECONDS, or fit them "
                 "with --hrelation RECORDS.jsonl\nRun with --help for more information.\n");
    return 2;
  }
  try {
    const bsp::Trace trace = bsp::read_trace(options.trace);
    const ParameterSource source = cost_parameters(options);
    Report report{trace,
                  source,
                  bsp::predict_obsp(trace, source.parameters),
                  bsp::predict_bsp(trace, source.parameters),
                  bsp::measured_rank_times(trace),
                  0.0};
    for (const double time : report.measured) report.measured_program = std::max(report.measured_program, time);
    const std::string output =
        options.json ? render_json(report, options.supersteps) : render_table(report, options.supersteps);
    std::fputs(output.c_str(), stdout);
    return 0;
  } catch (const std::exception& error) {
    return report_error("bsp", error);
  }
}

}  // namespace augur::cli
