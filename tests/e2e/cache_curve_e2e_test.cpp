// End-to-end tests of augur cache curve: the built binary on the cache examples (examples/cache), its curve
// checked point by point against augur cache sim (the exact simulator) at the same sizes, its outputs
// (table, JSON, CSV, picture), StatStack's reproducibility, and refusals with their exit statuses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;
namespace fs = std::filesystem;
using augur::core::ProcessResult;
using Json = nlohmann::json;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;
const std::string examples = AUGUR_EXAMPLES_DIR;
const std::string transpose = examples + "/cache/transpose.lackey";

ProcessResult cache(const Arguments& arguments) {
  Arguments argv{augur_exe, "cache"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

Json json_of(const ProcessResult& result) {
  EXPECT_TRUE(result.succeeded()) << describe(result);
  return Json::parse(result.standard_output);
}

// The miss rate of one cache level by the exact simulator.
double simulated_miss_rate(const std::string& trace, const std::string& spec) {
  const Json json = json_of(cache({"sim", trace, "--cache", "l1:" + spec, "--no-3c", "--json"}));
  return json["levels"][0]["miss_rate"].get<double>();
}

TEST(CacheCurve, EveryPointIsTheExactSimulatorsMissRate) {
  for (const std::string sets : {"1", "4"}) {
    const Json curve = json_of(cache({"curve", transpose, "--line", "32", "--sets", sets, "--json"}));
    EXPECT_EQ(curve["line"], 32);
    EXPECT_EQ(curve["method"], "exact");
    ASSERT_GE(curve["points"].size(), 5u);
    for (const Json& point : curve["points"]) {
      const std::string assoc = sets == "1" ? "full" : std::to_string(point["assoc"].get<int>());
      const std::string spec = "size=" + std::to_string(point["size"].get<long>()) + ",assoc=" + assoc + ",line=32";
      EXPECT_DOUBLE_EQ(point["miss_rate"].get<double>(), simulated_miss_rate(transpose, spec)) << sets << " sets, " << spec;
    }
    // The last point misses only the first reference of each line.
    const Json& last = curve["points"].back();
    EXPECT_DOUBLE_EQ(last["miss_rate"].get<double>(), curve["cold_misses"].get<double>() / curve["references"].get<double>());
  }
}

TEST(CacheCurve, TheSameAccessesGiveTheSameCurveInEveryFormatAndFromStandardInput) {
  const std::string din = cache({"curve", examples + "/cache/small.din", "--line", "16", "--json"}).standard_output;
  const std::string binary = cache({"curve", examples + "/cache/small.augur", "--line", "16", "--json"}).standard_output;
  ASSERT_FALSE(din.empty());
  EXPECT_EQ(din, binary);
  const ProcessResult piped = augur::core::run_process(
      {"sh", "-c", "\"$0\" cache curve - --line 16 --json < \"$1\"", augur_exe, examples + "/cache/small.din"});
  EXPECT_EQ(piped.standard_output, din) << describe(piped);
}

TEST(CacheCurve, CsvHoldsTheJsonPoints) {
  const Json json = json_of(cache({"curve", transpose, "--json"}));
  const ProcessResult csv = cache({"curve", transpose, "--csv"});
  ASSERT_TRUE(csv.succeeded()) << describe(csv);
  std::istringstream lines(csv.standard_output);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "size,assoc,miss_rate");
  for (const Json& point : json["points"]) {
    ASSERT_TRUE(std::getline(lines, line));
    long size = 0;
    int assoc = 0;
    double rate = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%ld,%d,%lf", &size, &assoc, &rate), 3) << line;
    EXPECT_EQ(size, point["size"].get<long>());
    EXPECT_EQ(assoc, point["assoc"].get<int>());
    EXPECT_DOUBLE_EQ(rate, point["miss_rate"].get<double>());
  }
  EXPECT_FALSE(std::getline(lines, line)) << line;
}

TEST(CacheCurve, StatStackReportsItsSamplingAndDependsOnlyOnTheSeed) {
  const Json first = json_of(cache({"curve", transpose, "--method", "statstack", "--sample", "0.1", "--seed", "5", "--json"}));
  const Json again = json_of(cache({"curve", transpose, "--method", "statstack", "--sample", "0.1", "--seed", "5", "--json"}));
  EXPECT_EQ(first, again);
  EXPECT_EQ(first["method"], "statstack");
  EXPECT_DOUBLE_EQ(first["sample_rate"].get<double>(), 0.1);
  const double references = first["references"].get<double>();
  EXPECT_NEAR(first["samples"].get<double>(), 0.1 * references, 5 * std::sqrt(0.1 * 0.9 * references));
  // At rate 1 every reference is sampled: the seed no longer matters and every first reference is a last one.
  const Json all = json_of(cache({"curve", transpose, "--method", "statstack", "--sample", "1", "--seed", "1", "--json"}));
  const Json all_again = json_of(cache({"curve", transpose, "--method", "statstack", "--sample", "1", "--seed", "9", "--json"}));
  EXPECT_EQ(all["points"], all_again["points"]);
  const Json exact = json_of(cache({"curve", transpose, "--json"}));
  EXPECT_EQ(all["samples"], exact["references"]);
  EXPECT_EQ(all["unfinished"], exact["cold_misses"]);
  const ProcessResult table = cache({"curve", transpose, "--method", "statstack"});
  EXPECT_TRUE(contains(table.standard_output, "StatStack (Eklov and Hagersten 2010) from ")) << describe(table);
  EXPECT_TRUE(contains(table.standard_output, "(rate 0.001, seed 1;")) << describe(table);
}

TEST(CacheCurve, PlotsThroughGnuplotAndNeverOverTheTrace) {
  const TemporaryDirectory directory;
  const fs::path trace = directory.path() / "trace.lackey";
  fs::copy_file(transpose, trace);
  const std::string before = read_text(trace);
  const ProcessResult over = cache({"curve", trace.string(), "--plot", trace.string()});
  EXPECT_EQ(over.exit_code, 1) << describe(over);
  EXPECT_TRUE(contains(over.standard_error, "augur cache curve: the output")) << describe(over);
  EXPECT_EQ(read_text(trace), before);
  const ProcessResult wrong = cache({"curve", trace.string(), "--plot", (directory.path() / "curve.pdf").string()});
  EXPECT_EQ(wrong.exit_code, 1) << describe(wrong);
  EXPECT_TRUE(contains(wrong.standard_error, "--plot: the picture must end in .svg or .png")) << describe(wrong);
  EXPECT_FALSE(fs::exists(directory.path() / "curve.pdf"));
  if (!augur::core::run_process({"sh", "-c", "command -v gnuplot"}).succeeded()) GTEST_SKIP() << "gnuplot is not installed";
  const fs::path picture = directory.path() / "curve.svg";
  const ProcessResult drawn = cache({"curve", trace.string(), "--plot", picture.string(), "--json"});
  ASSERT_TRUE(drawn.succeeded()) << describe(drawn);
  const std::string svg = read_text(picture);
  EXPECT_TRUE(contains(svg, "<svg")) << svg.substr(0, 200);
  EXPECT_TRUE(contains(svg, "miss rate (%)"));
  EXPECT_TRUE(contains(svg, "4 KiB"));  // the floor of the curve, a tic of the axis
  EXPECT_TRUE(Json::accept(drawn.standard_output));
}

TEST(CacheCurve, RefusesBadOptionsAsUsageErrors) {
  for (const Arguments& arguments : {Arguments{"--line", "48"}, Arguments{"--line", "1"}, Arguments{"--sets", "3"},
                                     Arguments{"--method", "statstack", "--sets", "4"}, Arguments{"--sample", "0.1"},
                                     Arguments{"--json", "--csv"}, Arguments{"--method", "lru"}, Arguments{"--sample", "2", "--method", "statstack"}}) {
    Arguments argv{"curve", transpose};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const ProcessResult result = cache(argv);
    EXPECT_EQ(result.exit_code, 2) << arguments.front() << " " << arguments.back() << "\n" << describe(result);
    EXPECT_EQ(result.standard_output, "");
  }
}

TEST(CacheCurve, AMalformedTraceIsAnErrorAtItsLineWithNothingPrinted) {
  const TemporaryDirectory directory;
  const fs::path trace = directory.path() / "bad.din";
  write_text(trace, "0 1000\n1 2000 8\n0 zz\n");
  const ProcessResult result = cache({"curve", trace.string(), "--format", "din"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.standard_output, "");
  EXPECT_TRUE(starts_with(result.standard_error, trace.string() + ":3:")) << describe(result);
  const ProcessResult missing = cache({"curve", (directory.path() / "none.din").string()});
  EXPECT_EQ(missing.exit_code, 1) << describe(missing);
}

}  // namespace
