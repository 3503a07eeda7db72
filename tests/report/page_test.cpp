// The page of each kind of input (src/report/report.hpp) on small JSON written here: the kind detected from
// the keys, the summary's numbers worked out by hand, the charts counted, every text escaped, and the errors
// of a missing field and of an unknown kind.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "augur/core/diagnostics.hpp"
#include "report/report.hpp"
#include "report_test_support.hpp"

namespace augur::report {
namespace {

using test::count;
using test::Json;
using test::render;
using test::Rendered;

TEST(ReportPage, SpeedupShowsTsAndSaSideBySide) {
  const Rendered page = render(R"({"command": ["prog", "<script>alert(1)</script>"], "max_threads": 2, "points": [
    {"p": 1, "ts": 1.0, "sa_n": 1.0, "time_s": 10},
    {"p": 2, "ts": 1.6, "ts_min": 1.5, "ts_max": 1.7, "sa_n": 1.5, "time_s": 6.25}], "notes": []})");
  EXPECT_EQ(page.kind, Kind::speedup);
  // Karp and Flatt: f = (1/1.6 - 1/2) / (1 - 1/2) = 0.25, Amdahl limit 1/f = 4.
  EXPECT_TRUE(page.says("TS: S(2) = 1.6, efficiency 80%, f = 0.25, Amdahl limit 4 (f from TS by Karp and Flatt)")) << page.summary();
  EXPECT_TRUE(page.says("SA(N exec): S(2) = 1.5, efficiency 75%")) << page.summary();
  EXPECT_EQ(count(page.html, "<svg"), 2u);
  EXPECT_EQ(count(page.html, "class=\"error-bar\""), 1u);  // TS's range on 2 threads
  EXPECT_EQ(count(page.html, "<script>"), 2u);            // the page's own two scripts, never the input's
  EXPECT_NE(page.html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

// TS(2) below 1: Karp and Flatt's formula would give f = 1.06 and an "Amdahl limit" of 0.94; the page, as the plain
// verdict, gives no f.
TEST(ReportPage, SpeedupBelowOneHasNoKarpFlattFraction) {
  const Rendered page = render(R"({"command": ["prog"], "max_threads": 2, "points": [
    {"p": 1, "ts": 1.0, "time_s": 10}, {"p": 2, "ts": 0.94, "time_s": 10.64}], "notes": []})");
  EXPECT_TRUE(page.says("TS: S(2) = 0.94, efficiency 47% (f from TS by Karp and Flatt)")) << page.summary();
  EXPECT_EQ(page.summary().find("Amdahl limit"), std::string::npos) << page.summary();
}

TEST(ReportPage, SelfAnalysisReportHasTheRegionsSpeedupAndAmdahl) {
  // f = 0.1: S(4) = 1 / (0.1 + 0.9/4) = 3.0769, efficiency 77%, Amdahl limit 10.
  const Rendered page = render(R"({"augur_report": 1, "mode": "analyze", "program": "<img src=x onerror=alert(1)>",
    "allocated_processors": 4, "available_processors": 8, "regions": [{"id": 1, "f": 0.1, "speedup": [
      {"p": 1, "value": 1.0, "state": "PC"}, {"p": 2, "value": 1.818, "state": "PC"},
      {"p": 3, "value": null, "state": "PNC"}, {"p": 4, "value": 3.0769, "median_value": 3.0, "interval": [2.9, 3.1], "state": "PC"}],
      "noise": {"verdict": "measurement looks clean", "reasons": []}, "notes": ["a <note>"]}], "notes": []})");
  EXPECT_EQ(page.kind, Kind::self_analysis);
  EXPECT_TRUE(page.says("region 1: S(4) = 3.08, efficiency 77%, f = 0.1, Amdahl limit 10")) << page.summary();
  EXPECT_TRUE(page.says("region 1: measurement looks clean")) << page.summary();
  EXPECT_EQ(count(page.html, "<svg"), 1u);
  EXPECT_EQ(count(page.html, "class=\"error-bar\""), 1u);
  EXPECT_EQ(page.html.find("<img"), std::string::npos);
  EXPECT_EQ(page.html.find("<note>"), std::string::npos);
}

TEST(ReportPage, RunIsASelfAnalysisReportWithItsProgram) {
  const Rendered page = render(R"({"augur_report": 1, "program": "p", "allocated_processors": 2, "regions": [],
    "exit_code": 0, "program_wall_time_s": 1.5, "interpose": {"intercepted": 3, "regions": [
      {"id": 7, "length": 1, "iterations": 10, "loops": [{"name": "calc1._omp_fn.0", "module": "p"}]}]}})");
  EXPECT_EQ(page.kind, Kind::run);
  EXPECT_TRUE(page.says("wall time 1.5 s, exit status 0")) << page.summary();
  EXPECT_NE(page.html.find("calc1._omp_fn.0"), std::string::npos);
}

