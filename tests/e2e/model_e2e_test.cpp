// End-to-end tests of augur fit, augur predict and augur plot: the built binary run as a user runs it,
// through augur::core::run_process, on the example data (examples/model), the readers' test data
// (tests/model/data) and files written here into a fresh temporary directory removed afterwards.
// Nothing here depends on timing.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;  // describe, contains, read_text, TemporaryDirectory, ...

namespace fs = std::filesystem;
using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using Json = nlohmann::json;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;
const std::string fft_t3e = std::string(AUGUR_EXAMPLES_DIR) + "/model/fft_t3e.csv";
const std::string model_data = AUGUR_MODEL_DATA_DIR;
const std::string fft_formula = "fft[0] + fft[1]*log(P) + fft[2]*(N/P)*log(N/P) + fft[3]*N*(P-1)/P";
const std::string fft_symbolic = "fft[0] + fft[1] * log(P) + fft[2] * N / P * log(N / P) + fft[3] * N * (P - 1) / P";

// ---- Helpers ---------------------------------------------------------------------------------

ProcessResult run(const std::string& command, const Arguments& arguments, const ProcessOptions& options = {}) {
  Arguments argv{augur_exe, command};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv, options);
}






::testing::AssertionResult parse_json(const ProcessResult& result, Json& json) {
  try {
    json = Json::parse(result.standard_output);
  } catch (const Json::exception& error) {
    return ::testing::AssertionFailure() << "stdout is not JSON: " << error.what() << "\n" << describe(result);
  }
  return ::testing::AssertionSuccess();
}

// Runs a command that must succeed with JSON on stdout.
Json run_json(const std::string& command, const Arguments& arguments) {
  const ProcessResult result = run(command, arguments);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  Json json;
  EXPECT_TRUE(parse_json(result, json));
  return json;
}

// The command fails as a bad input or option must: status 1, nothing on stdout, one message on stderr.
::testing::AssertionResult fails_with(const ProcessResult& result, const std::string& stderr_prefix) {
  if (result.signal != 0 || result.exit_code != 1) return ::testing::AssertionFailure() << "expected status 1\n" << describe(result);
  if (!result.standard_output.empty()) return ::testing::AssertionFailure() << "expected nothing on stdout\n" << describe(result);
  if (!starts_with(result.standard_error, stderr_prefix)) {
    return ::testing::AssertionFailure() << "expected stderr to start with '" << stderr_prefix << "'\n" << describe(result);
  }
  return ::testing::AssertionSuccess();
}

double number(const Json& value) { return value.get<double>(); }

bool near_relative(double actual, double expected, double tolerance) {
  return std::fabs(actual - expected) <= tolerance * std::fabs(expected);
}

// A CSV whose values follow y(x) exactly (written with 17 significant digits).
std::string csv_of(const std::string& header, const std::vector<std::pair<double, double>>& rows) {
  std::string text = header + "\n";
  for (const auto& [x, y] : rows) {
    char line[96];
    std::snprintf(line, sizeof line, "%.17g,%.17g\n", x, y);
    text += line;
  }
  return text;
}

// p = 4 .. 256, y = 2 + 0.5 p log2(p): what the search must find again.
std::string plogp_csv() {
  std::vector<std::pair<double, double>> rows;
  for (int k = 2; k <= 8; ++k) {
    const double p = std::ldexp(1.0, k);
    rows.emplace_back(p, 2.0 + 0.5 * p * std::log2(p));
  }
  return csv_of("p,time", rows);
}

const std::vector<double> regime_sizes{4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 384};

// Two regimes along n: y = 1 + 2n below 64, y = 1 + 5n from 64 on (12 points).
std::string two_regimes_csv() {
  std::vector<std::pair<double, double>> rows;
  for (double n : regime_sizes) rows.emplace_back(n, n < 64 ? 1.0 + 2.0 * n : 1.0 + 5.0 * n);
  return csv_of("n,time", rows);
}

bool has_leftover_temporary(const TemporaryDirectory& directory) {
  for (const std::string& name : directory.names()) {
    if (contains(name, ".tmp-augur")) return true;
  }
  return false;
}

bool gnuplot_installed() {
  return augur::core::run_process({"sh", "-c", "command -v gnuplot"}).succeeded();
}

// The measured seconds of examples/model/fft_t3e.csv, by P.
const std::vector<std::pair<double, double>> t3e_seconds{{1, 11.7748}, {2, 6.0036}, {4, 3.2120}, {8, 1.8939}, {16, 1.2750}, {32, 0.9664}};

// ---- augur fit -------------------------------------------------------------------------------

