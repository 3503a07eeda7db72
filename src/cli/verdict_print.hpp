// The plain verdict at the end of augur run and augur speedup (the rules: src/selfanalysis/verdict.hpp,
// docs/self-analysis.md "The plain verdict"): the machine snapshot around an experiment, and the printing.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "augur/selfanalysis_noise.hpp"
#include "augur/selfanalysis_report.hpp"
#include "runtime/machine_context.hpp"
#include "selfanalysis/verdict.hpp"

namespace augur::cli {

// "verdict:" and its lines, two spaces in, on standard output.
void print_verdict(const selfanalysis::Verdict& verdict);

// The verdict of a report of augur run: on its outer region (one-run analysis) or else its main region; none
// in mode time or without a region.
[[nodiscard]] std::optional<selfanalysis::Verdict> run_verdict(const selfanalysis::Report& report);
// The same for --json: its JSON object, or null.
[[nodiscard]] nlohmann::json run_verdict_json(const std::string& report_text);

// The machine around augur speedup's runs: /proc read when it starts and when it ends; the children's
// OMP_WAIT_POLICY is `wait_policy` (the command sets passive unless set).
class ExperimentMachine {
public:
  ExperimentMachine() { probe_.start(); }
  [[nodiscard]] selfanalysis::MachineContext finish(const std::string& wait_policy) const;

private:
  runtime::MachineProbe probe_;
};

}  // namespace augur::cli
