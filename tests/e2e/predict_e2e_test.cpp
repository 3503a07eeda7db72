// End-to-end tests of augur predict and augur plot: the built binary run as a user runs it, through
// augur::core::run_process, on the example data (examples/model), the readers' test data (tests/model/data)
// and files written here into a fresh temporary directory removed afterwards (augur fit:
// model_e2e_test.cpp). Nothing here depends on timing.
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