TEST(FitCommand, HelpListsTheOptions) {
  const ProcessResult result = run("fit", {"--help"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  for (const char* option : {"--formula", "--variable", "--segments", "--segment-by", "--aggregate", "--relative", "--nonnegative",
                             "--max-terms", "--region", "--metric", "--format", "--json"}) {
    EXPECT_TRUE(contains(result.standard_output, option)) << option << "\n" << result.standard_output;
  }
}

TEST(FitCommand, FftFormulaJsonHoldsEveryField) {
  const Json json = run_json("fit", {fft_t3e, "--formula", fft_formula, "--json"});
  EXPECT_EQ(json.at("data"), fft_t3e);
  EXPECT_EQ(json.at("errors"), Json::array());
  ASSERT_EQ(json.at("models").size(), 1U) << json.dump(2);
  const Json& model = json["models"][0];
  EXPECT_EQ(model.at("region"), "main");
  EXPECT_EQ(model.at("metric"), "time");
  EXPECT_EQ(model.at("parameters"), Json::array({"N", "P"}));
  EXPECT_EQ(model.at("points"), 6);
  EXPECT_EQ(model.at("searched"), false);
  EXPECT_EQ(model.at("symbolic"), fft_symbolic);
  ASSERT_TRUE(model.at("formula").is_string());
  EXPECT_FALSE(model["formula"].get<std::string>().empty());
  const std::string python = model.at("python").get<std::string>();
  EXPECT_TRUE(contains(python, "math.log2(P)")) << python;
  EXPECT_TRUE(contains(python, "math.log2(N / P)")) << python;

  ASSERT_EQ(model.at("constants").size(), 4U) << model.dump(2);
  for (std::size_t i = 0; i < 4; ++i) {
    const Json& constant = model["constants"][i];
    EXPECT_EQ(constant.at("name"), "fft[" + std::to_string(i) + "]");
    EXPECT_TRUE(constant.at("value").is_number()) << constant.dump();
    EXPECT_TRUE(constant.at("stderr").is_number()) << constant.dump();
    EXPECT_GE(number(constant["stderr"]), 0.0);
  }
  ASSERT_EQ(model.at("segments").size(), 1U);
  const Json& segment = model["segments"][0];
  EXPECT_EQ(segment.at("bounds"), Json::parse(R"({"N": [2097152, 2097152], "P": [1, 32]})"));
  EXPECT_EQ(segment.at("points"), 6);
  EXPECT_EQ(segment.at("constants"), model["constants"]);
  EXPECT_EQ(segment.at("python"), model["python"]);

  ASSERT_TRUE(model.at("rss").is_number());
  EXPECT_GE(number(model["rss"]), 0.0);
  ASSERT_TRUE(model.at("smape").is_number());
  EXPECT_GE(number(model["smape"]), 0.0);
  EXPECT_LT(number(model["smape"]), 1.0);  // percent
  ASSERT_TRUE(model.at("adjusted_r2").is_number());
  EXPECT_GT(number(model["adjusted_r2"]), 0.999);
  EXPECT_LE(number(model["adjusted_r2"]), 1.0);
  EXPECT_GE(number(model.at("r2")), number(model["adjusted_r2"]));
}

TEST(FitCommand, FftFormulaTableShowsTheModel) {
  const ProcessResult result = run("fit", {fft_t3e, "--formula", fft_formula});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.standard_error, "");
  const std::string& out = result.standard_output;
  EXPECT_TRUE(starts_with(out, "main · time\n  6 points over N, P\n")) << out;
  EXPECT_TRUE(contains(out, "  formula   " + fft_symbolic + "\n")) << out;
  EXPECT_TRUE(contains(out, "  model     ")) << out;
  EXPECT_TRUE(contains(out, "  python    ")) << out;
  for (const char* name : {"fft[0]", "fft[1]", "fft[2]", "fft[3]"}) EXPECT_TRUE(contains(out, name)) << out;
  EXPECT_TRUE(contains(out, "std. error")) << out;
  EXPECT_TRUE(contains(out, "RSS ")) << out;
  EXPECT_TRUE(contains(out, "adjusted R² ")) << out;
  EXPECT_TRUE(contains(out, "leave-one-out SMAPE ")) << out;
  EXPECT_FALSE(contains(out, "note:")) << out;  // a given formula is not a search
}

TEST(FitCommand, NonnegativeKeepsEveryConstantAtLeastZero) {
  const Json json = run_json("fit", {fft_t3e, "--formula", fft_formula, "--nonnegative", "--json"});
  ASSERT_EQ(json.at("models").size(), 1U) << json.dump(2);
  const Json& model = json["models"][0];
  ASSERT_EQ(model.at("constants").size(), 4U);
  for (const Json& constant : model["constants"]) EXPECT_GE(number(constant.at("value")), 0.0) << constant.dump();
  for (const Json& constant : model.at("segments")[0].at("constants")) EXPECT_GE(number(constant.at("value")), 0.0) << constant.dump();
  EXPECT_LT(number(model.at("smape")), 1.0);
}

TEST(FitCommand, SearchFindsTheGeneratingModel) {
  TemporaryDirectory directory;
  const std::string data = directory.write("plogp.csv", plogp_csv());
  const Json json = run_json("fit", {data, "--json"});
  ASSERT_EQ(json.at("models").size(), 1U) << json.dump(2);
  const Json& model = json["models"][0];
  EXPECT_EQ(model.at("searched"), true);
  EXPECT_GT(model.at("hypotheses").get<int>(), 1);
  EXPECT_EQ(model.at("parameters"), Json::array({"p"}));
  EXPECT_EQ(model.at("points"), 7);
  EXPECT_EQ(model.at("symbolic"), "c[0] + c[1] * p * log2(p)");
  EXPECT_TRUE(contains(model.at("python").get<std::string>(), "math.log2(p)")) << model["python"];
  ASSERT_EQ(model.at("constants").size(), 2U);
  EXPECT_EQ(model["constants"][0].at("name"), "c[0]");
  EXPECT_EQ(model["constants"][1].at("name"), "c[1]");
  EXPECT_TRUE(near_relative(number(model["constants"][0]["value"]), 2.0, 1e-9)) << model["constants"].dump();
  EXPECT_TRUE(near_relative(number(model["constants"][1]["value"]), 0.5, 1e-9)) << model["constants"].dump();
  EXPECT_LT(number(model.at("smape")), 1e-6);

  const ProcessResult table = run("fit", {data});
  ASSERT_EQ(table.exit_code, 0) << describe(table);
  EXPECT_TRUE(contains(table.standard_output, "  formula   c[0] + c[1] * p * log2(p)   (found among ")) << table.standard_output;
  EXPECT_FALSE(contains(table.standard_output, "note:")) << table.standard_output;  // 7 points for one parameter are enough
}

TEST(FitCommand, DerivedVariableFitsAsItsExpression) {
  const Json with_variable = run_json("fit", {fft_t3e, "--variable", "q=N/P", "--formula", "c[0] + c[1]*q*log(q)", "--json"});
  const Json inline_form = run_json("fit", {fft_t3e, "--formula", "c[0] + c[1]*(N/P)*log(N/P)", "--json"});
  ASSERT_EQ(with_variable.at("models").size(), 1U);
  ASSERT_EQ(inline_form.at("models").size(), 1U);
  const Json& derived = with_variable["models"][0];
  EXPECT_EQ(derived.at("symbolic"), "c[0] + c[1] * q * log(q)");
  EXPECT_EQ(derived.at("parameters"), Json::array({"N", "P"}));
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(near_relative(number(derived["constants"][i]["value"]), number(inline_form["models"][0]["constants"][i]["value"]), 1e-9))
        << derived["constants"].dump() << "\n" << inline_form["models"][0]["constants"].dump();
  }
}

