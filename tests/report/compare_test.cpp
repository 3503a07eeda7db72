// Several inputs of one kind on one chart (src/report/page_compare.cpp), the inputs' names in the legends,
// and the predictions of a performance database's page (page_database.cpp), on JSON written here with the
// numbers and the positions worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "report/report.hpp"
#include "report_test_support.hpp"

namespace augur::report {
namespace {

using test::count;
using test::Json;
using test::Rendered;
using test::render_files;

const std::string speedup_a = R"({"command": "a", "max_threads": 2, "points": [
    {"p": 1, "ts": 1.0, "ts_min": 1.0, "ts_max": 1.0, "sa_n": 1.0},
    {"p": 2, "ts": 1.6, "ts_min": 1.5, "ts_max": 1.7, "sa_n": 1.5}]})";
const std::string speedup_b = R"({"command": "b", "max_threads": 2, "points": [
    {"p": 1, "ts": 1.0, "ts_min": null, "ts_max": null, "sa_n": null},
    {"p": 2, "ts": 1.8, "ts_min": 1.7, "ts_max": 1.9, "sa_n": null}]})";

TEST(ReportCompare, TwoSpeedupsAreDrawnOnOneChartWithTheirNames) {
  const Rendered page = render_files({{"runs/old.json", speedup_a}, {"runs/new.json", speedup_b}});
  EXPECT_TRUE(page.says("old: TS S(2) = 1.6, SA(N exec) S(2) = 1.5")) << page.summary();
  EXPECT_TRUE(page.says("new: TS S(2) = 1.8, SA(N exec) -")) << page.summary();
  EXPECT_EQ(page.page.summary.front(), "old: TS S(2) = 1.6, SA(N exec) S(2) = 1.5");  // the comparison comes first
  EXPECT_EQ(page.page.sections.front().heading, "Speedups compared: old and new");
  EXPECT_EQ(count(page.html, "<svg"), 5u);  // the comparison, then two charts of each input
  const std::string chart = page.svg(0);
  // Circles: TS of both (2 + 2) and SA(N exec) of old (2); range bars: old's two, new's one (p = 1 has none).
  EXPECT_EQ(count(chart, "class=\"point\""), 6u);
  EXPECT_EQ(count(chart, "class=\"error-bar\""), 3u);
  for (const char* name : {">old: TS</text>", ">old: SA(N exec)</text>", ">new: TS</text>", ">ideal S(p) = p</text>"}) {
    EXPECT_EQ(count(chart, name), 1u) << name;
  }
  EXPECT_EQ(count(chart, ">new: SA(N exec)</text>"), 0u);  // nothing to draw
  // The table: p, then TS and SA(N exec) of each input.
  EXPECT_NE(page.html.find("<th>threads p</th><th>old TS</th><th>old SA(N exec)</th><th>new TS</th><th>new SA(N exec)</th>"), std::string::npos);
  EXPECT_NE(page.html.find("<td class=\"number\" data-sort=\"2\">2</td><td class=\"number\" data-sort=\"1.6000000000000001\">1.6</td>"
                           "<td class=\"number\" data-sort=\"1.5\">1.5</td><td class=\"number\" data-sort=\"1.8\">1.8</td>"
                           "<td class=\"number\" data-sort=\"\">-</td>"),
            std::string::npos);
}

TEST(ReportCompare, LabelsNameTheInputsAndSameStemsFallBackToTheFiles) {
  const Rendered labelled = render_files({{"a.json", speedup_a}, {"b.json", speedup_b}}, {"machine <A>"});
  EXPECT_TRUE(labelled.says("machine <A>: TS S(2) = 1.6, SA(N exec) S(2) = 1.5")) << labelled.summary();
  EXPECT_NE(labelled.html.find(">machine &lt;A&gt;: TS</text>"), std::string::npos);
  EXPECT_TRUE(labelled.says("b: TS S(2) = 1.8, SA(N exec) -")) << labelled.summary();
  const Json document = Json::parse(speedup_a);
  EXPECT_EQ(input_names({Input{"x/speedup.json", document, Kind::speedup}, Input{"y/speedup.json", document, Kind::speedup},
                         Input{"z/speedup.json", document, Kind::speedup, "third"}, Input{"<stdin>", document, Kind::speedup}}),
            (std::vector<std::string>{"x/speedup.json", "y/speedup.json", "third", "<stdin>"}));
  // One speedup alone: no comparison.
  EXPECT_EQ(count(render_files({{"a.json", speedup_a}}).html, "<svg"), 2u);
}

std::string fit_of(double constant, double largest) {
  return R"({"data": "gone.csv", "models": [{"region": "main", "metric": "time", "symbolic": "c[0] / P", "formula": ")" +
         std::to_string(static_cast<int>(constant)) + R"( / P", "searched": false, "loo_smape": 5, "segments": [{"formula": "x",
         "bounds": {"P": [1, )" + std::to_string(static_cast<int>(largest)) + R"(], "N": [1024, 1024]},
         "constants": [{"name": "c[0]", "value": )" + std::to_string(constant) + R"(}]}], "constants": []}]})";
}