const char* const fit_json = R"({"data": "t.csv", "errors": [], "models": [{"region": "main", "metric": "time",
  "symbolic": "c[0] + c[1] * P", "formula": "1 + 2 * P", "searched": true, "hypotheses": 9, "loo_smape": 2.1, "points": 2,
  "constants": [{"name": "c[0]", "value": 1, "stderr": 0.1}, {"name": "c[1]", "value": 2, "stderr": 0.01}],
  "segments": [{"bounds": {"P": [4, 128]}, "formula": "1 + 2 * P", "points": 2,
    "constants": [{"name": "c[0]", "value": 1}, {"name": "c[1]", "value": 2}]}]}],
  "measurements": [{"region": "main", "metric": "time", "parameters": ["P"],
    "points": [{"at": [4], "values": [9, 9.2]}, {"at": [128], "values": [257]}]}]})";

TEST(ReportPage, FitShowsTheModelItsMeasurementsAndTheExtrapolation) {
  const Rendered page = render(fit_json);
  EXPECT_EQ(page.kind, Kind::fit);
  EXPECT_TRUE(page.says("main, time: best model c[0] + c[1] * P, leave-one-out SMAPE 2.1%, valid for P in [4, 128]")) << page.summary();
  EXPECT_EQ(count(page.html, "<svg"), 1u);
  EXPECT_EQ(count(page.html, "class=\"line\""), 1u);
  EXPECT_EQ(count(page.html, "class=\"error-bar\""), 2u);  // the two measured points, with their repetitions
  EXPECT_EQ(count(page.html, "class=\"shade\""), 1u);      // beyond P = 128
  // The model evaluated at the ends of the curve: 1 + 2 × 4 = 9, and at P = 4 × 128 = 512, 1 + 2 × 512 = 1025.
  EXPECT_NE(page.html.find("<title>model: 1 + 2 * P: from 4, 9 to 512, 1025</title>"), std::string::npos);
  EXPECT_NE(page.html.find("extrapolation (beyond the measurements)"), std::string::npos);
}

TEST(ReportPage, PredictShowsTheIntervalAndShadesWhatWasNotMeasured) {
  const Rendered page = render(R"({"data": "t.csv", "predictions": [
    {"at": {"P": 1}, "value": 3, "lower": 2.5, "upper": 3.5, "measured": 3.1, "confidence": 0.95, "region": "main", "metric": "time"},
    {"at": {"P": 2}, "value": 5, "lower": 4.5, "upper": 5.5, "measured": 5.2, "confidence": 0.95, "region": "main", "metric": "time"},
    {"at": {"P": 4}, "value": 9, "lower": 8, "upper": 10, "measured": null, "confidence": 0.95, "region": "main", "metric": "time"}]})");
  EXPECT_EQ(page.kind, Kind::predict);
  EXPECT_TRUE(page.says("main, time at P = 4: 9 [8, 10] (95% prediction interval)")) << page.summary();
  EXPECT_EQ(count(page.html, "class=\"band\""), 1u);
  EXPECT_EQ(count(page.html, "class=\"shade\""), 1u);
}

TEST(ReportPage, TaskSystemsHaveAGanttChart) {
  const Rendered tspp = render(R"({"method": "mak-lundstrom", "completion": {"mean": 5, "std": 1}, "resources": [
      {"name": "cpu", "utilization": 0.5}, {"name": "disk", "utilization": 0.25}],
    "tasks": [{"name": "a", "start": {"mean": 0}, "residence": {"mean": 2}, "end": {"mean": 2}},
              {"name": "b", "start": {"mean": 2}, "residence": {"mean": 3}, "end": {"mean": 5}}]})");
  EXPECT_EQ(tspp.kind, Kind::tspp);
  EXPECT_TRUE(tspp.says("completion time 5 (std 1), predicted by mak-lundstrom; 2 tasks on 2 resources")) << tspp.summary();
  EXPECT_TRUE(tspp.says("busiest resource cpu, utilization 50%")) << tspp.summary();
  EXPECT_EQ(count(tspp.html, "class=\"chart gantt\""), 1u);
  EXPECT_EQ(count(tspp.html, "class=\"bar\""), 4u);  // two tasks, two resources
  const Rendered sim = render(R"({"replications": 100, "completion": {"mean": 5, "ci95_half_width": 0.25}, "resources": [],
    "tasks": [{"name": "a", "start": {"mean": 0}, "residence": {"mean": 5, "ci95_half_width": 0.25}, "end": {"mean": 5}}]})");
  EXPECT_EQ(sim.kind, Kind::sim);
  EXPECT_TRUE(sim.says("completion time 5 ± 0.25, simulated (100 replications, 95% interval); 1 tasks on 0 resources")) << sim.summary();
}

