// The CSV of augur couple report (--csv): src/cli/couple_print.hpp.
#include <cmath>

#include "core/csv.hpp"
#include "couple_print.hpp"

namespace augur::cli {
namespace {

using core::csv_field;
using core::csv_number;

std::string optional_number(const std::optional<double>& value) { return value ? csv_number(*value) : std::string(); }

}  // namespace

std::string report_csv(const std::vector<SourcedRun>& runs, const std::vector<coupling::Analysis>& analyses) {
  std::string out = core::csv_record({"source", "length", "chain", "seconds", "sum_alone", "coupling"});
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const coupling::Run& run = runs[i].run;
    for (const coupling::LengthCouplings& values : analyses[i].couplings) {
      for (const auto& chain : values.chains) {
        std::string names;
        for (const int kernel : chain.chain) names += (names.empty() ? "" : "→") + run.kernels[static_cast<std::size_t>(kernel)].name;
        out += core::csv_record({csv_field(runs[i].source), std::to_string(values.length), csv_field(names), csv_number(chain.time),
                                 csv_number(chain.sum_alone), csv_number(chain.value)});
      }
    }
  }
  return out;
}

std::string summary_csv(const std::vector<SourcedRun>& runs, const std::vector<coupling::Analysis>& analyses) {
  std::string out = core::csv_record({"source", "application", "dataset", "processors", "measured_s", "summation_s",
                                      "summation_error", "coupling_length", "coupling_s", "coupling_error", "widest_interval"});
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const coupling::Run& run = runs[i].run;
    const coupling::Analysis& analysis = analyses[i];
    const coupling::Prediction* chosen = analysis.chosen();
    out += core::csv_record({csv_field(runs[i].source), csv_field(run.application), csv_field(run.dataset), std::to_string(run.processors()),
                             run.loop ? csv_number(run.loop->seconds) : std::string(), csv_number(analysis.summation.seconds),
                             optional_number(analysis.summation.error), chosen ? std::to_string(chosen->length) : std::string(),
                             chosen ? csv_number(chosen->seconds) : std::string(), chosen ? optional_number(chosen->error) : std::string(),
                             csv_number(analysis.widest.width)});
  }
  return out;
}

}  // namespace augur::cli