// With a derived variable in --formula, the "python" expression is written in the parameters only,
// as the search writes it ("(N / P)"), so that it evaluates from N and P.
TEST(FitCommand, PythonOfADerivedVariableNeedsOnlyTheParameters) {
  const Json json = run_json("fit", {fft_t3e, "--variable", "q=N/P", "--formula", "c[0] + c[1]*q*log(q)", "--json"});
  ASSERT_EQ(json.at("models").size(), 1U);
  const std::string python = json["models"][0].at("python").get<std::string>();
  // The names left once the numbers (2.514e-07, ...) are taken out.
  const std::string names = std::regex_replace(python, std::regex("[0-9]+(\\.[0-9]*)?(e[-+]?[0-9]+)?"), " ");
  const std::regex identifier("[A-Za-z_][A-Za-z_0-9.]*");
  for (auto it = std::sregex_iterator(names.begin(), names.end(), identifier); it != std::sregex_iterator(); ++it) {
    const std::string name = it->str();
    EXPECT_TRUE(name == "N" || name == "P" || starts_with(name, "math.")) << "'" << name << "' in " << python;
  }
}

TEST(FitCommand, SegmentsAutoFindsTwoRegimes) {
  TemporaryDirectory directory;
  const std::string data = directory.write("regimes.csv", two_regimes_csv());
  for (const std::string segments : {"auto", "2"}) {
    SCOPED_TRACE("--segments " + segments);
    const Json json = run_json("fit", {data, "--formula", "c[0] + c[1]*n", "--segments", segments, "--json"});
    ASSERT_EQ(json.at("models").size(), 1U) << json.dump(2);
    const Json& model = json["models"][0];
    EXPECT_EQ(model.at("symbolic"), "c[0] + c[1] * n");
    ASSERT_EQ(model.at("segments").size(), 2U) << model.dump(2);
    EXPECT_EQ(model["segments"][0].at("bounds"), Json::parse(R"({"n": [4, 48]})"));
    EXPECT_EQ(model["segments"][1].at("bounds"), Json::parse(R"({"n": [64, 384]})"));
    EXPECT_EQ(model["segments"][0].at("points"), 7);
    EXPECT_EQ(model["segments"][1].at("points"), 5);
    const Json& first = model["segments"][0].at("constants");
    const Json& second = model["segments"][1].at("constants");
    EXPECT_NEAR(number(first[0]["value"]), 1.0, 1e-6);
    EXPECT_NEAR(number(first[1]["value"]), 2.0, 1e-9);
    EXPECT_NEAR(number(second[0]["value"]), 1.0, 1e-6);
    EXPECT_NEAR(number(second[1]["value"]), 5.0, 1e-9);
    // The model's constants: each segment's, marked with its index.
    ASSERT_EQ(model.at("constants").size(), 4U);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(model["constants"][i].at("segment"), i / 2) << model["constants"].dump();
    const std::string formula = model.at("formula").get<std::string>();
    EXPECT_TRUE(contains(formula, "for n 4..48; ")) << formula;
    EXPECT_TRUE(contains(formula, "for n 64..384")) << formula;
    const std::string python = model.at("python").get<std::string>();
    EXPECT_TRUE(contains(python, ") if n < ")) << python;
    EXPECT_TRUE(contains(python, " else (")) << python;
  }
  const ProcessResult table = run("fit", {data, "--formula", "c[0] + c[1]*n", "--segments", "auto"});
  ASSERT_EQ(table.exit_code, 0) << describe(table);
  EXPECT_TRUE(contains(table.standard_output, "  segment 1: n 4..48 (7 points)\n")) << table.standard_output;
  EXPECT_TRUE(contains(table.standard_output, "  segment 2: n 64..384 (5 points)\n")) << table.standard_output;
}

