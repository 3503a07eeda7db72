// The installation, as a user meets it: `cmake --install` into a temporary prefix, the prefix moved
// elsewhere (an installation must be relocatable), then
//   - a downstream CMake project built with find_package(augur) and run;
//   - the same C program built with pkg-config's flags and run;
//   - the installed augur binary run on real programs: `augur run` (its preload library) and
//     `augur cc` (its headers and libaugur), with no path of the build or source tree in it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;
using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using augur::core::run_process;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream stream(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

std::string describe(const ProcessResult& result) {
  return result.describe_status() + "\n--- stdout\n" + result.standard_output + "\n--- stderr\n" +
         result.standard_error;
}

// One installation for the whole suite (installing takes a few seconds), removed at the end.
class Install : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = std::make_unique<augur::test::TemporaryDirectory>("augur-install-test");
    root_ = folder_->path();
    const fs::path stage = root_ / "stage";
    const ProcessResult installed =
        run_process({AUGUR_CMAKE_COMMAND, "--install", AUGUR_BUILD_DIR, "--prefix", stage.string()});
    ASSERT_TRUE(installed.succeeded()) << describe(installed);
    // Moved after installing: nothing may depend on where it was installed.
    prefix_ = root_ / "moved" / "augur";
    fs::create_directories(prefix_.parent_path());
    fs::rename(stage, prefix_);
  }
  static void TearDownTestSuite() { folder_.reset(); }
  void SetUp() override {
    if (prefix_.empty() || !fs::exists(prefix_ / "bin" / "augur"))
      GTEST_SKIP() << "the installation failed (see the first test)";
  }

  static fs::path libdir() { return prefix_ / AUGUR_LIBDIR; }
  static fs::path work(const std::string& name) {
    const fs::path folder = root_ / name;
    fs::create_directories(folder);
    return folder;
  }

  static std::unique_ptr<augur::test::TemporaryDirectory> folder_;  // removed with everything in it
  static fs::path root_;
  static fs::path prefix_;
};

std::unique_ptr<augur::test::TemporaryDirectory> Install::folder_;
fs::path Install::root_;
fs::path Install::prefix_;

TEST_F(Install, PutsTheBinariesLibrariesHeadersAndPackageFiles) {
  for (const char* file : {"bin/augur", "bin/tspp", "include/augur/augur.h", "include/augur/augur_mpi.h",
                           "include/augur/coupling.h", "include/augur/tspp.hpp", "include/augur/sim/engine.hpp"}) {
    EXPECT_TRUE(fs::exists(prefix_ / file)) << file;
  }
  for (const char* file :
       {"libaugur.so", "libaugur_preload.so", "libaugur_core.a", "libaugur_tspp.a", "libaugur_sim_engine.a",
        "cmake/augur/augurConfig.cmake", "cmake/augur/augurConfigVersion.cmake", "cmake/augur/augurTargets.cmake",
        "pkgconfig/augur.pc"}) {
    EXPECT_TRUE(fs::exists(libdir() / file)) << file;
  }
  EXPECT_TRUE(fs::exists(prefix_ / "share" / "augur" / "examples" / "tspp" / "figure11.tspp"));
  EXPECT_TRUE(fs::exists(prefix_ / "share" / "doc" / "augur" / "README.md"));
}

