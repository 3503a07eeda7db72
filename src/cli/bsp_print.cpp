#include "bsp_print.hpp"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/table.hpp"
#include "core/json_text.hpp"
#include "model_common.hpp"

namespace augur::cli {
namespace {

using Json = nlohmann::ordered_json;
using bsp::error_percent;

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

// "g = 1e-09 s/byte, L = 2 s (given: --g, --L); @ = sum" and, when fitted, where from.
std::string parameters_text(const BspParameterSource& source) {
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

// Per machine and superstep: what each member did, OBSP*'s prediction and the measured end.
Json machines_json(const BspReport& report) {
  const bsp::Trace& trace = report.trace;
  Json machines = Json::array();
  for (std::size_t index = 0; index < trace.machines.size(); ++index) {
    const bsp::Machine& machine = trace.machines[index];
    const bsp::MachineTimes& times = report.comparison.obsp.machines[index];
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
  return machines;
}

}  // namespace

std::string render_bsp_table(const BspReport& report, bool supersteps) {
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
    const double measured = report.comparison.measured[at];
    const double obsp = report.comparison.obsp.rank_finish[at];
    const double bsp = report.comparison.bsp.applicable ? report.comparison.bsp.rank_finish[at] : std::nan("");
    table.add_row({std::to_string(rank), seconds(measured), seconds(obsp), percent(error_percent(obsp, measured)),
                   seconds(bsp), percent(error_percent(bsp, measured))});
  }
  const double bsp_program = report.comparison.bsp.applicable ? report.comparison.bsp.program : std::nan("");
  table.add_row({"program", seconds(report.comparison.measured_program), seconds(report.comparison.obsp.program),
                 percent(error_percent(report.comparison.obsp.program, report.comparison.measured_program)), seconds(bsp_program),
                 percent(error_percent(bsp_program, report.comparison.measured_program))});
  out << table.render();
  out << "(seconds; error = (measured - predicted) / measured; program = the largest over the ranks)\n";
  if (!report.comparison.bsp.applicable) {
    out << "BSP: not applicable: " << report.comparison.bsp.reason << "\n";
  } else {
    out << "BSP: " << plural(report.comparison.bsp.supersteps.size(), "superstep")
        << " under global barriers once the partitions are flattened\n";
  }

  if (!supersteps) return out.str();
  for (std::size_t index = 0; index < trace.machines.size(); ++index) {
    const bsp::Machine& machine = trace.machines[index];
    const bsp::MachineTimes& times = report.comparison.obsp.machines[index];
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

std::string render_bsp_json(const BspReport& report, bool supersteps) {
  const bsp::Trace& trace = report.trace;
  const BspParameterSource& source = report.source;
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
    entry.update(row(report.comparison.measured[at], report.comparison.obsp.rank_finish[at],
                     report.comparison.bsp.applicable ? report.comparison.bsp.rank_finish[at] : nan));
    ranks.push_back(std::move(entry));
  }
  json["per_rank"] = std::move(ranks);
  json["program"] = row(report.comparison.measured_program, report.comparison.obsp.program, report.comparison.bsp.applicable ? report.comparison.bsp.program : nan);
  Json bsp{{"applicable", report.comparison.bsp.applicable}};
  bsp["reason"] = report.comparison.bsp.applicable ? Json(nullptr) : Json(report.comparison.bsp.reason);
  bsp["flattened_supersteps"] = report.comparison.bsp.flattened_supersteps;
  Json flat = Json::array();
  for (const bsp::FlatSuperstep& superstep : report.comparison.bsp.supersteps) {
    flat.push_back({{"max_work", superstep.max_work},
                    {"max_h", superstep.max_h},
                    {"communicates", superstep.communicates},
                    {"cost", superstep.cost}});
  }
  bsp["supersteps"] = std::move(flat);
  json["bsp"] = std::move(bsp);
  if (supersteps) json["machines"] = machines_json(report);
  return core::json_text(json, 2) + "\n";
}

}  // namespace augur::cli
