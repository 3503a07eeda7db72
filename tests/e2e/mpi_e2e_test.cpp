// End-to-end tests of the CALL instrumentation on MPI programs: the seed's parallel FFT and the
// h-relation benchmark, translated by `augur cc` at build time, run under mpirun on 1, 2 and 4 ranks
// (4 oversubscribed on this 2-core machine), their records gathered to rank 0 and read by augur fit and
// predict, their superstep traces by augur bsp; augur cc's wrapper mode around mpicc; the Table 1 script;
// the commands of docs/cc.md, docs/experiments.md and docs/bsp.md as written.
// Timing only enters through "is positive and shorter than the whole run"; nothing here depends on the
// machine's speed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;  // describe, contains, read_text, TemporaryDirectory, ...

namespace fs = std::filesystem;
using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using Json = nlohmann::json;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;
const std::string fft_exe = AUGUR_FFT_EXE;
const std::string hrelation_exe = AUGUR_HRELATION_EXE;
const std::string mpirun = AUGUR_MPIRUN;
const std::string mpicc = AUGUR_MPICC;
const std::string source_dir = AUGUR_SOURCE_DIR;
const std::string build_dir = AUGUR_BUILD_DIR;

// mpirun as root (CI) needs both variables; more ranks than cores need --oversubscribe. The experiment
// records go where `extra` says, else into a temporary directory removed on return: never into the working
// directory (the examples' default, e.g. fft.cll.jsonl).
ProcessResult run_mpi(int ranks, const Arguments& program, const ProcessOptions& extra = {}) {
  Arguments argv{mpirun, "--oversubscribe", "-n", std::to_string(ranks)};
  argv.insert(argv.end(), program.begin(), program.end());
  const TemporaryDirectory scratch;
  ProcessOptions options = extra;
  const bool records_placed = std::any_of(options.environment.begin(), options.environment.end(),
                                          [](const auto& variable) { return variable.first == "AUGUR_EXPERIMENT_FILE"; });
  if (!records_placed) options.environment.emplace_back("AUGUR_EXPERIMENT_FILE", scratch.file("records.jsonl"));
  options.environment.emplace_back("OMPI_ALLOW_RUN_AS_ROOT", "1");
  options.environment.emplace_back("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
  return augur::core::run_process(argv, options);
}

ProcessResult run_augur(const Arguments& arguments) {
  Arguments argv{augur_exe};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

std::vector<Json> read_records(const fs::path& path) {
  std::ifstream input(path);
  std::vector<Json> records;
  std::string line;
  while (std::getline(input, line)) records.push_back(Json::parse(line));
  return records;
}

class FftExample : public testing::TestWithParam<int> {};

TEST_P(FftExample, MatchesTheSequentialFftAndGathersEveryRanksRecords) {
  const int ranks = GetParam();
  TemporaryDirectory directory;
  const fs::path records = directory.path() / "fft.cll.jsonl";
  ProcessOptions options;
  options.environment.emplace_back("AUGUR_EXPERIMENT_FILE", records.string());
  const ProcessResult result = run_mpi(ranks, {fft_exe, "12", "--repeat", "3", "--check"}, options);
  ASSERT_TRUE(result.succeeded()) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "fft: check: largest error relative to the largest output")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "(passed)")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "N = 4096, P = " + std::to_string(ranks))) << describe(result);

  const std::vector<Json> lines = read_records(records);
  ASSERT_GT(lines.size(), 1U);
  EXPECT_EQ(lines[0], Json::parse(R"({"augur":"experiments","version":1})"));
  std::map<std::string, int> count;
  std::set<int> fft_ranks;
  for (std::size_t index = 1; index < lines.size(); ++index) {
    const Json& record = lines[index];
    const std::string name = record.at("experiment");
    ++count[name];
    EXPECT_EQ(record.at("ranks"), ranks) << record;
    // Measured inside the run, so positive and shorter than the whole run timed from outside.
    EXPECT_GT(record.at("time").get<double>(), 0.0) << record;
    EXPECT_LT(record.at("time").get<double>(), result.wall_seconds) << record;
    if (name == "fft") {
      fft_ranks.insert(record.at("rank").get<int>());
      EXPECT_EQ(record.at("variables"), Json::parse(R"({"N":4096,"P":)" + std::to_string(ranks) + "}")) << record;
      EXPECT_EQ(record.at("formula"), "fft[0]+fft[1]*log(P)+fft[2]*(N/P)*log(N/P)+ fft[3]*N*(P-1)/P") << record;  // the continuation joined by one space
    }
    if (name == "G") {
      EXPECT_EQ(record.at("variables").at("N"), 4096 / ranks) << record;  // each process's share
    }
    if (name == "D") {
      EXPECT_TRUE(record.at("variables").contains("size")) << record;
    }
  }
  EXPECT_EQ(count["fft"], 3 * ranks);                 // 3 measured transforms on every rank
  EXPECT_EQ(fft_ranks.size(), static_cast<std::size_t>(ranks));
  EXPECT_EQ(count["G"], 4 * ranks);                   // the warm-up too: one sequential FFT per process per transform
  int levels = 0;
  for (int p = ranks; p > 1; p /= 2) ++levels;
  for (const char* name : {"A", "B", "C", "D", "E", "F"}) EXPECT_EQ(count[name], 4 * ranks * levels) << name;

  // augur fit reads the file as written (one size here: a constant is all it can fit).
  const ProcessResult fit = run_augur({"fit", records.string(), "--region", "G", "--formula", "G[0]", "--json"});
  ASSERT_TRUE(fit.succeeded()) << describe(fit);
  const Json fitted = Json::parse(fit.standard_output);
  ASSERT_EQ(fitted.at("models").size(), 1U) << fit.standard_output;
  EXPECT_EQ(fitted.at("models")[0].at("region"), "G");
  EXPECT_GT(fitted.at("models")[0].at("constants")[0].at("value").get<double>(), 0.0) << fit.standard_output;
}