// Every header installed includes only standard headers and other installed headers: none reaches
// into the source tree (src/), so a user compiles against the installation alone.
TEST_F(Install, InstalledHeadersIncludeOnlyInstalledHeaders) {
  const fs::path include = prefix_ / "include";
  const std::regex quoted(R"re(^\s*#\s*include\s*"([^"]+)")re");
  int headers = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(include)) {
    if (!entry.is_regular_file()) continue;
    ++headers;
    std::istringstream lines(read_text(entry.path()));
    std::string line;
    while (std::getline(lines, line)) {
      std::smatch match;
      if (!std::regex_search(line, match, quoted)) continue;
      EXPECT_TRUE(fs::exists(include / match[1].str()))
          << entry.path() << " includes \"" << match[1] << "\", not installed";
    }
  }
  EXPECT_GE(headers, 12);
}

TEST_F(Install, TheInstalledBinaryHoldsNoPathOfTheBuildOrSourceTree) {
  const std::string binary = read_text(prefix_ / "bin" / "augur");
  ASSERT_FALSE(binary.empty());
  EXPECT_EQ(binary.find(AUGUR_BUILD_DIR), std::string::npos) << "the build folder is compiled into bin/augur";
  const std::string source = fs::path(AUGUR_DOWNSTREAM_DIR).parent_path().parent_path().parent_path().string();
  EXPECT_EQ(binary.find(source + "/include"), std::string::npos)
      << "the source tree's include folder is compiled into bin/augur";
}

TEST_F(Install, ADownstreamProjectBuildsWithFindPackageAndRuns) {
  const fs::path build = work("downstream_cmake");
  const ProcessResult configured =
      run_process({AUGUR_CMAKE_COMMAND, "-S", AUGUR_DOWNSTREAM_DIR, "-B", build.string(),
                   "-DCMAKE_PREFIX_PATH=" + prefix_.string(), "-DCMAKE_BUILD_TYPE=Release"});
  ASSERT_TRUE(configured.succeeded()) << describe(configured);
  const ProcessResult built = run_process({AUGUR_CMAKE_COMMAND, "--build", build.string()});
  ASSERT_TRUE(built.succeeded()) << describe(built);

  ProcessOptions two_threads;
  two_threads.environment = {{"OMP_NUM_THREADS", "2"}, {"OMP_WAIT_POLICY", "passive"}};
  two_threads.unset = {"AUGUR_REPORT", "AUGUR_MODE", "AUGUR_BASELINE"};
  const ProcessResult instrumented = run_process({(build / "instrumented").string()}, two_threads);
  ASSERT_TRUE(instrumented.succeeded()) << describe(instrumented);
  EXPECT_EQ(instrumented.standard_output, "instrumented: 40 iterations, sequential fraction measured\n")
      << describe(instrumented);
  EXPECT_NE(instrumented.standard_error.find("augur: region 1"), std::string::npos) << describe(instrumented);

  const ProcessResult engines = run_process({(build / "engines").string()});
  ASSERT_TRUE(engines.succeeded()) << describe(engines);
  EXPECT_EQ(engines.standard_output, "engines: completion 2.000, period 3\n");
}

TEST_F(Install, ACProgramBuildsWithPkgConfigAndRuns) {
  ProcessOptions pkg_config;
  pkg_config.environment = {{"PKG_CONFIG_PATH", (libdir() / "pkgconfig").string()}};
  const ProcessResult flags = run_process({AUGUR_PKG_CONFIG, "--cflags", "--libs", "augur"}, pkg_config);
  ASSERT_TRUE(flags.succeeded()) << describe(flags);
  // -I names the moved installation's include folder (pkg-config keeps ${pcfiledir}'s "..").
  std::smatch include_flag;
  ASSERT_TRUE(std::regex_search(flags.standard_output, include_flag, std::regex("-I(\\S+)"))) << flags.standard_output;
  EXPECT_TRUE(fs::equivalent(include_flag[1].str(), prefix_ / "include")) << flags.standard_output;
  const ProcessResult library = run_process({AUGUR_PKG_CONFIG, "--variable=libdir", "augur"}, pkg_config);
  ASSERT_TRUE(library.succeeded()) << describe(library);
  std::string libdir_text = library.standard_output;
  while (!libdir_text.empty() && (libdir_text.back() == '\n' || libdir_text.back() == ' ')) libdir_text.pop_back();
  EXPECT_TRUE(fs::equivalent(libdir_text, libdir())) << libdir_text;

  const fs::path program = work("downstream_pkgconfig") / "instrumented";
  std::vector<std::string> compile{
      AUGUR_C_COMPILER, "-std=c11", "-O2", "-fopenmp", std::string(AUGUR_DOWNSTREAM_DIR) + "/instrumented.c", "-o",
      program.string()};
  std::istringstream words(flags.standard_output);
  for (std::string word; words >> word;) compile.push_back(word);
  compile.push_back("-Wl,-rpath," + libdir_text);
  const ProcessResult compiled = run_process(compile);
  ASSERT_TRUE(compiled.succeeded()) << describe(compiled);
  ProcessOptions one_thread;
  one_thread.environment = {{"OMP_NUM_THREADS", "1"}};
  one_thread.unset = {"AUGUR_REPORT", "AUGUR_MODE", "AUGUR_BASELINE"};
  const ProcessResult ran = run_process({program.string()}, one_thread);
  ASSERT_TRUE(ran.succeeded()) << describe(ran);
  EXPECT_EQ(ran.standard_output, "instrumented: 40 iterations, sequential fraction measured\n") << describe(ran);
}

TEST_F(Install, TheInstalledAugurRunFindsItsPreloadLibrary) {
  ProcessOptions quiet;
  quiet.unset = {"LD_PRELOAD", "OMP_TOOL_LIBRARIES"};
  const fs::path report = work("run") / "swim.json";
  const ProcessResult run = run_process({(prefix_ / "bin" / "augur").string(), "run", "-p", "2", "--baseline", "1",
                                         "--json=" + report.string(), "--", AUGUR_SWIM_PLAIN_EXE, "64", "60"},
                                        quiet);
  ASSERT_TRUE(run.succeeded()) << describe(run);
  EXPECT_NE(run.standard_output.find("period 3 (calc1._omp_fn.0, calc2._omp_fn.0, calc3._omp_fn.0)"), std::string::npos)
      << describe(run);
  EXPECT_NE(run.standard_output.find("dynamic instrumentation (libaugur_preload, libgomp)"), std::string::npos)
      << describe(run);
  EXPECT_NE(read_text(report).find("\"interpose\""), std::string::npos) << read_text(report);
}

TEST_F(Install, TheInstalledAugurCcCompilesAgainstTheInstallation) {
  const fs::path folder = work("cc");
  const fs::path source = folder / "segment.c";
  std::ofstream(source) << "#include <stdio.h>\n"
                           "int main(void) {\n"
                           "  double total = 0.0;\n"
                           "  int N = 1000;\n"
                           "  #pragma cll sum sum[0] + sum[1]*N\n"
                           "  for (int i = 0; i < N; ++i) total += i;\n"
                           "  #pragma cll end sum\n"
                           "  printf(\"%.0f\\n\", total);\n"
                           "  #pragma cll report all\n"
                           "  return 0;\n"
                           "}\n";
  const fs::path program = folder / "segment";
  const ProcessResult compiled = run_process(
      {(prefix_ / "bin" / "augur").string(), "cc", "--", AUGUR_C_COMPILER, source.string(), "-o", program.string()});
  ASSERT_TRUE(compiled.succeeded()) << describe(compiled);
  const fs::path records = folder / "records.jsonl";
  ProcessOptions to_file;
  to_file.environment = {{"AUGUR_EXPERIMENT_FILE", records.string()}};
  to_file.unset = {"AUGUR_MODE"};
  const ProcessResult ran = run_process({program.string()}, to_file);
  ASSERT_TRUE(ran.succeeded()) << describe(ran);
  EXPECT_EQ(ran.standard_output, "499500\n");
  EXPECT_NE(read_text(records).find("\"sum\""), std::string::npos) << read_text(records);
  // It was linked against the moved installation's libaugur, not the build tree's.
  const ProcessResult dynamic = run_process({"readelf", "-d", program.string()});
  ASSERT_TRUE(dynamic.succeeded()) << describe(dynamic);
  EXPECT_NE(dynamic.standard_output.find(libdir().string()), std::string::npos) << dynamic.standard_output;
  EXPECT_EQ(dynamic.standard_output.find(AUGUR_BUILD_DIR), std::string::npos) << dynamic.standard_output;
}

}  // namespace