TEST(ReportPage, CouplingNamesTheClosestPredictor) {
  const Rendered page = render(R"({"run": {"application": "sp", "dataset": "16"}, "measured": {"seconds": 1.0},
    "kernels": [{"name": "x", "invocations": 1, "alone": {"seconds": 0.5}}],
    "couplings": [{"length": 2, "chain": ["x", "y"], "seconds": 0.9, "sum_alone": 1.0, "coupling": 0.9}],
    "predictions": [{"method": "summation", "length": 1, "seconds": 1.05, "error": 0.05},
                    {"method": "coupling", "length": 2, "seconds": 0.98, "error": -0.02}]})");
  EXPECT_EQ(page.kind, Kind::couple);
  EXPECT_TRUE(page.says("sp (16): 1 kernels, 1 couplings, measured 1 s")) << page.summary();
  EXPECT_TRUE(page.says("closest predictor: coupling (chains of 2), error -2%")) << page.summary();
  EXPECT_EQ(count(page.html, "class=\"bar\""), 3u);  // two predictions and the measurement
  EXPECT_NE(page.html.find("x → y"), std::string::npos);
}

TEST(ReportPage, CacheKinds) {
  const Rendered sim = render(R"({"accesses": 20, "levels": [{"name": "l1", "size": 128, "assoc": 2, "line": 16,
    "miss_rate": 0.95, "compulsory": 16, "capacity": 1, "conflict": 2}]})");
  EXPECT_EQ(sim.kind, Kind::cache_sim);
  EXPECT_TRUE(sim.says("l1 (128 B, 2-way, lines of 16 B): miss rate 95% (16 compulsory, 1 capacity, 2 conflict)")) << sim.summary();
  EXPECT_EQ(count(sim.html, "<svg"), 2u);
  const Rendered curve = render(R"({"line": 64, "method": "exact", "accesses": 100, "points": [
    {"size": 64, "assoc": 1, "miss_rate": 0.5}, {"size": 128, "assoc": 1, "miss_rate": 0.25}]})");
  EXPECT_EQ(curve.kind, Kind::cache_curve);
  EXPECT_TRUE(curve.says("miss-rate curve by exact over 100 accesses, lines of 64 B: 2 cache sizes, miss rate 25% at 128 B")) << curve.summary();
  EXPECT_EQ(count(curve.html, "class=\"point\""), 2u);
  const Rendered predict = render(R"({"model": "m", "method": "stochastic", "levels": [{"name": "l1", "size": 1024,
    "assoc": 2, "line": 64, "miss_rate": 0.02}], "references": [{"id": 0, "statement": "write a[0]", "hit_probability": [0.98]}]})");
  EXPECT_EQ(predict.kind, Kind::cache_predict);
  EXPECT_TRUE(predict.says("l1 (1024 B, 2-way, lines of 64 B): miss rate 2%")) << predict.summary();
  EXPECT_NE(predict.html.find("write a[0]"), std::string::npos);
}

TEST(ReportPage, ActorsHierarchyAndManagers) {
  const Rendered actors = render(R"({"time": 10, "messages": 4, "sites": [{"site": 0, "utilization": 0.5},
    {"site": 1, "utilization": 0.25}], "links": [], "players": [{"name": "p", "site": 0}], "deadlock": []})");
  EXPECT_EQ(actors.kind, Kind::actors);
  EXPECT_TRUE(actors.says("site utilization: mean 38%, busiest 50%")) << actors.summary();  // (0.5 + 0.25) / 2
  const Rendered hierarchy = render(R"({"time": 110, "ideal_time": 100, "ratio": 1.1, "ratio_ci": [1.05, 1.15],
    "replications": 5, "source": "XP11", "levels": [{"level": 1, "utilization": 0.5, "occupancy_share": 0.2}],
    "processor_utilization": [0.5, 0.7]})");
  EXPECT_EQ(hierarchy.kind, Kind::hierarchy_simulate);
  EXPECT_TRUE(hierarchy.says("mean processor utilization 60%")) << hierarchy.summary();
  const Rendered sweep = render(R"({"levels": 2, "replications": 4, "points": [
    {"model": "XU20", "fanout": 4, "processors": 8, "time": {"mean": 11}, "ideal_time": {"mean": 10}, "ratio": {"mean": 1.1}, "ratio_ci": [1.0, 1.2]},
    {"model": "XU20", "fanout": 4, "processors": 16, "time": {"mean": 6}, "ideal_time": {"mean": 5}, "ratio": {"mean": 1.2}, "ratio_ci": [1.1, 1.3]}]})");
  EXPECT_EQ(sweep.kind, Kind::hierarchy_sweep);
  EXPECT_TRUE(sweep.says("farthest from the ideal: XU20, fanout 4 on 16 processors, ratio 1.2")) << sweep.summary();
  EXPECT_EQ(count(sweep.html, "class=\"error-bar\""), 2u);
  const Rendered manager = render(R"({"policy": "pdpa", "cpus": 8, "makespan": 10, "mean_response_time": 7,
    "utilization": 0.9, "mean_efficiency": 0.5, "jobs": [{"name": "a", "arrival": 0, "start": 1, "finish": 10,
    "allocations": [{"time": 1, "processors": 8}, {"time": 10, "processors": 0}]}]})");
  EXPECT_EQ(manager.kind, Kind::manager_simulate);
  EXPECT_TRUE(manager.says("policy pdpa on 8 processors: makespan 10, mean response time 7, utilization 90%, mean efficiency 50%"))
      << manager.summary();
  EXPECT_EQ(count(manager.html, "class=\"bar\""), 2u);  // waiting, then running
  const Rendered manage = render(R"({"policy": "equipartition", "cpus": 2, "makespan": 0.5, "mean_response_time": 0.25,
    "jobs": [{"command": ["swim", "128"], "pid": 5, "response_time": 0.25, "allocations": [{"time": 0, "processors": 2}]}],
    "log": [{"time": 0, "event": "joined"}]})");
  EXPECT_EQ(manage.kind, Kind::manage);
  EXPECT_TRUE(manage.says("policy equipartition on 2 processors: 1 programs, makespan 0.5 s, mean response time 0.25 s")) << manage.summary();
}

