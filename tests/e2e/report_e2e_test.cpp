// End-to-end tests of augur report (docs/report.md): each kind of JSON the real binary writes (and a
// performance database) made into a page, which headless Chromium then loads: no script error, the scripts
// ran to their end, the charts are there (counted in the DOM after the scripts ran), a screenshot is taken.
// Also the errors: not JSON (file:line:col), an unknown kind, a missing field, nothing half-written, never
// over an input. Chromium is Debian's chromium (scripts/setup.sh); without it the test fails, unless
// AUGUR_NO_CHROMIUM is set, when the Chromium part is skipped.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
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
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;
const std::string examples = AUGUR_EXAMPLES_DIR;

ProcessResult augur(Arguments arguments, const ProcessOptions& options = {}) {
  arguments.insert(arguments.begin(), augur_exe);
  return run_process(arguments, options);
}

// One kind of input: how the real binary makes it, and the charts its page must show at least.
struct Kind {
  std::string name;
  Arguments command;  // its standard output is the JSON, unless `file` names what it writes
  std::size_t charts;
  std::string file;
  std::vector<std::pair<std::string, std::string>> environment;
};

std::vector<Kind> kinds(const fs::path& folder) {
  const std::string formula = "fft[0] + fft[1]*log(P) + fft[2]*(N/P)*log(N/P) + fft[3]*N*(P-1)/P";
  const std::string swim = AUGUR_SWIM_EXE, swim_plain = AUGUR_SWIM_PLAIN_EXE;
  const std::string self = (folder / "self.json").string(), run = (folder / "run.json").string(), manage = (folder / "manage.json").string();
  return {
      {"fit", {"fit", examples + "/model/fft_t3e.csv", "--formula", formula, "--json"}, 1, "", {}},
      {"fit-segments", {"fit", examples + "/model/fft_t3e.csv", "--formula", "c[0]/P", "--segments", "auto", "--json"}, 1, "", {}},
      {"predict", {"predict", examples + "/model/fft_t3e.csv", "--formula", formula, "--at", "N=2097152", "--grid", "P=1:128:*2", "--json"}, 1, "", {}},
      {"tspp", {"tspp", examples + "/tspp/figure11.tspp", "--json"}, 2, "", {}},
      {"sim", {"sim", examples + "/tspp/figure11.tspp", "--replications", "100", "--seed", "1", "-q", "--json"}, 2, "", {}},
      {"couple", {"couple", "report", examples + "/sp/sp-16.coupling.jsonl", "--json"}, 1, "", {}},
      {"cache-sim", {"cache", "sim", examples + "/cache/small.augur", "--cache", "l1:size=128,assoc=2,line=16", "--cache",
                     "l2:size=512,assoc=4,line=32", "--json"}, 2, "", {}},
      {"cache-curve", {"cache", "curve", examples + "/cache/transpose.lackey", "--method", "statstack", "--sample", "0.05", "--seed", "3", "--json"}, 1, "", {}},
      {"cache-predict", {"cache", "predict", examples + "/cache/ab_arms.model", "--cache", "l1:size=1K,assoc=2,line=64", "--json"}, 1, "", {}},
      {"actors", {"actors", "simulate", examples + "/actors/stencil.actors", "--machine", examples + "/actors/mesh4x4.machine", "--set", "n=3",
                  "--set", "steps=2", "--json"}, 1, "", {}},
      {"hierarchy-simulate", {"hierarchy", "simulate", "--machine", examples + "/hierarchy/two_level.machine", "--model", "XP11",
                              "--replications", "3", "--json", "-q"}, 2, "", {}},
      {"hierarchy-sweep", {"hierarchy", "sweep", "--model", "XU20,XP11", "--fanout", "4", "--processors", "8:32:*2", "--replications", "3",
                           "--json", "-q"}, 1, "", {}},
      {"manager-simulate", {"manager", "simulate", examples + "/manager/measured.workload", "--cpus", "8", "--policy", "pdpa-lend",
                            "--quantum", "2", "--json"}, 2, "", {}},
      {"speedup", {"speedup", "--max-threads", "2", "--repeat", "1", "-q", "--json", "--", swim, "64", "100"}, 2, "", {}},
      {"self-analysis", {}, 1, self, {}},  // libaugur's report of swim itself (make_input)
      {"run", {"run", "-p", "2", "--baseline", "1", "--iterations", "100", "--json=" + run, "--", swim_plain, "64", "100"}, 1, run, {}},
      {"manage", {"manage", "-q", "--cpus", "2", "--policy", "equipartition", "--quantum", "50", "--json=" + manage, "--", swim, "64", "200",
                  ":::", swim, "48", "200"}, 1, manage, {{"AUGUR_SUMMARY", "0"}}},
  };
}