TEST(FitCommand, TooManySegmentsLeaveTheSeriesUnmodeled) {
  const ProcessResult result = run("fit", {fft_t3e, "--formula", "c[0] + c[1]*P", "--segments", "5", "--json"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  Json json;
  ASSERT_TRUE(parse_json(result, json));
  EXPECT_EQ(json.at("models"), Json::array());
  ASSERT_EQ(json.at("errors").size(), 1U);
  EXPECT_EQ(json["errors"][0].at("region"), "main");
  EXPECT_EQ(json["errors"][0].at("metric"), "time");
  EXPECT_TRUE(contains(json["errors"][0].at("message").get<std::string>(), "5 segments")) << json.dump(2);
  EXPECT_TRUE(starts_with(result.standard_error, "augur fit: main · time: ")) << describe(result);
}

TEST(FitCommand, ReadsExtraPText) {
  const Json json = run_json("fit", {model_data + "/two_regions.txt", "--json"});
  EXPECT_EQ(json.at("errors"), Json::array());
  ASSERT_EQ(json.at("models").size(), 3U) << json.dump(2);
  const std::vector<std::pair<std::string, std::string>> expected{{"main", "time"}, {"solve", "time"}, {"solve", "visits"}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Json& model = json["models"][i];
    EXPECT_EQ(model.at("region"), expected[i].first);
    EXPECT_EQ(model.at("metric"), expected[i].second);
    EXPECT_EQ(model.at("parameters"), Json::array({"p", "n"}));
    EXPECT_EQ(model.at("points"), 4);
    EXPECT_EQ(model.at("searched"), true);
  }
}

TEST(FitCommand, RegionAndMetricFiltersChooseTheSeries) {
  const std::string data = model_data + "/two_regions.txt";
  auto series_of = [](const Json& json) {
    std::vector<std::string> names;
    for (const Json& model : json.at("models")) names.push_back(model.at("region").get<std::string>() + "/" + model.at("metric").get<std::string>());
    return names;
  };
  EXPECT_EQ(series_of(run_json("fit", {data, "--region", "solve", "--json"})), (std::vector<std::string>{"solve/time", "solve/visits"}));
  EXPECT_EQ(series_of(run_json("fit", {data, "--metric", "time", "--json"})), (std::vector<std::string>{"main/time", "solve/time"}));

  // visits: 10 at n = 1000, 20 at n = 2000.
  const Json visits = run_json("fit", {data, "--region", "solve", "--metric", "visits", "--formula", "c[0] + c[1]*n", "--json"});
  ASSERT_EQ(series_of(visits), (std::vector<std::string>{"solve/visits"}));
  const Json& model = visits["models"][0];
  EXPECT_NEAR(number(model["constants"][0]["value"]), 0.0, 1e-9);
  EXPECT_NEAR(number(model["constants"][1]["value"]), 0.01, 1e-12);
  EXPECT_EQ(model["segments"][0].at("bounds"), Json::parse(R"({"p": [4, 16], "n": [1000, 2000]})"));
}

TEST(FitCommand, ReadsJsonLinesWithTheRecordedFormula) {
  const Json json = run_json("fit", {model_data + "/records.jsonl", "--json"});
  EXPECT_EQ(json.at("errors"), Json::array());
  ASSERT_EQ(json.at("models").size(), 4U) << json.dump(2);
  const Json& models = json["models"];
  EXPECT_EQ(models[0].at("region"), "fft");
  EXPECT_EQ(models[0].at("metric"), "time");
  EXPECT_EQ(models[1].at("region"), "fft");
  EXPECT_EQ(models[1].at("metric"), "PAPI_TOT_CYC");
  EXPECT_EQ(models[2].at("region"), "halo");
  EXPECT_EQ(models[2].at("metric"), "time");
  EXPECT_EQ(models[2].at("parameters"), Json::array({"P"}));
  EXPECT_EQ(models[3].at("region"), "main->solve");
  EXPECT_EQ(models[3].at("metric"), "time");
  EXPECT_EQ(models[3].at("parameters"), Json::array({"n", "p"}));
  // The fft series carry the formula recorded with the experiment: no search.
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(models[i].at("searched"), false);
    EXPECT_EQ(models[i].at("symbolic"), "fft[0] + fft[1] * log(P)");
    EXPECT_EQ(models[i].at("parameters"), Json::array({"N", "P"}));
    EXPECT_EQ(models[i].at("points"), 2);
  }
  // time: 0.0124 (mean of 0.0123 and 0.0125) at P = 4, 0.0071 at P = 8.
  EXPECT_NEAR(number(models[0]["constants"][0]["value"]), 0.023, 1e-12);
  EXPECT_NEAR(number(models[0]["constants"][1]["value"]), -0.0053, 1e-12);
  // PAPI_TOT_CYC: 126.5 at P = 4, 70 at P = 8.
  EXPECT_NEAR(number(models[1]["constants"][0]["value"]), 239.5, 1e-9);
  EXPECT_NEAR(number(models[1]["constants"][1]["value"]), -56.5, 1e-9);
  // Two points, two constants: no degree of freedom left for a standard error.
  EXPECT_TRUE(models[0]["constants"][0].at("stderr").is_null()) << models[0].dump(2);

  const Json filtered = run_json("fit", {model_data + "/records.jsonl", "--region", "fft", "--metric", "PAPI_TOT_CYC", "--json"});
  ASSERT_EQ(filtered.at("models").size(), 1U) << filtered.dump(2);
  EXPECT_EQ(filtered["models"][0].at("metric"), "PAPI_TOT_CYC");
}

TEST(FitCommand, ASeriesThatCannotBeFitFailsAndTheOthersAreReported) {
  const std::string formula = "c[0] + c[1]*N + c[2]*P";
  const ProcessResult result = run("fit", {model_data + "/fft.csv", "--formula", formula, "--json"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  Json json;
  ASSERT_TRUE(parse_json(result, json));
  ASSERT_EQ(json.at("models").size(), 1U) << json.dump(2);
  EXPECT_EQ(json["models"][0].at("region"), "fft");
  ASSERT_EQ(json.at("errors").size(), 1U) << json.dump(2);
  EXPECT_EQ(json["errors"][0].at("region"), "transpose, all-to-all");
  EXPECT_EQ(json["errors"][0].at("metric"), "time");
  EXPECT_EQ(json["errors"][0].at("message"), "1 measured points cannot determine the 3 constants of c[0] + c[1] * N + c[2] * P");
  EXPECT_EQ(result.standard_error,
            "augur fit: transpose, all-to-all · time: 1 measured points cannot determine the 3 constants of c[0] + c[1] * N + c[2] * P\n");
}

// ---- augur fit: errors -------------------------------------------------------------------------

TEST(FitCommand, NonCanonicalFormulaNamesTheTerm) {
  const ProcessResult result = run("fit", {fft_t3e, "--formula", "c[0] + N*P"});
  EXPECT_TRUE(fails_with(result, "--formula:1:8: "));
  EXPECT_TRUE(contains(result.standard_error, "N * P")) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "has no constant")) << describe(result);

  EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--formula", "c[0] + log(c[1]*P)"}), "--formula:1:8: the constant c[1] must multiply its term"));
  EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--formula", "c[0] + c[0]*P"}), "--formula:1:8: the constant c[0] is used in two terms"));
  EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--formula", "c[0] + c[1]*"}), "--formula:1:13: "));
}

TEST(FitCommand, UnknownVariableInTheFormula) {
  const ProcessResult result = run("fit", {fft_t3e, "--formula", "c[0] + c[1]*Q"});
  EXPECT_TRUE(fails_with(result, "--formula:1:13: unknown variable 'Q' (the data of main has N, P)\n"));
  EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--variable", "q=N/Z", "--formula", "c[0] + c[1]*q"}), "--variable q:1:3: unknown name 'Z'"));
  EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--variable", "P=N/2", "--formula", "c[0] + c[1]*P"}),
                         "--variable P: 'P' is already a parameter of the data\n"));
  EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--variable", "1q=N/P"}), "--variable: expected NAME=EXPRESSION"));
}

TEST(FitCommand, CsvWithANonNumberNamesFileLineAndColumn) {
  TemporaryDirectory directory;
  const std::string data = directory.write("bad.csv", "n,time\n1,2\n2,abc\n3,4\n");
  EXPECT_TRUE(fails_with(run("fit", {data}), data + ":3:3: 'abc' is not a number (column 'time')\n"));
  const std::string infinite = directory.write("inf.csv", "p,time\n4,6\n8,inf\n");
  EXPECT_TRUE(fails_with(run("fit", {infinite}), infinite + ":3:3: 'inf' is not a finite number (column 'time')\n"));
  const std::string short_row = directory.write("short.csv", "p,time\n4,6\n8\n");
  EXPECT_TRUE(fails_with(run("fit", {short_row}), short_row + ":3:1: row has 1 fields, the header has 2\n"));
  const std::string comments = directory.write("empty.csv", "# only a comment\n");
  EXPECT_TRUE(fails_with(run("fit", {comments}), comments + ": no measurements in the file\n"));
  EXPECT_TRUE(fails_with(run("fit", {directory.write("ok.csv", plogp_csv()), "--value", "seconds"}),
                         directory.file("ok.csv") + ":1:1: no column 'seconds' (the value column) in the header\n"));
}

