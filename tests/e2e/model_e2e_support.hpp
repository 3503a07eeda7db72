// What the end-to-end tests of augur fit (model_e2e_test.cpp), augur predict and augur plot
// (predict_e2e_test.cpp) share: the example data and formula, a run of `augur COMMAND`, its JSON, the way a
// bad input fails, and the data sets the tests write.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace augur::e2e::modeling {

using core::ProcessOptions;
using core::ProcessResult;
using Json = nlohmann::json;

inline const std::string augur_exe = AUGUR_EXE;
inline const std::string fft_t3e = std::string(AUGUR_EXAMPLES_DIR) + "/model/fft_t3e.csv";
inline const std::string model_data = AUGUR_MODEL_DATA_DIR;
inline const std::string fft_formula = "fft[0] + fft[1]*log(P) + fft[2]*(N/P)*log(N/P) + fft[3]*N*(P-1)/P";
inline const std::string fft_symbolic = "fft[0] + fft[1] * log(P) + fft[2] * N / P * log(N / P) + fft[3] * N * (P - 1) / P";

inline ProcessResult run(const std::string& command, const Arguments& arguments, const ProcessOptions& options = {}) {
  Arguments argv{augur_exe, command};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return core::run_process(argv, options);
}

inline ::testing::AssertionResult parse_json(const ProcessResult& result, Json& json) {
  try {
    json = Json::parse(result.standard_output);
  } catch (const Json::exception& error) {
    return ::testing::AssertionFailure() << "stdout is not JSON: " << error.what() << "\n" << describe(result);
  }
  return ::testing::AssertionSuccess();
}

// Runs a command that must succeed with JSON on stdout.
inline Json run_json(const std::string& command, const Arguments& arguments) {
  const ProcessResult result = run(command, arguments);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  Json json;
  EXPECT_TRUE(parse_json(result, json));
  return json;
}

// The command fails as a bad input or option must: status 1, nothing on stdout, one message on stderr.
inline ::testing::AssertionResult fails_with(const ProcessResult& result, const std::string& stderr_prefix) {
  if (result.signal != 0 || result.exit_code != 1) return ::testing::AssertionFailure() << "expected status 1\n" << describe(result);
  if (!result.standard_output.empty()) return ::testing::AssertionFailure() << "expected nothing on stdout\n" << describe(result);
  if (!starts_with(result.standard_error, stderr_prefix)) {
    return ::testing::AssertionFailure() << "expected stderr to start with '" << stderr_prefix << "'\n" << describe(result);
  }
  return ::testing::AssertionSuccess();
}

inline double number(const Json& value) { return value.get<double>(); }

inline bool near_relative(double actual, double expected, double tolerance) {
  return std::fabs(actual - expected) <= tolerance * std::fabs(expected);
}

// A CSV whose values follow y(x) exactly (written with 17 significant digits).
inline std::string csv_of(const std::string& header, const std::vector<std::pair<double, double>>& rows) {
  std::string text = header + "\n";
  for (const auto& [x, y] : rows) {
    char line[96];
    std::snprintf(line, sizeof line, "%.17g,%.17g\n", x, y);
    text += line;
  }
  return text;
}

// p = 4 .. 256, y = 2 + 0.5 p log2(p): what the search must find again.
inline std::string plogp_csv() {
  std::vector<std::pair<double, double>> rows;
  for (int k = 2; k <= 8; ++k) {
    const double p = std::ldexp(1.0, k);
    rows.emplace_back(p, 2.0 + 0.5 * p * std::log2(p));
  }
  return csv_of("p,time", rows);
}

inline const std::vector<double> regime_sizes{4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 384};

// Two regimes along n: y = 1 + 2n below 64, y = 1 + 5n from 64 on (12 points).
inline std::string two_regimes_csv() {
  std::vector<std::pair<double, double>> rows;
  for (double n : regime_sizes) rows.emplace_back(n, n < 64 ? 1.0 + 2.0 * n : 1.0 + 5.0 * n);
  return csv_of("n,time", rows);
}

inline bool has_leftover_temporary(const TemporaryDirectory& directory) {
  for (const std::string& name : directory.names()) {
    if (contains(name, ".tmp-augur")) return true;
  }
  return false;
}

inline bool gnuplot_installed() {
  return core::run_process({"sh", "-c", "command -v gnuplot"}).succeeded();
}

// The measured seconds of examples/model/fft_t3e.csv, by P.
inline const std::vector<std::pair<double, double>> t3e_seconds{{1, 11.7748}, {2, 6.0036}, {4, 3.2120}, {8, 1.8939}, {16, 1.2750}, {32, 0.9664}};

}  // namespace augur::e2e::modeling
