// The plain verdict at the end of augur run and augur speedup (verdict_print.hpp).
#include "verdict_print.hpp"

#include <cctype>
#include <cstdio>
#include <thread>

namespace augur::cli {

void print_verdict(const selfanalysis::Verdict& verdict) {
  std::printf("verdict:\n%s", selfanalysis::verdict_text(verdict, "  ").c_str());
}

std::optional<selfanalysis::Verdict> run_verdict(const selfanalysis::Report& report) {
  if (report.mode == "time") return std::nullopt;
  const selfanalysis::ReportRegion* chosen = nullptr;
  for (const selfanalysis::ReportRegion& region : report.regions) {
    if (region.kind == "outer") chosen = &region;
  }
  if (chosen == nullptr) chosen = report.main_region();
  if (chosen == nullptr) return std::nullopt;
  return selfanalysis::judge_verdict(selfanalysis::verdict_input(*chosen, report));
}

nlohmann::json run_verdict_json(const std::string& report_text) {
  const std::optional<selfanalysis::Verdict> verdict = run_verdict(selfanalysis::parse_report(report_text, "report"));
  // The report is ordered, the run's --json object is not: nlohmann converts one into the other.
  return verdict ? nlohmann::json(selfanalysis::verdict_json(*verdict)) : nlohmann::json(nullptr);
}

selfanalysis::MachineContext ExperimentMachine::finish(const std::string& wait_policy) const {
  const unsigned processors = std::thread::hardware_concurrency();
  selfanalysis::MachineContext machine = probe_.finish(processors == 0 ? 1 : static_cast<int>(processors));
  machine.wait_policy = wait_policy.empty() ? "default" : wait_policy;
  for (char& c : machine.wait_policy) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return machine;
}

}  // namespace augur::cli