TEST(FitCommand, BadExtraPTextAndJsonLinesNameTheLine) {
  TemporaryDirectory directory;
  const std::string text = directory.write("short.txt", "PARAMETER p\nPOINTS 4 8 16\nREGION main\nDATA 1\nDATA 2\n");
  EXPECT_TRUE(fails_with(run("fit", {text}), text + ":3:1: REGION 'main' needs one DATA line per point (3), found 2\n"));
  const std::string lines = directory.write("bad.jsonl", "{\"params\":{\"p\":4},\"value\":1}\n{\"params\":{\"p\":8},\"value\":}\n");
  EXPECT_TRUE(fails_with(run("fit", {lines}), lines + ":2:27: invalid JSON: "));
  // A CSV read as another format is reported in that format's terms.
  const std::string csv = directory.write("plogp.csv", plogp_csv());
  EXPECT_TRUE(fails_with(run("fit", {csv, "--format", "extrap"}), csv + ":1:1: unknown keyword 'p,time'"));
  EXPECT_TRUE(fails_with(run("fit", {csv, "--format", "xml"}), "--format: unknown format 'xml' (auto, csv, extrap, jsonl)\n"));
}

TEST(FitCommand, MissingFileIsNamed) {
  TemporaryDirectory directory;
  const std::string missing = directory.file("missing.csv");
  const ProcessResult result = run("fit", {missing});
  EXPECT_TRUE(fails_with(result, "augur fit: " + missing + ": cannot read: "));
  EXPECT_TRUE(contains(result.standard_error, "No such file or directory")) << describe(result);
}

// A directory given as DATA is named, with what is wrong in the user's terms.
TEST(FitCommand, DirectoryAsDataIsNamed) {
  TemporaryDirectory directory;
  const ProcessResult result = run("fit", {directory.path().string()});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.standard_output, "");
  EXPECT_TRUE(contains(result.standard_error, directory.path().string() + ":")) << describe(result);
  EXPECT_FALSE(contains(result.standard_error, "basic_filebuf")) << describe(result);
}

TEST(FitCommand, BadSegmentsAggregateAndOptions) {
  for (const std::string segments : {"0", "x", "101", "2x", ""}) {
    EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--formula", fft_formula, "--segments", segments}),
                           "--segments: expected 'auto' or a number of segments from 1 to 100, not '" + segments + "'\n"))
        << "--segments '" << segments << "'";
  }
  EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--formula", fft_formula, "--aggregate", "bad"}),
                         "--aggregate: unknown aggregate 'bad' (mean, median, min, max)\n"));
  EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--formula", fft_formula, "--negative-exponents", "foo"}),
                         "--negative-exponents: expected auto, always or never, not 'foo'\n"));
  EXPECT_TRUE(fails_with(run("fit", {fft_t3e, "--formula", "c[0] + c[1]*P", "--segment-by", "Z"}),
                         "--segment-by: unknown parameter 'Z' (the data has N, P)\n"));
  EXPECT_TRUE(fails_with(run("fit", {model_data + "/two_regions.txt", "--region", "nope"}),
                         model_data + "/two_regions.txt: no series region 'nope' in the data\n"));
  // Options CLI11 checks: status 2, still nothing on stdout.
  const ProcessResult terms = run("fit", {fft_t3e, "--max-terms", "9"});
  EXPECT_EQ(terms.exit_code, 2) << describe(terms);
  EXPECT_EQ(terms.standard_output, "");
  EXPECT_TRUE(starts_with(terms.standard_error, "--max-terms: ")) << describe(terms);
}

// ---- augur predict ---------------------------------------------------------------------------

// The fields of one prediction, and value within [lower, upper].
void expect_prediction(const Json& prediction, const std::string& region, const std::string& metric) {
  EXPECT_EQ(prediction.at("region"), region) << prediction.dump();
  EXPECT_EQ(prediction.at("metric"), metric) << prediction.dump();
  EXPECT_TRUE(prediction.at("at").is_object()) << prediction.dump();
  EXPECT_TRUE(prediction.at("segment").is_number_unsigned()) << prediction.dump();
  EXPECT_EQ(prediction.at("confidence"), 0.95) << prediction.dump();
  ASSERT_TRUE(prediction.at("value").is_number()) << prediction.dump();
  ASSERT_TRUE(prediction.at("lower").is_number()) << prediction.dump();
  ASSERT_TRUE(prediction.at("upper").is_number()) << prediction.dump();
  EXPECT_LE(number(prediction["lower"]), number(prediction["value"])) << prediction.dump();
  EXPECT_LE(number(prediction["value"]), number(prediction["upper"])) << prediction.dump();
}

TEST(PredictCommand, AtOnePoint) {
  const Json json = run_json("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152,P=64", "--json"});
  EXPECT_EQ(json.at("data"), fft_t3e);
  ASSERT_EQ(json.at("predictions").size(), 1U) << json.dump(2);
  const Json& prediction = json["predictions"][0];
  expect_prediction(prediction, "main", "time");
  EXPECT_EQ(prediction.at("at"), Json::parse(R"({"N": 2097152, "P": 64})"));
  EXPECT_EQ(prediction.at("segment"), 0);
  EXPECT_LT(number(prediction["lower"]), number(prediction["upper"]));  // 6 points, 4 constants: a finite, open interval
  // Beyond the data, below the time on 32 processors.
  EXPECT_GT(number(prediction["value"]), 0.0);
  EXPECT_LT(number(prediction["value"]), 0.9664);
}

