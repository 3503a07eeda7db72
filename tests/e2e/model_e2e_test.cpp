// End-to-end tests of augur fit: the built binary run as a user runs it, through augur::core::run_process, on
// the example data (examples/model), the readers' test data (tests/model/data) and files written here into a
// fresh temporary directory removed afterwards (augur predict and plot: predict_e2e_test.cpp). Nothing here
// depends on timing.
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
#include "model_e2e_support.hpp"

namespace {

using namespace augur::e2e;  // describe, contains, read_text, TemporaryDirectory, ...
using namespace augur::e2e::modeling;  // run, run_json, fails_with, the example data, ...

namespace fs = std::filesystem;

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

}  // namespace