TEST(ReportPage, DatabaseTablesAndCouplings) {
  const Rendered page = render(R"({"augur_database": "perf.db", "tables": {"runs": [{"id": 1, "application": "toy"}],
    "couplings": [{"run_id": 1, "kernels": "a→b", "value": 0.875}, {"run_id": 2, "kernels": "a→b", "value": 0.9}]}})");
  EXPECT_EQ(page.kind, Kind::database);
  EXPECT_TRUE(page.says("performance database perf.db: 1 runs, 2 couplings")) << page.summary();
  EXPECT_EQ(count(page.html, "class=\"bar\""), 2u);
}

TEST(ReportPage, SeveralInputsMakeOnePage) {
  const Json fit = Json::parse(fit_json);
  const Page page = build_page({Input{"one.json", fit, Kind::fit}, Input{"two.json", fit, Kind::fit}});
  // The two models of main's time along P compared first (compare_test.cpp), then each input's part.
  ASSERT_EQ(page.summary.size(), 3u);
  EXPECT_EQ(page.summary[0], "main, time against P: one c[0] + c[1] * P (leave-one-out SMAPE 2.1%); two c[0] + c[1] * P (leave-one-out SMAPE 2.1%)");
  EXPECT_EQ(page.summary[1].rfind("one.json: ", 0), 0u);
  EXPECT_EQ(page.summary[2].rfind("two.json: ", 0), 0u);
}

TEST(ReportPage, TablesAreSortableAndTheScriptsReportTheirErrors) {
  const Rendered page = render(fit_json);
  EXPECT_NE(page.html.find("<table class=\"sortable\">"), std::string::npos);
  EXPECT_NE(page.html.find("data-script-error"), std::string::npos);
  EXPECT_NE(page.html.find("data-ready"), std::string::npos);
  EXPECT_EQ(page.html.find("http://"), page.html.find("http://www.w3.org/2000/svg"));  // nothing fetched
  EXPECT_EQ(page.html.find("https://"), std::string::npos);
}

TEST(ReportPage, AMissingFieldIsNamed) {
  try {
    (void)render(R"({"max_threads": 2, "points": [{"ts": 1.0}]})");
    FAIL() << "no error";
  } catch (const core::InputError& error) {
    EXPECT_STREQ(error.what(), "input.json: missing field points[0].p");
  }
  try {
    (void)render(R"({"max_threads": 2, "points": [{"p": "two"}]})");
    FAIL() << "no error";
  } catch (const core::InputError& error) {
    EXPECT_STREQ(error.what(), "input.json: points[0].p: expected a number");
  }
}

TEST(ReportPage, AnUnknownKindListsTheKnownOnes) {
  try {
    (void)render(R"({"something": 1})");
    FAIL() << "no error";
  } catch (const core::InputError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("input.json: none of the kinds augur report knows (use --kind to name one): self-analysis (", 0), 0u) << message;
    for (const KindName& kind : kinds()) EXPECT_NE(message.find(kind.name), std::string::npos) << kind.name;
  }
  EXPECT_EQ(kind_named("fit"), Kind::fit);
  EXPECT_EQ(kind_named("nothing"), std::nullopt);
}

}  // namespace
}  // namespace augur::report