TEST(PredictCommand, GeometricGridCompletedByAt) {
  const Json json = run_json("predict", {fft_t3e, "--formula", fft_formula, "--grid", "P=1:32:*2", "--at", "N=2097152", "--json"});
  ASSERT_EQ(json.at("predictions").size(), t3e_seconds.size()) << json.dump(2);
  for (std::size_t i = 0; i < t3e_seconds.size(); ++i) {
    const Json& prediction = json["predictions"][i];
    expect_prediction(prediction, "main", "time");
    EXPECT_EQ(prediction.at("at"), (Json{{"N", 2097152.0}, {"P", t3e_seconds[i].first}}));
    EXPECT_EQ(prediction.at("segment"), 0);
    // The model fits within SMAPE 0.3 %: each prediction at a measured point is within 2 % of it.
    EXPECT_TRUE(near_relative(number(prediction["value"]), t3e_seconds[i].second, 0.02)) << prediction.dump();
  }
}

TEST(PredictCommand, HumanTablePrints) {
  const ProcessResult result = run("predict", {fft_t3e, "--formula", fft_formula, "--grid", "P=1:32:*2", "--at", "N=2097152"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.standard_error, "");
  std::istringstream lines(result.standard_output);
  std::string line;
  std::vector<std::string> all;
  while (std::getline(lines, line)) all.push_back(line);
  ASSERT_EQ(all.size(), 9U) << result.standard_output;  // header, 6 rows, note on two lines
  // The data holds measurements at these points: the measured value and the error stand beside each prediction.
  const std::regex header("region +metric +at +predicted +lower +upper +segment +measured +error");
  EXPECT_TRUE(std::regex_search(all[0], header)) << all[0];
  for (std::size_t i = 0; i < t3e_seconds.size(); ++i) {
    const std::string point = "N=2097152,P=" + std::to_string(static_cast<int>(t3e_seconds[i].first));
    EXPECT_TRUE(std::regex_search(all[i + 1], std::regex("^main +time +" + point + " +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+ +1/1 +[0-9.e+-]+ +-?[0-9.e+-]+%$")))
        << all[i + 1];
  }
  EXPECT_EQ(all[7], "(lower, upper: 95% prediction interval for one new measurement; segment: the interval of validity used;");
  EXPECT_EQ(all[8], " measured: the mean of the measurements at the point; error: (measured - predicted) / measured)");

  // Without measurements at the points, no such columns.
  const ProcessResult unmeasured = run("predict", {fft_t3e, "--formula", fft_formula, "--grid", "P=64,128", "--at", "N=2097152"});
  ASSERT_EQ(unmeasured.exit_code, 0) << describe(unmeasured);
  EXPECT_TRUE(std::regex_search(unmeasured.standard_output, std::regex("region +metric +at +predicted +lower +upper +segment\n")))
      << unmeasured.standard_output;
  EXPECT_EQ(unmeasured.standard_output.find("measured:"), std::string::npos) << unmeasured.standard_output;
}

TEST(PredictCommand, ExcludeLeavesPointsOutOfTheFitAndComparesThem) {
  // The seed's Table 1 the other way round: P = 32 predicted from the other five processor counts.
  const Json all = run_json("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152,P=32", "--json"});
  const Json left_out = run_json("predict", {fft_t3e, "--formula", fft_formula, "--exclude", "P=32", "--at", "N=2097152,P=32", "--json"});
  ASSERT_EQ(left_out.at("predictions").size(), 1U) << left_out.dump(2);
  const Json& prediction = left_out.at("predictions")[0];
  EXPECT_DOUBLE_EQ(number(prediction.at("measured")), 0.9664);  // the T3E time, though left out of the fit
  const double predicted = number(prediction.at("value"));
  EXPECT_NEAR(number(prediction.at("error_percent")), 100.0 * (0.9664 - predicted) / 0.9664, 1e-9);
  // A genuine prediction: not the value of the fit that saw the point.
  EXPECT_NE(predicted, number(all.at("predictions")[0].at("value")));
  EXPECT_TRUE(near_relative(predicted, 0.9664, 0.05)) << prediction.dump();

  const ProcessResult bad = run("predict", {fft_t3e, "--formula", fft_formula, "--exclude", "P", "--at", "N=2097152,P=32"});
  EXPECT_EQ(bad.exit_code, 1) << describe(bad);
  EXPECT_NE(bad.standard_error.find("--exclude P"), std::string::npos) << describe(bad);
  const ProcessResult unknown = run("fit", {fft_t3e, "--formula", fft_formula, "--exclude", "n=16384"});
  EXPECT_EQ(unknown.exit_code, 1) << describe(unknown);
  EXPECT_NE(unknown.standard_error.find("--exclude n=16384: 'n' is not a parameter of main (it has N, P)"), std::string::npos)
      << describe(unknown);
  const ProcessResult unmatched = run("fit", {fft_t3e, "--formula", fft_formula, "--exclude", "P=3"});
  EXPECT_EQ(unmatched.exit_code, 0) << describe(unmatched);
  EXPECT_NE(unmatched.standard_error.find("--exclude P=3: no measurement has these values"), std::string::npos) << describe(unmatched);
}

TEST(PredictCommand, ArithmeticAndListGridsFollowTheSegments) {
  TemporaryDirectory directory;
  const std::string data = directory.write("regimes.csv", two_regimes_csv());
  const Json arithmetic = run_json("predict", {data, "--formula", "c[0] + c[1]*n", "--segments", "auto", "--grid", "n=40:80:+20", "--json"});
  ASSERT_EQ(arithmetic.at("predictions").size(), 3U) << arithmetic.dump(2);
  const std::vector<std::tuple<double, double, int>> expected{{40, 81, 0}, {60, 301, 1}, {80, 401, 1}};  // cut at sqrt(48·64) ≈ 55.4
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Json& prediction = arithmetic["predictions"][i];
    EXPECT_EQ(prediction.at("at"), (Json{{"n", std::get<0>(expected[i])}}));
    EXPECT_NEAR(number(prediction.at("value")), std::get<1>(expected[i]), 1e-6) << prediction.dump();
    EXPECT_EQ(prediction.at("segment"), std::get<2>(expected[i])) << prediction.dump();
  }
  const Json list = run_json("predict", {data, "--formula", "c[0] + c[1]*n", "--segments", "auto", "--grid", "n=10,1000", "--json"});
  ASSERT_EQ(list.at("predictions").size(), 2U) << list.dump(2);
  EXPECT_NEAR(number(list["predictions"][0].at("value")), 21.0, 1e-6);
  EXPECT_EQ(list["predictions"][0].at("segment"), 0);
  EXPECT_NEAR(number(list["predictions"][1].at("value")), 5001.0, 1e-6);
  EXPECT_EQ(list["predictions"][1].at("segment"), 1);

  const ProcessResult table = run("predict", {data, "--formula", "c[0] + c[1]*n", "--segments", "2", "--at", "n=60"});
  ASSERT_EQ(table.exit_code, 0) << describe(table);
  EXPECT_TRUE(std::regex_search(table.standard_output, std::regex("main +time +n=60 +301 .* 2/2\n"))) << table.standard_output;
}

