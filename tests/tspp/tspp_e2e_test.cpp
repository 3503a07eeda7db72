// Issue 15 through the real binary: gen-tasks and tspp within bounded memory (a shell's ulimit -v),
// extreme demands, the limits of size.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "e2e/e2e_support.hpp"

namespace augur::e2e {
namespace {

const std::string augur_exe = AUGUR_EXE;

// The command under `ulimit -v KB` (virtual memory), killed after two minutes.
core::ProcessResult run_limited(const std::vector<std::string>& argv, long kilobytes) {
  std::string command = "ulimit -v " + std::to_string(kilobytes) + " && exec";
  for (const std::string& word : argv) command += " '" + word + "'";
  core::SpawnOptions options;
  options.standard_output = core::Destination{};
  options.standard_error = core::Destination{};
  options.timeout_seconds = 120;
  return core::spawn({"/bin/sh", "-c", command}, options);
}

// Without a limit (ASan, in the Sanitize build, reserves more address space than any limit).
core::ProcessResult run(const std::vector<std::string>& argv) {
  core::SpawnOptions options;
  options.standard_output = core::Destination{};
  options.standard_error = core::Destination{};
  options.timeout_seconds = 120;
  return core::spawn(argv, options);
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++found;
  return found;
}

#if defined(__SANITIZE_ADDRESS__)
#define AUGUR_SKIP_UNDER_ASAN() GTEST_SKIP() << "ASan reserves more address space than the limit"
#else
#define AUGUR_SKIP_UNDER_ASAN() (void)0
#endif

// Item 7: 2 x 10^4 tasks on 10^4 resources (each task on one: --use 0) were 1.6 GB of dense demands;
// the file is 0.7 MB, and the generator runs within 400 MB.
TEST(TsppReliability, GenTasksMemoryFollowsWhatItWrites) {
  AUGUR_SKIP_UNDER_ASAN();
  const std::vector<std::string> command = {augur_exe, "gen-tasks", "--tasks", "20000", "--resources", "10000", "--use", "0", "--seed", "5"};
  const core::ProcessResult streamed = run_limited(command, 400000);
  ASSERT_EQ(streamed.exit_code, 0) << describe(streamed);
  EXPECT_TRUE(starts_with(streamed.standard_output, "resource\n  r1 <- queuing;\n"));
  EXPECT_EQ(count(streamed.standard_output, " <- { r"), 20000u);
  EXPECT_TRUE(contains(streamed.standard_output, "\n  t20000 <- { r"));
  const TemporaryDirectory folder;
  std::vector<std::string> to_file = command;
  to_file.insert(to_file.end(), {"-o", (folder.path() / "big.tspp").string()});
  const core::ProcessResult written = run_limited(to_file, 400000);
  ASSERT_EQ(written.exit_code, 0) << describe(written);
  EXPECT_TRUE(read_text(folder.path() / "big.tspp") == streamed.standard_output);
}

// Item 15: --demand-max beyond what the parser reads is refused at the flag; the largest accepted
// value writes a file that augur tspp reads.
TEST(TsppReliability, GenTasksWritesOnlyDemandsTheParserReads) {
  const core::ProcessResult huge = run({augur_exe, "gen-tasks", "--demand-max", "1e300"});
  EXPECT_EQ(huge.exit_code, 2) << describe(huge);
  EXPECT_TRUE(contains(huge.standard_error, "--demand-max")) << huge.standard_error;
  EXPECT_EQ(huge.standard_output, "");
  const TemporaryDirectory folder;
  const std::string file = (folder.path() / "largest.tspp").string();
  const core::ProcessResult largest = run({augur_exe, "gen-tasks", "--demand-min", "1e15", "--demand-max", "1e15", "-o", file});
  ASSERT_EQ(largest.exit_code, 0) << describe(largest);
  const core::ProcessResult read = run({augur_exe, "tspp", "--brief", file});
  EXPECT_EQ(read.exit_code, 0) << describe(read);
}

// Item 8: a subnormal demand gave "Completion time = - (-)" after 100 iterations.
TEST(TsppReliability, ASubnormalDemandGivesTheFiguresOfADemandOfZero) {
  const TemporaryDirectory folder;
  const std::string tasks = "task a <- { cpu: 1; } b <- { cpu: 2; disk: 1; } c <- { cpu: ";
  const std::string structure = "; }\nstructure [ a; { b; c; } ]\n";
  write_text(folder.path() / "tiny.tspp", "resource cpu <- queuing; disk <- queuing;\n" + tasks + "4.9e-324" + structure);
  write_text(folder.path() / "zero.tspp", "resource cpu <- queuing; disk <- queuing;\n" + tasks + "0" + structure);
  for (const std::string method : {"mak-lundstrom", "transient"}) {
    const core::ProcessResult tiny = run({augur_exe, "tspp", "--method", method, (folder.path() / "tiny.tspp").string()});
    const core::ProcessResult zero = run({augur_exe, "tspp", "--method", method, (folder.path() / "zero.tspp").string()});
    ASSERT_EQ(tiny.exit_code, 0) << describe(tiny);
    EXPECT_EQ(tiny.standard_output, zero.standard_output) << method;
    EXPECT_FALSE(contains(tiny.standard_output, "- (-)")) << tiny.standard_output;
    EXPECT_FALSE(contains(tiny.standard_output, "Not converged")) << tiny.standard_output;
  }
  const core::ProcessResult simulated = run({augur_exe, "sim", (folder.path() / "tiny.tspp").string(), "--replications", "50", "-q"});
  EXPECT_EQ(simulated.exit_code, 0) << describe(simulated);
  EXPECT_FALSE(contains(simulated.standard_output, "nan")) << simulated.standard_output;
}

// Item 8: a prediction that has not converged is printed flagged as an estimate, in the table as
// well as on stderr (this generated system oscillates for 100 iterations with the seed's method).
TEST(TsppReliability, ANonConvergedPredictionIsFlagged) {
  const TemporaryDirectory folder;
  const std::string file = (folder.path() / "oscillating.tspp").string();
  const core::ProcessResult generated = run({augur_exe, "gen-tasks", "--tasks", "20", "--resources", "2", "--depth", "3", "--seed", "6", "-o", file});
  ASSERT_EQ(generated.exit_code, 0) << describe(generated);
  for (const char* brief : {"--json", "-b"}) {
    const core::ProcessResult predicted = run({augur_exe, "tspp", "--method", "mak-lundstrom", brief, file});
    ASSERT_EQ(predicted.exit_code, 0) << describe(predicted);
    EXPECT_TRUE(contains(predicted.standard_error, "not converged after 100 iterations")) << predicted.standard_error;
    if (std::string(brief) == "--json") {
      EXPECT_TRUE(contains(predicted.standard_output, "\"converged\": false"));
    } else {
      EXPECT_TRUE(contains(predicted.standard_output, "\nNot converged: an estimate (the last of 100 iterations)\n"))
          << predicted.standard_output;
    }
  }
}

// Item 9: 10^5 tasks in a pipeline (a serial chain of parallel groups of 10) within 2 GB; a system
// past the limit is refused at once with the limit named.
TEST(TsppReliability, HundredThousandTasksWithinTwoGigabytes) {
  AUGUR_SKIP_UNDER_ASAN();
  const TemporaryDirectory folder;
  std::string text = "resource cpu <- queuing; disk <- queuing;\ntask\n";
  std::string structure = "structure {\n";
  for (int i = 0; i < 100000; ++i) {
    text += "t" + std::to_string(i) + " <- { cpu: 0.1" + std::to_string(i % 7) + "; disk: 0.0" + std::to_string(i % 5 + 1) + "; }\n";
    if (i % 10 == 0) structure += i == 0 ? "[ " : "] [ ";
    structure += "t" + std::to_string(i) + "; ";
  }
  write_text(folder.path() / "pipeline.tspp", text + structure + "] }\n");
  const core::ProcessResult pipeline = run_limited({augur_exe, "tspp", "--brief", (folder.path() / "pipeline.tspp").string()}, 2L << 20);
  ASSERT_EQ(pipeline.exit_code, 0) << describe(pipeline).substr(0, 2000);
  EXPECT_TRUE(contains(pipeline.standard_output, "Completion time = "));
  const core::ProcessResult generated = run({augur_exe, "gen-tasks", "--tasks", "100000", "-o", (folder.path() / "dense.tspp").string()});
  ASSERT_EQ(generated.exit_code, 0) << describe(generated);
  const core::ProcessResult refused = run_limited({augur_exe, "tspp", (folder.path() / "dense.tspp").string()}, 2L << 20);
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_TRUE(contains(refused.standard_error, "at most 20000000 pairs")) << refused.standard_error;
  EXPECT_EQ(refused.standard_output, "");
}

// The exact method through the binary: the count of states in the table and in --json, and a system past
// --max-states refused with the limit named, nothing on stdout, exit status 1.
TEST(TsppExactMethod, ReportsItsStatesAndRefusesPastItsLimit) {
  const TemporaryDirectory folder;
  write_text(folder.path() / "fork.tspp",
             "resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; } c <- { cpu: 3; }\nstructure [ a; b; c; ]\n");
  const std::string file = (folder.path() / "fork.tspp").string();
  const core::ProcessResult table = run({augur_exe, "tspp", "--method", "exact", "--discipline", "ps", file});
  ASSERT_EQ(table.exit_code, 0) << describe(table);
  EXPECT_TRUE(contains(table.standard_output, "Completion time = 6.000 (3.742)  States of the Markov chain = 8\n"))
      << table.standard_output;
  const core::ProcessResult json = run({augur_exe, "tspp", "--method", "exact", file, "--json"});
  ASSERT_EQ(json.exit_code, 0) << describe(json);
  EXPECT_TRUE(contains(json.standard_output, "\"states\": 4")) << json.standard_output;
  EXPECT_TRUE(contains(json.standard_output, "\"method\": \"exact\"")) << json.standard_output;
  const core::ProcessResult refused = run({augur_exe, "tspp", "--method", "exact", "--discipline", "ps", "--max-states", "5", file});
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_TRUE(contains(refused.standard_error, "at most 5 states")) << refused.standard_error;
  EXPECT_EQ(refused.standard_output, "");
  const core::ProcessResult bad = run({augur_exe, "tspp", "--method", "exact", "--discipline", "lifo", file});
  EXPECT_EQ(bad.exit_code, 2) << describe(bad);
}

// The pruned method through the binary: its states and the probability it dropped in the table and in
// --json, and bad --beam values refused as usage errors (exit status 2, the option named).
TEST(TsppPrunedMethod, ReportsWhatItDroppedAndRefusesABadBeam) {
  const TemporaryDirectory folder;
  write_text(folder.path() / "fork.tspp",
             "resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; } c <- { cpu: 3; }\nstructure [ a; b; c; ]\n");
  const std::string file = (folder.path() / "fork.tspp").string();
  const core::ProcessResult whole = run({augur_exe, "tspp", "--method", "pruned", "--discipline", "ps", file});
  ASSERT_EQ(whole.exit_code, 0) << describe(whole);
  EXPECT_TRUE(contains(whole.standard_output, "Completion time = 6.000 (3.742)  States of the Markov chain = 8\n")) << whole.standard_output;
  const core::ProcessResult thinned = run({augur_exe, "tspp", "--method", "pruned", "--beam", "1", "--discipline", "ps", file, "--json"});
  ASSERT_EQ(thinned.exit_code, 0) << describe(thinned);
  EXPECT_TRUE(contains(thinned.standard_output, "\"dropped\": ")) << thinned.standard_output;
  EXPECT_TRUE(contains(thinned.standard_output, "\"method\": \"pruned\"")) << thinned.standard_output;
  for (const std::string beam : {"0", "-3", "many", "10000001"}) {
    const core::ProcessResult bad = run({augur_exe, "tspp", "--method", "pruned", "--beam", beam, file});
    EXPECT_EQ(bad.exit_code, 2) << beam << ": " << describe(bad);
    EXPECT_TRUE(contains(bad.standard_error, "--beam")) << bad.standard_error;
    EXPECT_EQ(bad.standard_output, "");
  }
}

}  // namespace
}  // namespace augur::e2e
