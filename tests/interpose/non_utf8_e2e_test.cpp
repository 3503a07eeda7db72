// Issue 15, item 12: a program whose path is not UTF-8 (a folder named in Latin-1) once lost its
// measurement: libaugur wrote no AUGUR_REPORT (nlohmann's type_error.316 on the path), and `augur run`
// failed on the interposition file (parse_error.101: the module path written raw). Both are written with
// U+FFFD in place of each invalid byte, and read back.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/files.hpp"
#include "core/process.hpp"
#include "support/self_analysis_runs.hpp"
#include "support/temporary_directory.hpp"

namespace {

namespace fs = std::filesystem;
using augur::core::ProcessResult;
using nlohmann::json;

const std::string replacement = "\xef\xbf\xbd";  // U+FFFD in UTF-8

std::string describe(const ProcessResult& result) {
  return result.describe_status() + "\n--- stdout ---\n" + result.standard_output + "--- stderr ---\n" +
         result.standard_error;
}

// A copy of `program` in a folder "caf\xe9" (Latin-1 é, not UTF-8) of `directory`.
fs::path copy_to_latin1_folder(const augur::test::TemporaryDirectory& directory, const std::string& program) {
  const fs::path folder = directory.path() / "caf\xe9";
  fs::create_directory(folder);
  const fs::path copy = folder / fs::path(program).filename();
  fs::copy_file(program, copy);
  fs::permissions(copy, fs::perms::owner_exec, fs::perm_options::add);
  return copy;
}

TEST(NonUtf8, AnInstrumentedProgramAtSuchAPathWritesItsReport) {
  const augur::test::TemporaryDirectory directory("augur-non-utf8");
  const fs::path program = copy_to_latin1_folder(directory, AUGUR_SWIM_EXE);
  const std::string report = directory.file("report.json");
  augur::core::ProcessOptions options = augur::test::clean_environment();
  options.environment.insert(options.environment.end(),
                             {{"OMP_NUM_THREADS", "2"}, {"AUGUR_REPORT", report}, {"AUGUR_SUMMARY", "0"}});
  const ProcessResult result = augur::core::run_process({program.string(), "64", "20"}, options);
  ASSERT_TRUE(result.succeeded()) << describe(result);
  EXPECT_EQ(result.standard_error.find("AUGUR_REPORT"), std::string::npos) << describe(result);
  ASSERT_TRUE(fs::exists(report)) << "no report written\n" << describe(result);
  const json document = json::parse(augur::core::read_file(report));
  EXPECT_EQ(document.at("program").get<std::string>(), (directory.path() / ("caf" + replacement) / "swim").string());
  EXPECT_FALSE(document.at("regions").empty());
}

TEST(NonUtf8, AugurRunMeasuresAProgramAtSuchAPath) {
  const augur::test::TemporaryDirectory directory("augur-non-utf8");
  const fs::path program = copy_to_latin1_folder(directory, AUGUR_SWIM_PLAIN_EXE);
  const std::string output = directory.file("run.json");
  const ProcessResult result = augur::core::run_process(
      {AUGUR_EXE, "run", "-p", "2", "--baseline", "1", "--json=" + output, "--", program.string(), "128", "200"},
      augur::test::clean_environment());
  ASSERT_TRUE(result.succeeded()) << describe(result);
  EXPECT_EQ(result.standard_error.find("json.exception"), std::string::npos) << describe(result);
  const json document = json::parse(augur::core::read_file(output));
  const std::string expected = (directory.path() / ("caf" + replacement) / "swim-plain").string();
  EXPECT_EQ(document.at("program").get<std::string>(), expected);
  const json& loops = document.at("interpose").at("regions").at(0).at("loops");
  ASSERT_FALSE(loops.empty());
  EXPECT_EQ(loops.at(0).at("module").get<std::string>(), expected);
}

}  // namespace