TEST(PredictCommand, TwoGridsMakeEveryCombination) {
  const Json json = run_json("predict", {fft_t3e, "--formula", fft_formula, "--grid", "P=1,2", "--grid", "N=1048576,2097152", "--json"});
  ASSERT_EQ(json.at("predictions").size(), 4U) << json.dump(2);
  std::set<std::pair<double, double>> points;
  for (const Json& prediction : json["predictions"]) {
    expect_prediction(prediction, "main", "time");
    points.emplace(number(prediction["at"].at("N")), number(prediction["at"].at("P")));
  }
  EXPECT_EQ(points, (std::set<std::pair<double, double>>{{1048576, 1}, {1048576, 2}, {2097152, 1}, {2097152, 2}}));
}

TEST(PredictCommand, EverySeriesIsPredicted) {
  const Json json = run_json("predict", {model_data + "/records.jsonl", "--region", "fft", "--at", "N=1024,P=16", "--json"});
  ASSERT_EQ(json.at("predictions").size(), 2U) << json.dump(2);
  const Json& time = json["predictions"][0];
  const Json& cycles = json["predictions"][1];
  EXPECT_EQ(time.at("metric"), "time");
  EXPECT_EQ(cycles.at("metric"), "PAPI_TOT_CYC");
  EXPECT_NEAR(number(time.at("value")), 0.023 - 0.0053 * 4, 1e-12);
  EXPECT_NEAR(number(cycles.at("value")), 239.5 - 56.5 * 4, 1e-9);
  // Two points, two constants: no interval can be given.
  EXPECT_TRUE(time.at("lower").is_null()) << time.dump();
  EXPECT_TRUE(time.at("upper").is_null()) << time.dump();
}

TEST(PredictCommand, AggregateChoosesHowRepetitionsCombine) {
  // fft.csv, region fft: three points, three constants: the model goes through the aggregated values;
  // (N, P) = (1024, 1) has the repetitions 0.040, 0.042, 0.041.
  const std::vector<std::pair<std::string, double>> expected{{"mean", 0.041}, {"median", 0.041}, {"min", 0.040}, {"max", 0.042}};
  for (const auto& [aggregate, value] : expected) {
    const Json json = run_json("predict", {model_data + "/fft.csv", "--region", "fft", "--formula", "c[0] + c[1]*N + c[2]*P",
                                           "--aggregate", aggregate, "--at", "N=1024,P=1", "--json"});
    ASSERT_EQ(json.at("predictions").size(), 1U) << json.dump(2);
    EXPECT_NEAR(number(json["predictions"][0].at("value")), value, 1e-12) << aggregate;
  }
}

TEST(PredictCommand, ASeriesThatCannotBeFitFailsAndTheOthersArePredicted) {
  const ProcessResult result = run("predict", {model_data + "/fft.csv", "--formula", "c[0] + c[1]*N + c[2]*P", "--at", "N=1024,P=1", "--json"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  Json json;
  ASSERT_TRUE(parse_json(result, json));
  ASSERT_EQ(json.at("predictions").size(), 1U) << json.dump(2);
  EXPECT_EQ(json["predictions"][0].at("region"), "fft");
  EXPECT_TRUE(starts_with(result.standard_error, "augur predict: transpose, all-to-all · time: 1 measured points cannot determine"))
      << describe(result);
}

// ---- augur predict: errors ---------------------------------------------------------------------

TEST(PredictCommand, AtWithAnUnknownOrMissingParameter) {
  EXPECT_TRUE(fails_with(run("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152,P=4,Q=3"}),
                         "--at: 'Q' is not a parameter of main (it has N, P)\n"));
  EXPECT_TRUE(fails_with(run("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152"}),
                         "--at: the model of main needs a value for P\n"));
  EXPECT_TRUE(fails_with(run("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152,P=abc"}),
                         "--at N=2097152,P=abc: 'abc' is not a number (P)\n"));
  EXPECT_TRUE(fails_with(run("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152,P=4,"}),
                         "--at N=2097152,P=4,: expected NAME=VALUE, not ''\n"));
  EXPECT_TRUE(fails_with(run("predict", {fft_t3e, "--formula", fft_formula}), "--at: give the points to predict with --at or --grid\n"));
  // log(P) at P = 0: the model is not defined there.
  EXPECT_TRUE(fails_with(run("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152,P=0"}),
                         "--at N=2097152,P=0: the model of main is not defined at N=2097152,P=0: "));
}

TEST(PredictCommand, GridWithABadSpec) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"P=1:32", "--grid P=1:32: expected FROM:TO:*FACTOR or FROM:TO:+STEP\n"},
      {"P=32:1:*2", "--grid P=32:1:*2: a geometric grid needs 0 < FROM <= TO and a factor > 1\n"},
      {"P=1:32:*1", "--grid P=1:32:*1: a geometric grid needs 0 < FROM <= TO and a factor > 1\n"},
      {"P=1:32:+0", "--grid P=1:32:+0: an arithmetic grid needs FROM <= TO and a step > 0\n"},
      {"P=1:32:*2x", "--grid P=1:32:*2x: '2x' is not a number (P)\n"},
      {"P", "--grid P: expected NAME=VALUES\n"},
      {"P=1,x", "--grid P=1,x: 'x' is not a number (P)\n"},
      {"P=1:1e9:+1", "--grid P=1:1e9:+1: more than 100000 values\n"},
  };
  for (const auto& [grid, message] : cases) {
    EXPECT_TRUE(fails_with(run("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152", "--grid", grid}), message)) << grid;
  }
  const ProcessResult confidence = run("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152,P=4", "--confidence", "2"});
  EXPECT_EQ(confidence.exit_code, 2) << describe(confidence);
  EXPECT_EQ(confidence.standard_output, "");
  EXPECT_TRUE(starts_with(confidence.standard_error, "--confidence: ")) << describe(confidence);
}