// The JSON of a kind, written to FOLDER/NAME.json; returns its path.
std::string make_input(const Kind& kind, const fs::path& folder) {
  const std::string path = kind.file.empty() ? (folder / (kind.name + ".json")).string() : kind.file;
  if (kind.name == "self-analysis") {
    ProcessOptions options;
    options.environment = {{"AUGUR_REPORT", path}, {"OMP_NUM_THREADS", "2"}, {"AUGUR_SUMMARY", "0"}};
    const ProcessResult result = run_process({AUGUR_SWIM_EXE, "64", "100"}, options);
    EXPECT_EQ(result.exit_code, 0) << describe(result);
    return path;
  }
  ProcessOptions options;
  options.environment = kind.environment;
  options.environment.emplace_back("OMP_NUM_THREADS", "2");
  const ProcessResult result = augur(kind.command, options);
  EXPECT_EQ(result.exit_code, 0) << kind.name << ": " << describe(result);
  if (kind.file.empty()) write_text(path, result.standard_output);
  return path;
}

TEST(ReportE2e, EveryKindMakesAPageThatChromiumLoadsWithItsCharts) {
  const std::string browser = chromium();
  const bool skip_browser = browser.empty() && std::getenv("AUGUR_NO_CHROMIUM") != nullptr;
  ASSERT_TRUE(!browser.empty() || skip_browser)
      << "chromium is not installed: scripts/setup.sh installs it (apt-get install chromium); "
         "set AUGUR_NO_CHROMIUM=1 to skip the browser part of this test";
  TemporaryDirectory folder("augur-report");
  std::vector<Kind> all = kinds(folder.path());
  // The performance database: two runs added by augur db.
  const std::string database = (folder.path() / "perf.db").string();
  const ProcessResult added = augur({"db", "add", "--db", database, examples + "/db/toy-S.coupling.jsonl", examples + "/db/toy-M.coupling.jsonl"});
  ASSERT_EQ(added.exit_code, 0) << describe(added);
  std::vector<std::pair<Kind, std::string>> inputs;
  for (const Kind& kind : all) inputs.emplace_back(kind, make_input(kind, folder.path()));
  inputs.emplace_back(Kind{"db", {}, 1, database, {}}, database);
  for (const auto& [kind, input] : inputs) {
    SCOPED_TRACE(kind.name);
    const fs::path page = folder.path() / (kind.name + ".html");
    const ProcessResult made = augur({"report", input, "-o", page.string(), "--json"});
    ASSERT_EQ(made.exit_code, 0) << describe(made);
    const std::string detected = kind.name == "fit-segments" ? "fit" : kind.name;
    EXPECT_TRUE(contains(made.standard_output, "\"kind\": \"" + detected + "\"")) << made.standard_output;
    const std::string html = read_text(page);
    EXPECT_GE(count(html, "<svg"), kind.charts);
    if (skip_browser) continue;
    const std::string dom = check_in_chromium(page);  // no script error, every chart and table in the DOM, a screenshot
    EXPECT_GE(count(dom, "<svg"), kind.charts);
  }
}

