// What augur couple loads and prints: the runs it works on (measured now, read from measurement files or
// from the performance database), and the tables (couple_print.cpp) and JSON (couple_json.cpp) of what
// the coupling engine (src/coupling/analysis.hpp) computes from them. Nothing here computes a coupling
// value or a prediction.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "augur/coupling.hpp"
#include "couple_command.hpp"
#include "coupling/analysis.hpp"

namespace augur::cli {

// A run and where it came from ("sp-24.coupling.jsonl", "run 3").
struct SourcedRun {
  coupling::Run run;
  std::string source;
};

// ---- loading (couple_runs.cpp) ---------------------------------------------------------------------------

[[nodiscard]] SourcedRun load_file(const std::string& path);
// The runs of the files, or, when no file is given, the stored runs (those of `ids`, else every run of
// --application but `excluded`). Throws when the database has none.
[[nodiscard]] std::vector<SourcedRun> load_runs(const CoupleOptions& options, const std::vector<std::string>& files,
                                                const std::vector<long long>& ids,
                                                std::optional<std::int64_t> excluded = {});
// The runs alone, for the engine.
[[nodiscard]] std::vector<coupling::Run> runs_of(const std::vector<SourcedRun>& runs);
// `augur couple measure`: runs the program under the harness, keeps and stores its measurements. Returns
// 0 with `measured` set, or the exit status after saying on stderr what went wrong.
[[nodiscard]] int measure_program(const CoupleOptions& options, SourcedRun& measured);

// ---- tables (couple_print.cpp) ----------------------------------------------------------------------------

// One run's report: kernels, chains (of the chosen length, or every length with `all_chains`),
// predictions, and a note when its timings are noisy. `asked` is --length.
[[nodiscard]] std::string report_text(const SourcedRun& run, const coupling::Analysis& analysis, bool all_chains,
                                      std::optional<int> asked);
// One line per run (report --summary), then the mean errors.
[[nodiscard]] std::string summary_text(const std::vector<SourcedRun>& runs,
                                       const std::vector<coupling::Analysis>& analyses);
// A target predicted from others (predict); the "chosen" line, or why there is none.
[[nodiscard]] std::string isocoupling_text(const SourcedRun& target, const std::vector<SourcedRun>& sources,
                                           const coupling::Isocoupling& isocoupling);
// Every run predicted from the others (reuse), then the mean errors.
[[nodiscard]] std::string reuse_text(const std::vector<SourcedRun>& runs, const std::vector<coupling::Reuse>& reuses);
// The runs along problem size with their mean coupling value, then the transitions (transitions).
[[nodiscard]] std::string size_series_text(const std::vector<SourcedRun>& runs, const coupling::SizeSeries& series,
                                           double threshold);

// ---- CSV (couple_csv.cpp): report --csv -------------------------------------------------------------------

// One line per chain of every run: source,length,chain,seconds,sum_alone,coupling (the chain "a→b", as in
// the table).
[[nodiscard]] std::string report_csv(const std::vector<SourcedRun>& runs, const std::vector<coupling::Analysis>& analyses);
// report --summary --csv: one line per run: source,application,dataset,processors,measured_s,summation_s,
// summation_error,coupling_length,coupling_s,coupling_error,widest_interval (empty: none).
[[nodiscard]] std::string summary_csv(const std::vector<SourcedRun>& runs, const std::vector<coupling::Analysis>& analyses);

// ---- JSON (couple_json.cpp) -------------------------------------------------------------------------------

using CoupleJson = nlohmann::ordered_json;
[[nodiscard]] CoupleJson report_json(const SourcedRun& run, const coupling::Analysis& analysis);
[[nodiscard]] CoupleJson summary_json(const std::vector<SourcedRun>& runs,
                                      const std::vector<coupling::Analysis>& analyses);
[[nodiscard]] CoupleJson isocoupling_json(const SourcedRun& target, const std::vector<SourcedRun>& sources,
                                          const coupling::Isocoupling& isocoupling);
[[nodiscard]] CoupleJson reuse_json(const std::vector<SourcedRun>& runs, const std::vector<coupling::Reuse>& reuses);
[[nodiscard]] CoupleJson size_series_json(const std::vector<SourcedRun>& runs, const coupling::SizeSeries& series,
                                          double threshold);

}  // namespace augur::cli
