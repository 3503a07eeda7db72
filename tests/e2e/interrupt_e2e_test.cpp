// End-to-end tests of Ctrl-C in the long commands (docs/progress.md, "Ctrl-C"): each runs the built binary on
// work far too long to finish, waits for its first progress line (the signal handlers are installed by then),
// sends SIGINT and checks the exit status 130, the one line "augur COMMAND: interrupted" at the end of
// standard error, nothing on standard output and no file left in the output folder.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "e2e_child.hpp"
#include "e2e_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace augur::e2e;

// Starts augur with the arguments `arguments(out)` gives for an empty folder `out` (also its TMPDIR), waits
// for `started` on its standard error (a progress line), interrupts it, and checks what it left: `out` empty.
void expect_interrupted_cleanly(const std::string& label, const std::function<std::vector<std::string>(const std::string&)>& arguments,
                                const std::string& started) {
  const TemporaryDirectory directory;
  const fs::path out = directory.path() / "out";
  fs::create_directories(out);
  std::vector<std::string> argv = arguments(out.string());
  argv.insert(argv.begin(), AUGUR_EXE);
  const fs::path standard_output = directory.path() / "stdout.txt";
  const fs::path standard_error = directory.path() / "stderr.txt";
  Child child(argv, {{"TMPDIR", out.string()}, {"OMP_NUM_THREADS", "1"}}, standard_output, standard_error);
  ASSERT_TRUE(wait_until([&] { return contains(read_text(standard_error), started); }))
      << "augur " << label << " wrote no progress in 2 minutes:\n" << read_text(standard_error);
  ASSERT_FALSE(child.wait(WNOHANG).has_value()) << "augur " << label << " ended: give it more work\n" << read_text(standard_error);
  EXPECT_EQ(exit_status_after_sigint(child), 130);
  const std::string error = read_text(standard_error);
  EXPECT_TRUE(error.ends_with("\naugur " + label + ": interrupted\n")) << error;
  EXPECT_EQ(read_text(standard_output), "");
  EXPECT_TRUE(fs::is_empty(out)) << "augur " << label << " left a file in " << out;
}

TEST(InterruptE2e, HierarchySweepStopsItsThreadsAndPrintsNothing) {
  // 10000 points of growing size, 20 replications each, on two threads: minutes of work; the first point
  // takes milliseconds.
  expect_interrupted_cleanly(
      "hierarchy sweep",
      [](const std::string&) {
        return std::vector<std::string>{"hierarchy", "sweep", "--model", "UU20", "--fanout", "2", "--processors", "4:40000:+4",
                                        "--replications", "20", "--threads", "2", "--progress"};
      },
      "augur hierarchy sweep: [");
}

TEST(InterruptE2e, HierarchySimulateLeavesNoTrace) {
  expect_interrupted_cleanly(
      "hierarchy simulate",
      [](const std::string& out) {
        return std::vector<std::string>{"hierarchy", "simulate", "--model", "UU20", "--levels", "2", "--fanout", "8", "--processors", "64",
                                        "--replications", "1000000", "--threads", "2", "--trace", out + "/trace.json", "--progress"};
      },
      "augur hierarchy simulate: [");
}

TEST(InterruptE2e, ActorsSearchStopsItsThreadsAndWritesNoMapping) {
  // A hundred million random layouts of the stencil on 64 sites: hours; the first line comes after 10000.
  expect_interrupted_cleanly(
      "actors search",
      [](const std::string& out) {
        const std::string examples = examples_of("actors");
        return std::vector<std::string>{"actors", "search", examples + "stencil.actors", "--machine", examples + "mesh8x8.machine",
                                        "--method", "random", "--budget", "100000000", "--threads", "2",
                                        "--write-mapping", out + "/best.map", "--progress"};
      },
      "augur actors search: 10000 simulations");
}

// The harness inside the program reports its rounds to augur's bar; Ctrl-C reaches the program (augur passes
// it on), and augur's temporary folder (in TMPDIR) goes, the rounds' file with it.
TEST(InterruptE2e, CoupleMeasureKillsTheProgramAndRemovesItsTemporaryFolder) {
  expect_interrupted_cleanly(
      "couple measure",
      [](const std::string&) {
        return std::vector<std::string>{"couple", "measure", "--progress", "--no-db", "--chains", "none", "--min-time", "0.002", "--samples", "10000",
                                        "--application-samples", "1", "--", AUGUR_SP_EXE, "--measure", "--size", "8", "--iterations", "3"};
      },
      "augur couple measure: [");
}

// A search over many series (docs/progress.md): Ctrl-C stops it at its next hypothesis; no table, no JSON file.
TEST(InterruptE2e, FitStopsItsSearchAndWritesNothing) {
  const TemporaryDirectory data;
  std::string csv = "region,N,P,time\n";
  for (int region = 0; region < 20000; ++region) {  // 20000 series of 25 points: minutes of searching
    for (const double n : {1024.0, 2048.0, 4096.0, 8192.0, 16384.0}) {
      for (const double p : {1.0, 2.0, 4.0, 8.0, 16.0}) {
        const double time = (1.0 + region % 7) * n * std::log2(n) / p * 1e-6 + 0.001 * p;
        csv += "r" + std::to_string(region) + "," + std::to_string(static_cast<int>(n)) + "," + std::to_string(static_cast<int>(p)) + "," +
               std::to_string(time) + "\n";
      }
    }
  }
  const std::string file = data.write("many.csv", csv);
  expect_interrupted_cleanly(
      "fit",
      [&file](const std::string& out) {
        return std::vector<std::string>{"fit", file, "--progress", "--json=" + out + "/models.json"};
      },
      "augur fit: [");
}

}  // namespace
