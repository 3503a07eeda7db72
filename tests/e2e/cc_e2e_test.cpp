// End-to-end tests of augur cc: the built binary translates and checks files, and, in wrapper mode,
// compiles small C and C++ programs with the system's cc / c++ (and mpicc when present) against this
// tree's libaugur; the programs run with AUGUR_EXPERIMENT_FILE in a fresh temporary directory and their
// records are read back. Errors: file:line:col, status 1, no output file, no compiler run.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

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
const std::string data_directory = AUGUR_EXPERIMENT_DATA_DIR;

// ---- Helpers ---------------------------------------------------------------------------------

ProcessResult run(const Arguments& arguments, const ProcessOptions& options = {}) {
  Arguments argv{augur_exe, "cc"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv, options);
}




bool have_program(const std::string& name) { return augur::core::run_process({"sh", "-c", "command -v " + name}).succeeded(); }


// The environment of an instrumented run: the records go to `records`, nothing else from the caller.
ProcessOptions records_to(const std::string& records) {
  ProcessOptions options;
  options.environment = {{"AUGUR_EXPERIMENT_FILE", records}};
  options.unset = {"AUGUR_MODE", "AUGUR_COUNTERS", "AUGUR_REPORT", "AUGUR_SUMMARY"};
  return options;
}

// The records of an experiment file (the header line apart), in order.
std::vector<Json> read_records(const std::string& path) {
  std::vector<Json> records;
  std::istringstream lines(read_text(path));
  std::string line;
  bool header = true;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    Json json = Json::parse(line);
    if (header) {
      EXPECT_EQ(json.value("augur", ""), "experiments") << line;
      header = false;
      continue;
    }
    records.push_back(std::move(json));
  }
  return records;
}

std::vector<Json> records_of(const std::vector<Json>& records, const std::string& experiment) {
  std::vector<Json> result;
  std::copy_if(records.begin(), records.end(), std::back_inserter(result),
               [&](const Json& record) { return record.value("experiment", "") == experiment; });
  return result;
}

// ---- The programs ------------------------------------------------------------------------------

const char* const local_header = "static double work(int n, int p) {\n"
                                 "  double sum = 0.0;\n"
                                 "  for (int i = 0; i < n / p; ++i) sum += 0.5 * i;\n"
                                 "  return sum;\n"
                                 "}\n";

// Line 22 prints __FILE__ and __LINE__: the translation keeps both. clock_gettime needs the feature
// macro before the first header (the translation copies it above augur.h's <stdint.h>).
const char* const c_program = R"(#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "local.h"
int main(int argc, char** argv) {
  int N = argc > 1 ? atoi(argv[1]) : 64;
  struct timespec start;
  double total = clock_gettime(CLOCK_MONOTONIC, &start) == 0 ? 0.0 : 1.0;
  #pragma cll setup setup[0]
  total += 1.0;
  #pragma cll end setup
  for (int P = 1; P <= 4; P *= 2) {
    #pragma cll outer outer[0] + outer[1]*N*log(N)/P + \
                      outer[2]*P
    total += work(N, P);
    /* #pragma cll end outer: a comment, not a pragma */
    #pragma cll end outer
  }
  const char* note = "#pragma cll report nothing";
  if (total < 0) return note[0];
  printf("%s:%d\n", __FILE__, __LINE__);
  #pragma cll report outer
  #pragma cll report all
  return 0;
}
)";

const char* const cpp_program = R"(#include <cstdio>
#include <string>
#include <vector>

namespace {
double kernel(std::size_t n) {
  std::vector<double> values(n, 1.0);
  double sum = 0.0;
  for (double value : values) sum += value;
  return sum;
}
}  // namespace

int main() {
  const std::string text = R"x(
#pragma cll fake fake[0]
)x";
  double total = 0.0;
  for (int n = 128; n <= 512; n *= 2) {
#pragma cll fft fft[0] + fft[1]*n*log(n)
    for (int pass = 0; pass < 2; ++pass) {
#pragma cll pass pass[0] + pass[1]*n
      total += kernel(static_cast<std::size_t>(n));
#pragma cll end pass
    }
#pragma cll end fft
  }
  std::printf("%zu %g\n", text.size(), total);
#pragma cll report fft, pass
  return 0;
}
)";