TEST(ReportE2e, SortingATableInChromiumReordersItsRows) {
  const std::string browser = chromium();
  if (browser.empty() && std::getenv("AUGUR_NO_CHROMIUM") != nullptr) GTEST_SKIP() << "AUGUR_NO_CHROMIUM is set";
  ASSERT_FALSE(browser.empty()) << "chromium is not installed: scripts/setup.sh installs it";
  TemporaryDirectory folder("augur-report");
  // A tspp page whose task table is then sorted by its "end" column, descending, by a click in the page.
  const ProcessResult tspp = augur({"tspp", "--method", "mak-lundstrom", examples + "/tspp/figure11.tspp", "--json"});
  ASSERT_EQ(tspp.exit_code, 0) << describe(tspp);
  write_text(folder.path() / "tspp.json", tspp.standard_output);
  const fs::path page = folder.path() / "tspp.html";
  ASSERT_EQ(augur({"report", (folder.path() / "tspp.json").string(), "-o", page.string()}).exit_code, 0);
  std::string html = read_text(page);
  const std::string click = "<script>var h=document.querySelectorAll(\"table.sortable\")[0].querySelectorAll(\"th\")[3];h.click();h.click();"
                            "var c=document.querySelectorAll(\"table.sortable\")[0].tBodies[0].rows;"
                            "document.body.setAttribute(\"data-order\",Array.prototype.map.call(c,function(r){return r.cells[0].textContent}).join(\",\"));</script>";
  html.insert(html.rfind("</body>"), click);
  write_text(page, html);
  const Loaded loaded = load(browser, page, folder.path() / "sorted.png");
  // figure11's ends (augur tspp examples/tspp/figure11.tspp): task-3 last (4.828), then task-5 and task-6 (4.162),
  // task-4 (2.458), task-1 and task-2 (1.825).
  EXPECT_TRUE(contains(loaded.dump.standard_output, "data-order=\"task-3,task-5,task-6,task-4,task-1,task-2\"")) << loaded.dump.standard_output.substr(0, 300);
}

TEST(ReportE2e, BadInputsAreClearErrorsAndNothingIsWritten) {
  TemporaryDirectory folder("augur-report");
  const fs::path page = folder.path() / "page.html";
  const fs::path broken = folder.path() / "broken.json";
  write_text(broken, "{\n  \"points\": [1, 2,\n}\n");
  ProcessResult result = augur({"report", broken.string(), "-o", page.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.standard_error, broken.string() + ":3:1: not JSON (a syntax error here)\n");
  EXPECT_FALSE(fs::exists(page));

  const fs::path unknown = folder.path() / "unknown.json";
  write_text(unknown, "{\"hello\": 1}\n");
  result = augur({"report", unknown.string(), "-o", page.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(starts_with(result.standard_error, unknown.string() + ": none of the kinds augur report knows (use --kind to name one): "
                                                 "self-analysis (libaugur's report, AUGUR_REPORT), run (augur run --json)"))
      << result.standard_error;
  EXPECT_FALSE(fs::exists(page));

  const fs::path missing = folder.path() / "missing.json";
  write_text(missing, "{\"max_threads\": 2, \"points\": [{\"p\": 1, \"ts\": 1}, {\"ts\": 1.5}]}\n");
  result = augur({"report", missing.string(), "-o", page.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.standard_error, missing.string() + ": missing field points[1].p\n");
  EXPECT_FALSE(fs::exists(page));

  // A good input before a bad one: still nothing written.
  const ProcessResult tspp = augur({"tspp", "--method", "mak-lundstrom", examples + "/tspp/figure11.tspp", "--json"});
  const fs::path good = folder.path() / "good.json";
  write_text(good, tspp.standard_output);
  result = augur({"report", good.string(), missing.string(), "-o", page.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_FALSE(fs::exists(page));

  result = augur({"report", good.string(), "--kind", "fit", "-o", page.string()});  // forced, and wrong
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.standard_error, good.string() + ": missing field models\n");
  result = augur({"report", good.string(), "--kind", "nonsense", "-o", page.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(starts_with(result.standard_error, "--kind: unknown kind 'nonsense'; known: self-analysis")) << result.standard_error;

  // Never over an input; the page is refused before any work.
  const std::string before = read_text(good);
  result = augur({"report", good.string(), "-o", good.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(contains(result.standard_error, "is the input")) << result.standard_error;
  EXPECT_EQ(read_text(good), before);

  // Standard input needs a page's name: a usage error.
  result = augur({"report", "-"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(contains(result.standard_error, "-o")) << result.standard_error;
}

TEST(ReportE2e, TheDefaultPageIsTheFirstInputsNameInTheCurrentFolder) {
  TemporaryDirectory folder("augur-report");
  const ProcessResult tspp = augur({"tspp", "--method", "mak-lundstrom", examples + "/tspp/figure11.tspp", "--json"});
  write_text(folder.path() / "figure.json", tspp.standard_output);
  const ProcessResult result = run_process({"sh", "-c", "cd '" + folder.path().string() + "' && '" + augur_exe + "' report figure.json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "page: figure.html")) << result.standard_output;
  EXPECT_TRUE(contains(read_text(folder.path() / "figure.html"), "completion time 6.393"));
}

}  // namespace
