// augur couple end to end: the real SP mini-application measured through the coupling harness,
// reported, stored in a performance database, reused for another size (isocoupling), transitions;
// and the errors a user can make. Tiny settings: the figures are for bench/ and docs/couple.md.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using augur::core::run_process;
using augur::e2e::contains;
using augur::e2e::describe;
using augur::e2e::TemporaryDirectory;
using Json = nlohmann::json;

ProcessOptions one_thread() {
  ProcessOptions options;
  options.environment = {{"OMP_NUM_THREADS", "1"}};
  options.unset = {"AUGUR_DB", "AUGUR_COUPLING_OUTPUT", "AUGUR_COUPLING_MIN_TIME", "AUGUR_COUPLING_SAMPLES",
                   "AUGUR_COUPLING_CHAINS", "AUGUR_COUPLING_WARMUP", "AUGUR_COUPLING_APPLICATION_SAMPLES"};
  return options;
}

// augur couple measure of sp at `size`, fast settings, into the database `db`, extra options before "--".
ProcessResult measure(const std::string& db, int size, const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {AUGUR_EXE, "couple", "measure", "-q", "--db", db, "--min-time", "0.002",
                                   "--samples", "3", "--application-samples", "2"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const std::vector<std::string> program = {"--", AUGUR_SP_EXE, "--measure", "--size", std::to_string(size),
                                            "--iterations", "5"};
  argv.insert(argv.end(), program.begin(), program.end());
  return run_process(argv, one_thread());
}

const std::vector<std::string> kKernels = {"copy_faces", "txinvr", "x_solve", "y_solve", "z_solve", "add"};

TEST(CoupleE2e, MeasuresSpReportsStoresAndReusesAcrossSizes) {
  TemporaryDirectory folder;
  // Size 8, every chain: the table, the file, the database.
  const ProcessResult small = measure(folder.file("perf.db"), 8, {"--save", folder.file("sp-8.jsonl")});
  ASSERT_TRUE(small.succeeded()) << describe(small);
  for (const std::string& kernel : kKernels) EXPECT_TRUE(contains(small.standard_output, kernel)) << kernel;
  EXPECT_TRUE(contains(small.standard_output, "summation")) << small.standard_output;
  EXPECT_TRUE(contains(small.standard_output, "coupling, k=5 *")) << small.standard_output;
  EXPECT_TRUE(contains(small.standard_output, "copy_faces→txinvr→x_solve→y_solve→z_solve"));
  EXPECT_TRUE(contains(small.standard_error, "stored as run 1")) << small.standard_error;

  // The JSON report of the saved file: 6 kernels, 24 chains, summation + k = 2..5, and T = Σ α N P.
  const ProcessResult report =
      run_process({AUGUR_EXE, "couple", "report", "--json", "--length", "3", folder.file("sp-8.jsonl")});
  ASSERT_TRUE(report.succeeded()) << describe(report);
  const Json out = Json::parse(report.standard_output);
  ASSERT_EQ(out["kernels"].size(), 6U);
  EXPECT_EQ(out["couplings"].size(), 24U);
  ASSERT_EQ(out["predictions"].size(), 5U);
  EXPECT_EQ(out["run"]["processors"], 1);
  EXPECT_TRUE(out["widest_interval"]["relative_width"].is_number());
  EXPECT_TRUE(out["widest_interval"]["noisy"].is_boolean());
  double predicted = 0;
  for (const Json& kernel : out["kernels"]) {
    predicted += kernel["alpha"].get<double>() * kernel["invocations"].get<double>() * kernel["alone"]["seconds"].get<double>();
  }
  const Json& k3 = out["predictions"][2];
  ASSERT_EQ(k3["length"], 3);
  EXPECT_NEAR(k3["seconds"].get<double>(), predicted, 1e-9 * predicted);
  const double measured = out["measured"]["seconds"].get<double>();
  EXPECT_NEAR(k3["error"].get<double>(), (predicted - measured) / measured, 1e-9);

  // Size 10, kernels alone only: the target of isocoupling, predicted from run 1's coupling values.
  const ProcessResult target = measure(folder.file("perf.db"), 10, {"--chains", "none"});
  ASSERT_TRUE(target.succeeded()) << describe(target);
  EXPECT_TRUE(contains(target.standard_output, "only the summation predictor")) << target.standard_output;
  const ProcessResult reuse = run_process(
      {AUGUR_EXE, "couple", "predict", "--db", folder.file("perf.db"), "--target-run", "2", "--json"});
  ASSERT_TRUE(reuse.succeeded()) << describe(reuse);
  const Json reused = Json::parse(reuse.standard_output);
  ASSERT_EQ(reused["reuse"].size(), 1U);
  EXPECT_EQ(reused["reuse"][0]["from"], "run 1");
  EXPECT_TRUE(reused["reuse"][0]["chosen"].get<bool>());
  EXPECT_TRUE(reused["reuse"][0]["same_class"].get<bool>());
  EXPECT_TRUE(reused["own"].is_null());
  EXPECT_GT(reused["reuse"][0]["seconds"].get<double>(), 0);
  const ProcessResult table =
      run_process({AUGUR_EXE, "couple", "predict", "--db", folder.file("perf.db"), "--target-run", "2"});
  ASSERT_TRUE(table.succeeded()) << describe(table);
  EXPECT_TRUE(contains(table.standard_output, "chosen (*): run 1, the same machine class")) << table.standard_output;

  // The stored runs, listed and followed along size.
  const ProcessResult list = run_process({AUGUR_EXE, "db", "list", "--db", folder.file("perf.db")});
  ASSERT_TRUE(list.succeeded()) << describe(list);
  EXPECT_TRUE(contains(list.standard_output, "(2 runs in")) << list.standard_output;
  const ProcessResult again = measure(folder.file("perf.db"), 10, {"--chains", "5"});
  ASSERT_TRUE(again.succeeded()) << describe(again);
  const ProcessResult reuse_all =
      run_process({AUGUR_EXE, "couple", "reuse", "--db", folder.file("perf.db"), "--application", "sp", "--json"});
  ASSERT_TRUE(reuse_all.succeeded()) << describe(reuse_all);
  const Json every = Json::parse(reuse_all.standard_output);
  ASSERT_EQ(every["runs"].size(), 3U);
  EXPECT_EQ(every["runs"][1]["nearest"], "run 1");  // size 10: run 3, size 10 again, is a repeat, not a reuse
  const ProcessResult transitions = run_process(
      {AUGUR_EXE, "couple", "transitions", "--db", folder.file("perf.db"), "--application", "sp", "--json"});
  ASSERT_TRUE(transitions.succeeded()) << describe(transitions);
  const Json follow = Json::parse(transitions.standard_output);
  EXPECT_EQ(follow["length"], 5);
  ASSERT_EQ(follow["runs"].size(), 3U);
  EXPECT_TRUE(follow["runs"][0]["mean_coupling"].is_number());  // size 8
}

// With --progress, augur couple measure draws the harness's rounds as its own progress lines (the harness
// prints none of its own), and never the path of its temporary measurement file (read back and removed);
// without it, in a pipe, it is quiet. The program run by itself with progress names the file it wrote.
TEST(CoupleE2e, ProgressShowsTheRoundsAndNamesNoTemporaryFile) {
  TemporaryDirectory folder;
  const std::vector<std::string> arguments = {"--no-db", "--chains", "none", "--min-time", "0.002", "--samples", "2",
                                              "--application-samples", "1", "--", AUGUR_SP_EXE, "--measure", "--size", "8", "--iterations", "3"};
  std::vector<std::string> forced = {AUGUR_EXE, "couple", "measure", "--progress"};
  forced.insert(forced.end(), arguments.begin(), arguments.end());
  const ProcessResult measured = run_process(forced, one_thread());
  ASSERT_TRUE(measured.succeeded()) << describe(measured);
  EXPECT_TRUE(contains(measured.standard_error, "augur couple measure: [####################] 100% 2/2 rounds, ETA 0:00\n"))
      << describe(measured);
  EXPECT_FALSE(contains(measured.standard_error, "augur: coupling: round")) << describe(measured);
  EXPECT_FALSE(contains(measured.standard_error, "written to")) << describe(measured);
  EXPECT_FALSE(contains(measured.standard_error, "augur-couple")) << describe(measured);

  std::vector<std::string> piped = {AUGUR_EXE, "couple", "measure"};
  piped.insert(piped.end(), arguments.begin(), arguments.end());
  const ProcessResult quiet = run_process(piped, one_thread());
  ASSERT_TRUE(quiet.succeeded()) << describe(quiet);
  EXPECT_FALSE(contains(quiet.standard_error, "round")) << describe(quiet);

  ProcessOptions alone = one_thread();
  const std::string file = folder.file("sp.coupling.jsonl");
  alone.environment.insert(alone.environment.end(), {{"AUGUR_COUPLING_OUTPUT", file}, {"AUGUR_COUPLING_PROGRESS", "1"},
                                                     {"AUGUR_COUPLING_CHAINS", "none"}, {"AUGUR_COUPLING_MIN_TIME", "0.002"},
                                                     {"AUGUR_COUPLING_SAMPLES", "2"}});
  const ProcessResult itself = run_process({AUGUR_SP_EXE, "--measure", "--size", "8", "--iterations", "3"}, alone);
  ASSERT_TRUE(itself.succeeded()) << describe(itself);
  EXPECT_TRUE(contains(itself.standard_error, "augur: coupling measurements written to " + file + "\n")) << describe(itself);
}

TEST(CoupleE2e, ProgramsThatCannotBeMeasuredAreNamed) {
  TemporaryDirectory folder;
  const ProcessResult missing =
      run_process({AUGUR_EXE, "couple", "measure", "--no-db", "--", folder.file("no-such-program")});
  EXPECT_EQ(missing.exit_code, 2) << describe(missing);
  EXPECT_TRUE(contains(missing.standard_error, "no such program")) << missing.standard_error;
  // A program that never calls the harness.
  const ProcessResult plain = run_process({AUGUR_EXE, "couple", "measure", "--no-db", "--", "true"});
  EXPECT_EQ(plain.exit_code, 1) << describe(plain);
  EXPECT_TRUE(contains(plain.standard_error, "wrote no measurement file")) << plain.standard_error;
  // A program that fails: its status is passed on, nothing is stored.
  const ProcessResult failing = run_process({AUGUR_EXE, "couple", "measure", "--db", folder.file("perf.db"), "--",
                                             AUGUR_SP_EXE, "--measure", "--size", "0"},
                                            one_thread());
  EXPECT_EQ(failing.exit_code, 2) << describe(failing);
  EXPECT_TRUE(contains(failing.standard_error, "nothing measured")) << failing.standard_error;
  EXPECT_FALSE(std::filesystem::exists(folder.file("perf.db")));
}

TEST(CoupleE2e, BadFilesAndRequestsAreErrorsWithTheirPlace) {
  TemporaryDirectory folder;
  const std::string bad = folder.write(
      "bad.jsonl",
      "{\"record\":\"run\",\"format\":\"augur-coupling\",\"version\":1,\"application\":\"x\",\"problem_size\":1,"
      "\"iterations\":1,\"threads\":1}\n{\"record\":\"kernel\",\"index\":0,\"name\":\"a\",\"calls\":0}\n");
  const ProcessResult report = run_process({AUGUR_EXE, "couple", "report", bad});
  EXPECT_NE(report.exit_code, 0);
  EXPECT_TRUE(contains(report.standard_error, bad + ":2:")) << report.standard_error;
  EXPECT_TRUE(contains(report.standard_error, "'calls' must be at least 1")) << report.standard_error;
  EXPECT_TRUE(report.standard_output.empty());

  const ProcessResult no_target = run_process({AUGUR_EXE, "couple", "predict", bad});
  EXPECT_NE(no_target.exit_code, 0);
  EXPECT_TRUE(contains(no_target.standard_error, "--target FILE or --target-run ID")) << no_target.standard_error;

  const ProcessResult empty_db =
      run_process({AUGUR_EXE, "couple", "transitions", "--db", folder.file("missing.db")});
  EXPECT_NE(empty_db.exit_code, 0);
  EXPECT_TRUE(contains(empty_db.standard_error, "missing.db")) << empty_db.standard_error;
}

TEST(CoupleE2e, AnUnwritableDatabaseKeepsTheMeasurements) {
  TemporaryDirectory folder;
  const std::string not_a_db = folder.write("text.db", "this is not a database\n");
  const ProcessResult result = measure(not_a_db, 6, {"--save", folder.file("kept.jsonl"), "--chains", "none"});
  EXPECT_NE(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "text.db")) << result.standard_error;
  EXPECT_TRUE(std::filesystem::exists(folder.file("kept.jsonl")));
  EXPECT_EQ(augur::e2e::read_text(not_a_db), "this is not a database\n");
}

}  // namespace