INSTANTIATE_TEST_SUITE_P(Ranks, FftExample, testing::Values(1, 2, 4), [](const testing::TestParamInfo<int>& parameter) { return std::to_string(parameter.param) + "Ranks"; });

// The coupling harness across MPI ranks: heat_mpi's three kernels under augur couple measure, every
// timing the slowest rank's, rank 0's file.
TEST(CouplingOverMpi, HeatMeasuredOnTwoRanks) {
  TemporaryDirectory folder;
  ProcessOptions options;
  options.environment = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
  const ProcessResult result = augur::core::run_process(
      {augur_exe, "couple", "measure", "-q", "--no-db", "--json", "--min-time", "0.002", "--samples", "3",
       "--save", folder.file("heat.jsonl"), "--", mpirun, "--oversubscribe", "-n", "2", AUGUR_HEAT_MPI_EXE,
       "--measure", "2000", "20"},
      options);
  ASSERT_TRUE(result.succeeded()) << describe(result);
  const Json report = Json::parse(result.standard_output);
  EXPECT_EQ(report["run"]["ranks"], 2);
  EXPECT_EQ(report["run"]["processors"], 2);
  EXPECT_EQ(report["run"]["application"], "heat_mpi");
  ASSERT_EQ(report["kernels"].size(), 3U);
  EXPECT_EQ(report["kernels"][0]["name"], "exchange");
  EXPECT_EQ(report["couplings"].size(), 3U);  // chains of 2 of a 3-kernel loop
  for (const Json& chain : report["couplings"]) EXPECT_GT(chain["coupling"].get<double>(), 0);
  EXPECT_GT(report["measured"]["seconds"].get<double>(), 0);
  EXPECT_TRUE(fs::exists(folder.file("heat.jsonl")));
}