TEST(ReportCompare, TwoFitsOfOneParameterShareAChart) {
  const Rendered page = render_files({{"t3e.json", fit_of(8, 32)}, {"sp2.json", fit_of(10, 64)}});
  EXPECT_TRUE(page.says("main, time against P: t3e c[0] / P (leave-one-out SMAPE 5%); sp2 c[0] / P (leave-one-out SMAPE 5%)"))
      << page.summary();
  EXPECT_EQ(page.page.sections.front().heading, "Models compared: main, time (t3e and sp2)");
  EXPECT_EQ(count(page.html, "<svg"), 3u);
  const std::string chart = page.svg(0);
  EXPECT_NE(chart.find(">time of main against P (N = 1024)</text>"), std::string::npos);
  EXPECT_EQ(count(chart, "class=\"line\""), 2u);
  EXPECT_NE(chart.find(">t3e: model c[0] / P</text>"), std::string::npos);
  EXPECT_NE(chart.find(">sp2: model c[0] / P</text>"), std::string::npos);
  // P from 1 to 64 (ratio ≥ 8: logarithmic), extrapolated to 4 · 64 = 256, padded by 256^0.04 each side;
  // the extrapolation is shaded from 64 to 256: x(P) = 72 + (log P − log low) / (log high − log low) · 590.
  const double factor = std::pow(256.0, 0.04), low = 1 / factor, high = 256 * factor;
  const auto x = [&](double p) { return 72 + (std::log10(p) - std::log10(low)) / (std::log10(high) - std::log10(low)) * 590; };
  const double from = x(64), to = x(256);
  char expected[96];
  std::snprintf(expected, sizeof expected, "<rect class=\"shade\" x=\"%.1f\" y=\"30.0\" width=\"%.1f\"", from, to - from);
  EXPECT_NE(chart.find(expected), std::string::npos) << expected << "\n" << chart.substr(0, 600);
  // The curves: 8/P and 10/P at P = 1 are the largest values; each starts at its own P = 1.
  EXPECT_NE(chart.find("t3e: model c[0] / P: from 1, 8 to 256, 0.03125"), std::string::npos) << chart;
  EXPECT_NE(chart.find("sp2: model c[0] / P: from 1, 10 to 256, 0.0390625"), std::string::npos);
}

TEST(ReportCompare, FitsOfOtherMetricsAreNotCompared) {
  std::string other = fit_of(10, 64);
  other.replace(other.find("\"time\""), 6, "\"bytes\"");
  const Rendered page = render_files({{"t3e.json", fit_of(8, 32)}, {"sp2.json", other}});
  EXPECT_EQ(count(page.html, "<svg"), 2u);
  EXPECT_EQ(page.html.find("Models compared"), std::string::npos);
}

TEST(ReportDatabase, EachStoredRunPredictedAgainstItsMeasuredTime) {
  const Rendered page = render_files({{"perf.db", R"json({"augur_database": "perf.db", "tables": {"runs": []}, "predictions": [
    {"target": {"application": "toy", "dataset": "S", "processors": 2}, "source": "run 1", "length": 2,
     "measured": {"seconds": 10}, "summation": {"method": "summation", "length": 1, "seconds": 12, "error": 0.2},
     "own": {"method": "coupling", "length": 2, "seconds": 10.5, "error": 0.05},
     "reuse": [{"method": "reuse", "length": 2, "seconds": 9, "error": -0.1, "from": "run 2", "chosen": true},
               {"method": "reuse", "length": 2, "seconds": 11, "error": 0.1, "from": "run 3", "chosen": false}], "not_reusable": []},
    {"source": "run 2", "not_predicted": "no problem size (augur_coupling_set_problem)"},
    {"target": {"application": "toy", "dataset": "M", "processors": 4}, "source": "run 3", "length": 2, "measured": null,
     "summation": {"method": "summation", "length": 1, "seconds": 20, "error": null}, "own": null, "reuse": [], "not_reusable": ["run 1"]}]})json"}});
  // Run 1 predicted (its chosen source run 2: |−10%|), run 3 has no source; the mean over the one measured run.
  EXPECT_TRUE(page.says("1 of 3 stored runs predicted from the others (augur couple predict); mean |error| 10% by isocoupling, "
                        "20% by summation over 1 measured run"))
      << page.summary();
  EXPECT_NE(page.html.find("<p>run 2: not predicted: no problem size (augur_coupling_set_problem)</p>"), std::string::npos);
  // The chart: the diagonal and the three predictions of run 1 at measured = 10 (run 3 was not measured).
  ASSERT_EQ(count(page.html, "<svg"), 1u);
  const std::string chart = page.svg(0);
  EXPECT_EQ(count(chart, "class=\"point\""), 3u);
  EXPECT_NE(chart.find("isocoupling (augur couple predict): 10, 9</title>"), std::string::npos);
  EXPECT_NE(chart.find("summation of the kernels alone: 10, 12</title>"), std::string::npos);
  EXPECT_NE(chart.find("coupling, the run&#39;s own chains: 10, 10.5</title>"), std::string::npos);
  EXPECT_NE(chart.find("predicted = measured: from 9, 9 to 12, 12"), std::string::npos);
  // The table: a row per run predicted or not predictable from a source; errors in percent.
  EXPECT_NE(page.html.find("<td>run 1</td><td>toy</td><td>S</td><td class=\"number\" data-sort=\"2\">2</td>"
                           "<td class=\"number\" data-sort=\"10\">10</td><td class=\"number\" data-sort=\"9\">9</td>"
                           "<td class=\"number\" data-sort=\"-10\">-10</td><td>run 2</td>"),
            std::string::npos);
  EXPECT_NE(page.html.find("<td>none can lend its coupling values</td>"), std::string::npos);
}

}  // namespace
}  // namespace augur::report