// Compiles `arguments` through augur cc (wrapper mode); the compiler's status is augur's.
ProcessResult compile(const Arguments& arguments) {
  Arguments argv{"--"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run(argv);
}

// ---- Translating and checking ------------------------------------------------------------------

TEST(CcCommand, HelpShowsTheThreeFormsAndExamples) {
  const ProcessResult result = run({"--help"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  for (const char* text : {"augur cc FILE [-o OUT]", "augur cc --check FILE...", "-- COMPILER ARGS...", "--keep", "--include-dir",
                           "--library-dir", "Examples:", "docs/cc.md"}) {
    EXPECT_TRUE(contains(result.standard_output, text)) << text << "\n" << result.standard_output;
  }
}

TEST(CcCommand, TranslatesToStandardOutputOrToAFile) {
  TemporaryDirectory directory;
  const std::string source = directory.write("prog.c", c_program);
  const ProcessResult printed = run({source});
  ASSERT_EQ(printed.exit_code, 0) << describe(printed);
  EXPECT_TRUE(contains(printed.standard_output, "#line 1 \"" + source + "\"\n#define _POSIX_C_SOURCE 200809L\n#include <stdio.h>\n")) << printed.standard_output;
  EXPECT_TRUE(contains(printed.standard_output, "augur_experiment_report(\"outer\");"));

  const std::string output = directory.file("prog.cll.c");
  const ProcessResult written = run({source, "-o", output});
  ASSERT_EQ(written.exit_code, 0) << describe(written);
  EXPECT_TRUE(written.standard_output.empty());
  EXPECT_EQ(read_text(output), printed.standard_output);
  EXPECT_EQ(directory.files(), (std::vector<std::string>{"prog.c", "prog.cll.c"}));
}

TEST(CcCommand, ChecksFilesWithOneLinePerFile) {
  const ProcessResult result = run({"--check", data_directory + "/figure3.c", data_directory + "/figure4.c"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.standard_output, data_directory + "/figure3.c: ok, 1 experiment (fft), 4 pragmas, MPI through MPI_COMM_WORLD\n" +
                                        data_directory + "/figure4.c: ok, 7 experiments (A, B, C, D, E, F, G), 20 pragmas\n");
  const ProcessResult failed = run({"--check", data_directory + "/figure4.c", data_directory + "/figure4_no_braces.c"});
  EXPECT_EQ(failed.exit_code, 1) << describe(failed);
  EXPECT_TRUE(contains(failed.standard_output, "figure4_no_braces.c: 1 error\n")) << describe(failed);
  EXPECT_TRUE(starts_with(failed.standard_error, data_directory + "/figure4_no_braces.c:9:13: experiment G begins as the whole body of 'else'"))
      << describe(failed);
}

TEST(CcCommand, AnUnbalancedPragmaIsAnErrorAtItsPlaceAndWritesNothing) {
  TemporaryDirectory directory;
  const std::string source = directory.write("bad.c", "int main(void) {\n  #pragma cll a a[0]\n  return 0;\n}\n");
  const ProcessResult translated = run({source, "-o", directory.file("bad.cll.c")});
  EXPECT_EQ(translated.exit_code, 1) << describe(translated);
  EXPECT_TRUE(translated.standard_output.empty());
  EXPECT_EQ(translated.standard_error, source + ":2:15: experiment a is not ended: '#pragma cll end a' is missing\n");

  // Wrapper mode: the same message, and the compiler does not run.
  const ProcessResult compiled = compile({"cc", source, "-o", directory.file("bad")});
  EXPECT_EQ(compiled.exit_code, 1) << describe(compiled);
  EXPECT_TRUE(starts_with(compiled.standard_error, source + ":2:15: ")) << describe(compiled);
  EXPECT_EQ(directory.files(), (std::vector<std::string>{"bad.c"}));

  const std::string crossed = directory.write("crossed.c", "void f(void) {\n#pragma cll a a[0]\n#pragma cll b b[0]\n#pragma cll end a\n"
                                                           "#pragma cll end b\n}\n#pragma cll end c\n");
  const ProcessResult both = run({crossed});
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_TRUE(both.standard_output.empty());
  EXPECT_EQ(both.standard_error, crossed + ":4:17: '#pragma cll end a' must first end experiment b (begun at line 3): experiments nest\n" +
                                     crossed + ":7:17: '#pragma cll end c' ends no open experiment: there is no '#pragma cll c ...' open here\n");
}

TEST(CcCommand, UsageErrorsExitWithStatusTwo) {
  for (const Arguments& arguments : std::vector<Arguments>{{}, {"a.c", "b.c"}, {"--keep", "a.c"}, {"--check", "a.c", "-o", "x.c"},
                                                           {"--", "fft.c"}, {"--"}, {"--unknown"}}) {
    const ProcessResult result = run(arguments);
    EXPECT_EQ(result.exit_code, 2) << ::testing::PrintToString(arguments) << "\n" << describe(result);
  }
}

// ---- Wrapper mode: compiled, run, records read back --------------------------------------------

TEST(CcWrapper, ACProgramCompilesCleanRunsAndRecordsItsExperiments) {
  TemporaryDirectory directory;
  directory.write("src/local.h", local_header);
  const std::string source = directory.write("src/prog.c", c_program);
  const std::string program = directory.file("prog");
  const ProcessResult compiled = compile({"cc", "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O2", source, "-o", program});
  ASSERT_EQ(compiled.exit_code, 0) << describe(compiled);
  EXPECT_TRUE(compiled.standard_error.empty()) << describe(compiled);

  const std::string records = directory.file("records.jsonl");
  const ProcessResult ran = augur::core::run_process({program, "100"}, records_to(records));
  ASSERT_EQ(ran.exit_code, 0) << describe(ran);
  EXPECT_EQ(ran.standard_output, source + ":22\n");  // __FILE__ and __LINE__ of the original
  ASSERT_TRUE(fs::exists(records)) << describe(ran);
  const std::vector<Json> all = read_records(records);
  const std::vector<Json> outer = records_of(all, "outer");
  ASSERT_EQ(outer.size(), 3u) << read_text(records);
  std::vector<double> processors;
  for (const Json& record : outer) {
    EXPECT_EQ(record.at("variables").at("N"), 100);
    processors.push_back(record.at("variables").at("P").get<double>());
    EXPECT_EQ(record.at("formula"), "outer[0] + outer[1]*N*log(N)/P + outer[2]*P");
    EXPECT_GT(record.at("time").get<double>(), 0.0);  // measured inside the run: positive, shorter than it
    EXPECT_LT(record.at("time").get<double>(), ran.wall_seconds);
  }
  EXPECT_EQ(processors, (std::vector<double>{1, 2, 4}));
  const std::vector<Json> setup = records_of(all, "setup");
  ASSERT_EQ(setup.size(), 1u) << read_text(records);
  EXPECT_TRUE(setup[0].at("variables").empty());
  EXPECT_EQ(all.size(), 4u);
  // The named report wrote outer first; 'report all' the rest.
  EXPECT_EQ(all.back().at("experiment"), "setup");
  // No translated source is left behind.
  EXPECT_EQ(directory.files(), (std::vector<std::string>{"prog", "records.jsonl", "src/local.h", "src/prog.c"}));
}

TEST(CcWrapper, ACppProgramCompilesAsCpp17AndCpp20InSeparateSteps) {
  for (const char* standard : {"-std=c++17", "-std=c++20"}) {
    TemporaryDirectory directory;
    const std::string source = directory.write("fft.cpp", cpp_program);
    const std::string object = directory.file("fft.o");
    const ProcessResult compiled = compile({"c++", standard, "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-c", source, "-o", object});
    ASSERT_EQ(compiled.exit_code, 0) << standard << "\n" << describe(compiled);
    const std::string program = directory.file("fft");
    const ProcessResult linked = compile({"c++", object, "-o", program});
    ASSERT_EQ(linked.exit_code, 0) << standard << "\n" << describe(linked);

    const std::string records = directory.file("fft.cll.jsonl");
    const ProcessResult ran = augur::core::run_process({program}, records_to(records));
    ASSERT_EQ(ran.exit_code, 0) << describe(ran);
    EXPECT_TRUE(starts_with(ran.standard_output, "26 ")) << ran.standard_output;  // the raw string kept its pragma text
    const std::vector<Json> all = read_records(records);
    const std::vector<Json> fft = records_of(all, "fft");
    const std::vector<Json> pass = records_of(all, "pass");
    ASSERT_EQ(fft.size(), 3u) << read_text(records);
    ASSERT_EQ(pass.size(), 6u) << read_text(records);
    std::vector<double> sizes;
    for (const Json& record : fft) sizes.push_back(record.at("variables").at("n").get<double>());
    EXPECT_EQ(sizes, (std::vector<double>{128, 256, 512}));
    EXPECT_EQ(records_of(all, "fake").size(), 0u);
  }
}

TEST(CcWrapper, CompilerErrorsInGeneratedCodePointAtThePragmaAndTheStatusPassesThrough) {
  TemporaryDirectory directory;
  const std::string source = directory.write("pointer.c", "int main(void) {\n  int* p = 0;\n#pragma cll a a[0] + a[1]*p\n  p = 0;\n"
                                                          "#pragma cll end a\n  return p != 0;\n}\n");
  const ProcessResult compiled = compile({"cc", "-c", source, "-o", directory.file("pointer.o")});
  EXPECT_NE(compiled.exit_code, 0) << describe(compiled);
  EXPECT_NE(compiled.exit_code, 2) << describe(compiled);
  EXPECT_TRUE(contains(compiled.standard_error, source + ":3:")) << describe(compiled);

  const ProcessResult missing = compile({"augur-no-such-compiler", "x.o"});
  EXPECT_EQ(missing.exit_code, 127) << describe(missing);
}

TEST(CcWrapper, KeepLeavesTheTranslationsAndSaysWhere) {
  TemporaryDirectory directory;
  const std::string source = directory.write("prog.c", c_program);
  directory.write("local.h", local_header);
  const ProcessResult compiled = compile({"cc", "-fsyntax-only", source});
  ASSERT_EQ(compiled.exit_code, 0) << describe(compiled);
  EXPECT_TRUE(compiled.standard_error.empty());

  const ProcessResult kept = run({"--keep", "--", "cc", "-fsyntax-only", source});
  ASSERT_EQ(kept.exit_code, 0) << describe(kept);
  const std::string prefix = "augur cc: the translated sources are kept in ";
  ASSERT_TRUE(starts_with(kept.standard_error, prefix)) << describe(kept);
  const fs::path kept_directory = kept.standard_error.substr(prefix.size(), kept.standard_error.size() - prefix.size() - 1);
  EXPECT_TRUE(contains(read_text(kept_directory / "prog.c"), "#line 1 \"" + source + "\""));
  std::error_code ignored;
  fs::remove_all(kept_directory, ignored);
}

TEST(CcWrapper, AnMpiProgramGathersEveryRanksRecordsToRankZero) {
  if (!have_program("mpicc") || !have_program("mpirun")) GTEST_SKIP() << "mpicc or mpirun is not installed";
  TemporaryDirectory directory;
  const std::string source = directory.write("sum.c", R"(#pragma parallel MPI
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int P = 1, rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int N = 1000; N <= 4000; N *= 2) {
#pragma cll sum sum[0] + sum[1]*N/P
    double s = 0;
    for (int i = rank; i < N; i += P) s += i;
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#pragma cll end sum
  }
#pragma cll report all
  MPI_Finalize();
  return 0;
}
)");
  const std::string program = directory.file("sum");
  const ProcessResult compiled = compile({"mpicc", "-std=c11", "-Wall", "-Wextra", "-O2", source, "-o", program});
  ASSERT_EQ(compiled.exit_code, 0) << describe(compiled);
  const std::string records = directory.file("sum.jsonl");
  const ProcessResult ran = augur::core::run_process({"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2", program}, records_to(records));
  ASSERT_EQ(ran.exit_code, 0) << describe(ran);
  const std::vector<Json> all = read_records(records);
  ASSERT_EQ(all.size(), 6u) << read_text(records);
  std::map<int, int> per_rank;
  for (const Json& record : all) {
    EXPECT_EQ(record.at("ranks"), 2);
    EXPECT_EQ(record.at("variables").at("P"), 2);
    ++per_rank[record.at("rank").get<int>()];
  }
  EXPECT_EQ(per_rank, (std::map<int, int>{{0, 3}, {1, 3}}));
}

}  // namespace