TEST(FftExample, BadArgumentsAreRefusedOnEveryRank) {
  for (const Arguments& arguments : {Arguments{fft_exe, "40"}, Arguments{fft_exe, "2", "--check"}, Arguments{fft_exe, "10", "--repeat", "0"}}) {
    const ProcessResult result = run_mpi(4, arguments);  // "2": N = 4 = P is the smallest case, and right; 40 is too large
    if (arguments[1] == "2") {
      EXPECT_TRUE(result.succeeded()) << describe(result);
      EXPECT_TRUE(contains(result.standard_output, "(passed)")) << describe(result);
      continue;
    }
    EXPECT_FALSE(result.succeeded()) << describe(result);
    EXPECT_TRUE(contains(result.standard_error, "fft: ")) << describe(result);
  }
  const ProcessResult three = run_mpi(3, {fft_exe, "10"});
  EXPECT_FALSE(three.succeeded());
  EXPECT_TRUE(contains(three.standard_error, "must be a power of 2")) << describe(three);
}

TEST(CcWrapper, BuildsTheFftWithMpicc) {
  TemporaryDirectory directory;
  const fs::path program = directory.path() / "fft-wrapped";
  const ProcessResult build = augur::core::run_process(
      {augur_exe, "cc", "--", mpicc, "-O2", source_dir + "/examples/fft/fft.c", "-o", program.string(), "-lm"});
  ASSERT_TRUE(build.succeeded()) << describe(build);
  ProcessOptions options;
  options.environment.emplace_back("AUGUR_EXPERIMENT_FILE", (directory.path() / "records.jsonl").string());
  const ProcessResult result = run_mpi(2, {program.string(), "10", "--repeat", "1", "--check"}, options);
  ASSERT_TRUE(result.succeeded()) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "(passed)")) << describe(result);
  EXPECT_TRUE(fs::exists(directory.path() / "records.jsonl"));
}

// The first ```sh block after `anchor` in the doc `name` (docs/NAME).
std::string docs_block(const std::string& name, const std::string& anchor) {
  const std::string text = read_text(source_dir + "/docs/" + name);
  const std::size_t at = text.find(anchor);
  if (at == std::string::npos) return "";
  const std::size_t begin = text.find("```sh\n", at);
  const std::size_t end = text.find("```\n", begin + 6);
  return begin == std::string::npos || end == std::string::npos ? "" : text.substr(begin + 6, end - begin - 6);
}

// A docs block run by bash in a folder of its own where `link` is `target` (the repository's `examples`, the
// build folder), with augur's build folder first on the PATH and mpirun allowed as root.
ProcessResult run_docs_block(const std::string& commands, const std::string& link, const std::string& target) {
  const TemporaryDirectory directory;
  fs::create_directory_symlink(target, directory.path() / link);
  ProcessOptions options;
  options.environment = {{"PATH", fs::path(augur_exe).parent_path().string() + ":" + fs::path(mpirun).parent_path().string() + ":/usr/bin:/bin"},
                         {"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
  options.unset = {"AUGUR_EXPERIMENT_FILE", "AUGUR_MODE"};
  return augur::core::run_process({"bash", "-euo", "pipefail", "-c", "cd " + directory.path().string() + "\n" + commands}, options);
}

// The docs' loop over the sizes, at smaller ones (2^8 .. 2^11).
std::string with_smaller_sizes(std::string commands) {
  const std::size_t at = commands.find("for LOG2N in 14 16 18 20;");
  EXPECT_NE(at, std::string::npos) << commands;
  if (at != std::string::npos) commands.replace(at + 13, 11, "8 9 10 11");
  return commands;
}

// The fit of formula (11) to the eight runs (N, P) of the docs' loops.
void expect_fit_of_eight_points(const ProcessResult& result) {
  EXPECT_TRUE(contains(result.standard_output, "fft · time\n  8 points over N, P;")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "  formula   fft[0] + fft[1] * log(P) + fft[2] * N / P * log(N / P) + fft[3] * N * (P - 1) / P\n"))
      << describe(result);
}

// docs/cc.md's three commands as written (at smaller sizes): build, run on 1 and 2 processes, fit 8 points.
TEST(MpiDocs, CcThreeCommands) {
  const ProcessResult result =
      run_docs_block(with_smaller_sizes(docs_block("cc.md", "fit the seed's formula in three")), "examples", source_dir + "/examples");
  ASSERT_TRUE(result.succeeded()) << describe(result);
  expect_fit_of_eight_points(result);
}

// docs/experiments.md's commands in order (at smaller sizes), with `build` the build folder.
TEST(MpiDocs, ExperimentsCommandsInOrder) {
  const ProcessResult result =
      run_docs_block(with_smaller_sizes(docs_block("experiments.md", "Run it at four sizes on 1 and 2 processes")), "build", build_dir);
  ASSERT_TRUE(result.succeeded()) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "fft: check: largest error relative to the largest output")) << describe(result);
  expect_fit_of_eight_points(result);
}