// A parameter the model lacks, given by --grid, is reported under --grid.
TEST(PredictCommand, GridWithAnUnknownParameterNamesTheGrid) {
  const ProcessResult result = run("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152,P=4", "--grid", "Q=1,2"});
  EXPECT_TRUE(fails_with(result, "--grid"));
  EXPECT_TRUE(contains(result.standard_error, "'Q' is not a parameter of main")) << describe(result);
}

TEST(PredictCommand, BadAggregate) {
  EXPECT_TRUE(fails_with(run("predict", {fft_t3e, "--formula", fft_formula, "--at", "N=2097152,P=4", "--aggregate", "bad"}),
                         "--aggregate: unknown aggregate 'bad' (mean, median, min, max)\n"));
}

// ---- augur plot ------------------------------------------------------------------------------

TEST(PlotCommand, WritesAnSvg) {
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  TemporaryDirectory directory;
  const std::string output = directory.file("fft.svg");
  const ProcessResult result = run("plot", {fft_t3e, "--formula", fft_formula, "--x", "P", "-o", output});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.standard_output, "");
  EXPECT_TRUE(starts_with(result.standard_error, "augur plot: wrote " + output + " (main · time, 6 points, model " + fft_symbolic + ")"))
      << describe(result);
  ASSERT_TRUE(fs::exists(output));
  const std::string svg = read_text(output);
  EXPECT_TRUE(starts_with(svg, "<?xml") || contains(svg, "<svg")) << svg.substr(0, 200);
  EXPECT_TRUE(contains(svg, "</svg>")) << "the picture is not whole";
  EXPECT_EQ(directory.names(), std::vector<std::string>{"fft.svg"});
  EXPECT_FALSE(has_leftover_temporary(directory));
}

TEST(PlotCommand, WritesAPngOfOneSeries) {
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  TemporaryDirectory directory;
  const std::string output = directory.file("solve.png");
  const ProcessResult result = run("plot", {model_data + "/two_regions.txt", "--region", "solve", "--metric", "time", "-o", output});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  ASSERT_TRUE(fs::exists(output));
  EXPECT_TRUE(starts_with(read_text(output), "\x89PNG\r\n\x1a\n"));
  EXPECT_EQ(directory.names(), std::vector<std::string>{"solve.png"});
}

TEST(PlotCommand, RefusesAnOutputThatIsNotSvgOrPng) {
  TemporaryDirectory directory;
  const std::string output = directory.file("fft.txt");
  EXPECT_TRUE(fails_with(run("plot", {fft_t3e, "--formula", fft_formula, "-o", output}),
                         "--output: the picture must end in .svg, .png or .gp (the gnuplot script), not '" + output + "'\n"));
  EXPECT_FALSE(fs::exists(output));
  EXPECT_EQ(directory.names(), std::vector<std::string>{});
}

TEST(PlotCommand, RefusesSeveralSeriesWithoutRegion) {
  TemporaryDirectory directory;
  const std::string data = model_data + "/two_regions.txt";
  const std::string output = directory.file("two.svg");
  EXPECT_TRUE(fails_with(run("plot", {data, "-o", output}), data + ": the data holds 3 series; choose one with --region and --metric\n"));
  EXPECT_TRUE(fails_with(run("plot", {data, "--region", "solve", "-o", output}),
                         data + ": the data holds 2 series; choose one with --region and --metric\n"));
  EXPECT_TRUE(fails_with(run("plot", {fft_t3e, "--formula", fft_formula, "--x", "Q", "-o", output}), "--x: 'Q' is not a parameter of main\n"));
  EXPECT_EQ(directory.names(), std::vector<std::string>{});
}

TEST(PlotCommand, RequiresAnOutput) {
  const ProcessResult result = run("plot", {fft_t3e, "--formula", fft_formula});
  EXPECT_NE(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.standard_output, "");
  EXPECT_TRUE(contains(result.standard_error, "--output")) << describe(result);
}

// A gnuplot that fails after writing part of the picture: the previous picture stays, nothing is left.
TEST(PlotCommand, FailingGnuplotLeavesThePreviousPictureAndNoTemporary) {
  TemporaryDirectory directory;
  const fs::path bin = directory.path() / "bin";
  fs::create_directory(bin);
  write_text(bin / "gnuplot",
             "#!/bin/sh\n"
             "while IFS= read -r line; do\n"
             "  case \"$line\" in 'set output \"'*) out=${line#set output \\\"}; out=${out%\\\"} ;; esac\n"
             "done < \"$1\"\n"
             "echo partial > \"$out\"\n"
             "echo boom >&2\n"
             "exit 3\n");
  fs::permissions(bin / "gnuplot", fs::perms::owner_all);
  const fs::path pictures = directory.path() / "pictures";
  fs::create_directory(pictures);
  const std::string output = (pictures / "fft.svg").string();
  write_text(output, "previous picture");

  ProcessOptions options;
  options.environment = {{"PATH", bin.string()}};
  const ProcessResult result = run("plot", {fft_t3e, "--formula", fft_formula, "-o", output}, options);
  EXPECT_TRUE(fails_with(result, "augur plot: gnuplot exited with status 3: boom")) << describe(result);
  EXPECT_EQ(read_text(output), "previous picture");
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(pictures)) names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"fft.svg"});
}

TEST(PlotCommand, MissingGnuplotIsReported) {
  TemporaryDirectory directory;
  const fs::path empty = directory.path() / "empty";
  fs::create_directory(empty);
  const std::string output = directory.file("fft.svg");
  ProcessOptions options;
  options.environment = {{"PATH", empty.string()}};
  const ProcessResult result = run("plot", {fft_t3e, "--formula", fft_formula, "-o", output}, options);
  EXPECT_TRUE(fails_with(result, "augur plot: gnuplot is not installed or cannot be started")) << describe(result);
  EXPECT_EQ(directory.names(), std::vector<std::string>{"empty"});
}

}  // namespace
