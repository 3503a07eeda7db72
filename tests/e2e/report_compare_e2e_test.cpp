// End-to-end tests of the parts of augur report's page that join or draw more (docs/report.md): two speedups
// and two fits on one chart each (--label), the predictions of a performance database against augur couple
// predict, and the timelines of augur sim --trace and augur run --trace, bounded past 2000 slices; each page
// loaded in headless Chromium (report_support.hpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"
#include "report_support.hpp"

namespace {

using namespace augur::e2e;
namespace fs = std::filesystem;
using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using augur::core::run_process;
using Json = nlohmann::json;

const std::string examples = AUGUR_EXAMPLES_DIR;

ProcessResult augur(Arguments arguments) {
  arguments.insert(arguments.begin(), AUGUR_EXE);
  ProcessOptions options;
  options.environment = {{"OMP_NUM_THREADS", "2"}, {"AUGUR_SUMMARY", "0"}};
  return run_process(arguments, options);
}

// The standard output of a command that must succeed, written to `file`.
void write_output(const Arguments& command, const fs::path& file) {
  const ProcessResult result = augur(command);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  write_text(file, result.standard_output);
}

// The first <svg> element of a page.
std::string first_chart(const std::string& html) {
  const std::size_t at = html.find("<svg");
  return at == std::string::npos ? "" : html.substr(at, html.find("</svg>", at) - at);
}

std::size_t complete_slices(const fs::path& trace) {
  std::size_t slices = 0;
  const Json document = Json::parse(read_text(trace));
  for (const Json& event : document.at("traceEvents")) {
    if (event.value("ph", std::string()) == "X") ++slices;
  }
  return slices;
}

TEST(ReportE2e, TwoSpeedupsAndTwoFitsAreComparedOnOneChartEach) {
  TemporaryDirectory folder("augur-report-compare");
  const fs::path a = folder.path() / "a.json", b = folder.path() / "b.json", page = folder.path() / "speedups.html";
  for (const fs::path& file : {a, b}) {
    write_output({"speedup", "--max-threads", "2", "--repeat", "1", "-q", "--json", "--", AUGUR_SWIM_EXE, "64", "100"}, file);
  }
  // A label before the inputs takes one name: the inputs stay inputs.
  ProcessResult made = augur({"report", "--label", "build <A>", "--label", "build B", a.string(), b.string(), "-o", page.string()});
  ASSERT_EQ(made.exit_code, 0) << describe(made);
  std::string html = read_text(page);
  EXPECT_TRUE(contains(html, "<h2>Speedups compared: build &lt;A&gt; and build B</h2>")) << html.substr(0, 2000);
  const std::string chart = first_chart(html);
  for (const char* name : {">build &lt;A&gt;: TS</text>", ">build B: TS</text>", ">build B: SA(N exec)</text>"}) {
    EXPECT_EQ(count(chart, name), 1u) << name;
  }
  // TS on 1 and 2 threads of each input at least, each a circle, in the file and in the page as loaded.
  const std::size_t points = count(chart, "class=\"point\"");
  EXPECT_GE(points, 4u);
  EXPECT_EQ(count(html, "<svg"), 5u);  // the comparison, then each input's speedup and times
  std::string dom = check_in_chromium(page);
  if (!dom.empty()) {
    EXPECT_EQ(count(first_chart(dom), "class=\"point\""), points);
  }

  // Two fits of the seed's Table 1 along P: formula (11) and c[0]/P in segments.
  const fs::path fit = folder.path() / "fit.json", segments = folder.path() / "segments.json", fits = folder.path() / "fits.html";
  const std::string formula = "fft[0] + fft[1]*log(P) + fft[2]*(N/P)*log(N/P) + fft[3]*N*(P-1)/P";
  write_output({"fit", examples + "/model/fft_t3e.csv", "--formula", formula, "--json"}, fit);
  write_output({"fit", examples + "/model/fft_t3e.csv", "--formula", "c[0]/P", "--segments", "auto", "--json"}, segments);
  made = augur({"report", fit.string(), segments.string(), "-o", fits.string()});
  ASSERT_EQ(made.exit_code, 0) << describe(made);
  html = read_text(fits);
  EXPECT_TRUE(contains(html, "<h2>Models compared: main, time (fit and segments)</h2>")) << html.substr(0, 2000);
  EXPECT_EQ(count(first_chart(html), ": model "), 2u + 2u);  // each model's legend entry and its line's tooltip
  EXPECT_EQ(count(first_chart(html), ">fit: measurements</text>") + count(first_chart(html), ">segments: measurements</text>"), 2u);
  dom = check_in_chromium(fits);

  // More labels than inputs: a usage error, nothing written.
  const fs::path refused = folder.path() / "refused.html";
  made = augur({"report", a.string(), "--label", "x", "--label", "y", "-o", refused.string()});
  EXPECT_EQ(made.exit_code, 2) << describe(made);
  EXPECT_TRUE(contains(made.standard_error, "--label: 2 labels for 1 inputs")) << made.standard_error;
  EXPECT_FALSE(fs::exists(refused));
}

TEST(ReportE2e, TheDatabasePagePredictsEachRunAsCouplePredictDoes) {
  TemporaryDirectory folder("augur-report-db");
  const std::string database = (folder.path() / "perf.db").string();
  const ProcessResult added = augur({"db", "add", "--db", database, examples + "/db/toy-S.coupling.jsonl", examples + "/db/toy-M.coupling.jsonl"});
  ASSERT_EQ(added.exit_code, 0) << describe(added);
  const fs::path page = folder.path() / "db.html";
  const ProcessResult made = augur({"report", database, "-o", page.string()});
  ASSERT_EQ(made.exit_code, 0) << describe(made);
  const std::string html = read_text(page);
  EXPECT_TRUE(contains(html, "Predictions: each stored run from the coupling values of the others"));
  for (const int run : {1, 2}) {
    SCOPED_TRACE("run " + std::to_string(run));
    const ProcessResult predicted = augur({"couple", "predict", "--target-run", std::to_string(run), "--db", database, "--json"});
    ASSERT_EQ(predicted.exit_code, 0) << describe(predicted);
    const Json prediction = Json::parse(predicted.standard_output);
    ASSERT_FALSE(prediction.at("reuse").empty());
    // The page's row holds the same predicted seconds (the sort key is the number to 17 digits).
    char key[64];
    std::snprintf(key, sizeof key, "data-sort=\"%.17g\"", prediction.at("reuse").at(0).at("seconds").get<double>());
    const std::size_t row = html.find("<td>run " + std::to_string(run) + "</td><td>toy</td>");
    ASSERT_NE(row, std::string::npos);
    EXPECT_NE(html.substr(row, html.find("</tr>", row) - row).find(key), std::string::npos) << key;
  }
  // The chart of predicted against measured: the diagonal and a point per predictor of each measured run.
  EXPECT_TRUE(contains(html, "Predicted against measured time of the application"));
  check_in_chromium(page);
}

TEST(ReportE2e, TracesOfSimAndRunAreDrawnAsTimelines) {
  TemporaryDirectory folder("augur-report-trace");
  // augur sim: one row per resource (and lane), a bar per service.
  const fs::path sim = folder.path() / "sim_trace.json", sim_page = folder.path() / "sim_trace.html";
  ProcessResult result = augur({"sim", examples + "/tspp/figure11.tspp", "--replications", "2", "--seed", "1", "-q", "--trace", sim.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  result = augur({"report", sim.string(), "-o", sim_page.string(), "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "\"kind\": \"trace\"")) << result.standard_output;
  std::string html = read_text(sim_page);
  const std::size_t services = complete_slices(sim);
  ASSERT_GT(services, 0u);
  EXPECT_EQ(count(html, "<rect class=\"slice\""), services);
  std::string dom = check_in_chromium(sim_page);
  if (!dom.empty()) {
    EXPECT_EQ(count(dom, "<rect class=\"slice\""), services);
  }

  // augur run --trace: the phases on their track, the threads' regions and iterations.
  const fs::path run = folder.path() / "run_trace.json", run_page = folder.path() / "run_trace.html";
  result = augur({"run", "-p", "2", "--baseline", "1", "--iterations", "100", "--trace", run.string(), "--", AUGUR_SWIM_PLAIN_EXE, "64", "100"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  result = augur({"report", run.string(), "-o", run_page.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  html = read_text(run_page);
  const std::size_t slices = complete_slices(run);
  ASSERT_GT(slices, 0u);
  if (slices <= 2000) {
    EXPECT_EQ(count(html, "<rect class=\"slice\""), slices);
  }
  EXPECT_TRUE(contains(html, ">phase allocated</text>")) << "the allocated phase is not in the legend";
  check_in_chromium(run_page);

  // A long simulation: past 2000 slices the timeline merges, says so, and stays small.
  const fs::path big = folder.path() / "big_trace.json", big_page = folder.path() / "big_trace.html";
  result = augur({"sim", examples + "/tspp/figure11.tspp", "-V", "2000", "--replications", "1", "--seed", "1", "-q", "--trace", big.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  ASSERT_GT(complete_slices(big), 2000u);
  result = augur({"report", big.string(), "-o", big_page.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  html = read_text(big_page);
  EXPECT_LE(count(html, "<rect class=\"slice"), 2000u);
  EXPECT_TRUE(contains(html, std::to_string(complete_slices(big)) + " slices drawn as ")) << "no note of the merge";
  dom = check_in_chromium(big_page);
  if (!dom.empty()) {
    EXPECT_LE(count(dom, "<rect class=\"slice"), 2000u);
  }
}

}  // namespace
