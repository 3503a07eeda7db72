// The programs' history and a job's prior from it (docs/manager.md, "history").
#include "manager/history.hpp"

#include <algorithm>
#include <cctype>

#include "measured_curve.hpp"

namespace augur::manager {

std::string program_of_job(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size()) return std::string(name);
  const bool digits = std::all_of(name.begin() + static_cast<std::ptrdiff_t>(dot) + 1, name.end(),
                                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  return std::string(digits ? name.substr(0, dot) : name);
}

ProgramHistory& ProgramHistories::entry(const std::string& program) {
  const auto place = std::lower_bound(programs_.begin(), programs_.end(), program,
                                      [](const ProgramHistory& each, const std::string& key) { return each.program < key; });
  if (place != programs_.end() && place->program == program) return *place;
  ProgramHistory added;
  added.program = program;
  return *programs_.insert(place, std::move(added));
}

void ProgramHistories::record_speedups(const std::string& program, std::span<const SpeedupEntry> speedups) {
  if (program.empty()) return;
  bool any = false;
  for (const SpeedupEntry& each : speedups) any = any || (each.state == SpeedupState::calculated && each.speedup > 0.0);
  if (!any) return;
  std::vector<SpeedupEntry>& known = entry(program).speedups;
  for (const SpeedupEntry& each : speedups) {
    if (each.state != SpeedupState::calculated || !(each.speedup > 0.0) || each.processors < 1) continue;
    const auto place = std::lower_bound(known.begin(), known.end(), each.processors,
                                        [](const SpeedupEntry& entry, int processors) { return entry.processors < processors; });
    if (place != known.end() && place->processors == each.processors) {
      place->speedup = each.speedup;
    } else {
      known.insert(place, each);
    }
  }
}

void ProgramHistories::record_finished(const std::string& program, double work) {
  if (program.empty() || !(work > 0.0)) return;
  std::vector<double>& works = entry(program).works;
  works.push_back(work);
  if (works.size() > history_jobs) works.erase(works.begin());
}

const ProgramHistory* history_of(std::span<const ProgramHistory> history, const ApplicationReport& report) {
  if (report.program.empty()) return nullptr;
  const auto place = std::lower_bound(history.begin(), history.end(), report.program,
                                      [](const ProgramHistory& each, const std::string& key) { return each.program < key; });
  return place != history.end() && place->program == report.program ? &*place : nullptr;
}

std::optional<double> prior_work(const ProgramHistory& history) {
  if (history.works.empty()) return std::nullopt;
  const std::size_t count = std::min(history.works.size(), history_jobs);
  double sum = 0.0;
  for (std::size_t index = history.works.size() - count; index < history.works.size(); ++index) sum += history.works[index];
  return sum / static_cast<double>(count);
}

ApplicationReport with_prior(const ApplicationReport& report, std::span<const ProgramHistory> history, HistoryPrior prior_kind) {
  const ProgramHistory* known = history_of(history, report);
  if (known == nullptr) return report;
  ApplicationReport seen = report;
  for (const SpeedupEntry& prior : known->speedups) {
    const bool own = std::any_of(report.speedups.begin(), report.speedups.end(), [&](const SpeedupEntry& each) {
      return each.processors == prior.processors && each.state == SpeedupState::calculated;
    });
    if (!own) seen.speedups.push_back(prior);
  }
  if (prior_kind == HistoryPrior::curve_and_work && work_left(report) <= 0.0) {
    if (const std::optional<double> work = prior_work(*known)) seen.memory.work_left = *work;
  }
  return seen;
}

}  // namespace augur::manager