// docs/bsp.md's FFT trace, h-relation benchmark and augur bsp, as written but smaller.
TEST(MpiDocs, BspCommands) {
  std::string commands = docs_block("bsp.md", "## The FFT on this machine");
  ASSERT_TRUE(contains(commands, "build/bin/fft 20 ")) << commands;
  commands.replace(commands.find("build/bin/fft 20 "), 17, "build/bin/fft 12 ");
  commands.replace(commands.find("build/bin/hrelation"), 19, "build/bin/hrelation --max-bytes 65536 --repeat 3");
  const ProcessResult result = run_docs_block(commands, "build", build_dir);
  ASSERT_TRUE(result.succeeded()) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "fft.trace.jsonl\n  2 ranks, 3 machines, 2 supersteps of the top machine\n")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "  fitted to experiment 'hrelation' of hrelation.cll.jsonl: hrelation[0] + hrelation[1] * h over "))
      << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "BSP: 2 supersteps under global barriers once the partitions are flattened\n")) << describe(result);
}

TEST(HrelationBenchmark, RecordsTheExchangesOfEveryRank) {
  TemporaryDirectory directory;
  const fs::path records = directory.path() / "hrelation.jsonl";
  ProcessOptions options;
  options.environment.emplace_back("AUGUR_EXPERIMENT_FILE", records.string());
  const ProcessResult result = run_mpi(2, {hrelation_exe, "--max-bytes", "8192", "--repeat", "3"}, options);
  ASSERT_TRUE(result.succeeded()) << describe(result);
  const std::vector<Json> lines = read_records(records);
  // h = 0, 1024, 2048, 4096, 8192: 5 sizes x 3 repetitions x 2 ranks
  ASSERT_EQ(lines.size(), 1U + 5 * 3 * 2);
  std::set<double> sizes;
  for (std::size_t index = 1; index < lines.size(); ++index) sizes.insert(lines[index].at("variables").at("h").get<double>());
  EXPECT_EQ(sizes, (std::set<double>{0, 1024, 2048, 4096, 8192}));
  const ProcessResult odd = run_mpi(3, {hrelation_exe});
  EXPECT_FALSE(odd.succeeded());
  EXPECT_TRUE(contains(odd.standard_error, "needs an even number of processes")) << describe(odd);
}

TEST(Table1Script, RunsTheGridFitsAndPredicts) {
  TemporaryDirectory directory;
  const ProcessResult result = augur::core::run_process({"bash", source_dir + "/examples/fft/table1.sh", "--build", build_dir, "--out",
                                                         directory.path().string(), "--min", "8", "--max", "12", "--repeat", "2"});
  ASSERT_TRUE(result.succeeded()) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "== Table 1: N = 4096, measured against formula (11) fitted to the runs ==")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "== N = 4096 predicted from the runs with N < 4096 only")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "== OBSP* and BSP against one traced transform: N = 4096, P = 2 ==")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "measured")) << describe(result);
  if (std::thread::hardware_concurrency() < 4) {
    EXPECT_TRUE(contains(result.standard_output, "oversubscribed: P = 4")) << describe(result);
  }
  for (const char* point : {"N=4096,P=1", "N=4096,P=2", "N=4096,P=4"}) EXPECT_TRUE(contains(result.standard_output, point)) << point;
}

}  // namespace
