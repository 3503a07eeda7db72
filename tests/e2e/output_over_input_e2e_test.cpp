// An output never replaces an input of the same command (docs/formats.md, "Output files"): every command
// with an input and an output file refuses, before any work, an output that is the same file as an input
// (same device and inode: the same name, a symbolic link, a hard link, standard input), with status 1 and a
// message that names both, and leaves the input as it was. Before, `augur db export --db perf.db -o perf.db`
// replaced the database with CSV and exited 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "output_support.hpp"

namespace {

using namespace augur::e2e;
namespace fs = std::filesystem;

const std::string augur_exe = AUGUR_EXE;
const std::string examples = AUGUR_EXAMPLES_DIR;

class OutputOverInput : public ::testing::Test {
 protected:
  OutputOverInput() { fs::create_directories(work); }

  Outcome augur(const std::vector<std::string>& arguments, const std::string& standard_input = "",
                const std::vector<std::string>& environment = {}) {
    std::vector<std::string> variables = environment;
    for (const std::string& fallback : {"TMPDIR=" + directory.path().string(), std::string("AUGUR_DB=")}) {
      const std::string name = fallback.substr(0, fallback.find('=') + 1);
      if (std::none_of(variables.begin(), variables.end(),
                       [&](const std::string& given) { return given.rfind(name, 0) == 0; })) {
        variables.push_back(fallback);
      }
    }
    return run_augur(augur_exe, {arguments, standard_input, -1, false, variables}, directory.path() / "logs");
  }
  // `command` refused with status 1 and "augur COMMAND: the output OUTPUT is the input INPUT ...", every file
  // of the work folder as it was.
  void expect_refused(const std::vector<std::string>& arguments, const std::string& output, const std::string& input,
                      const std::string& standard_input = "", const std::vector<std::string>& environment = {}) {
    std::vector<std::pair<std::string, std::string>> before;
    for (const std::string& name : names_in(work)) before.emplace_back(name, read_text(work / name));
    const Outcome outcome = augur(arguments, standard_input, environment);
    const std::string& command = arguments.front();
    EXPECT_EQ(outcome.exit_code, 1) << describe(outcome);
    EXPECT_EQ(outcome.standard_output, "") << describe(outcome);
    EXPECT_EQ(outcome.standard_error,
              "augur " + command + ": the output " + output + " is the input " + input +
                  " (the same file): an output never replaces an input of the same command; nothing written\n");
    std::vector<std::pair<std::string, std::string>> after;
    for (const std::string& name : names_in(work)) after.emplace_back(name, read_text(work / name));
    EXPECT_EQ(after, before) << "the folder changed";
  }
  std::string copy(const fs::path& from, const std::string& name) {
    fs::copy_file(from, work / name);
    return (work / name).string();
  }

  TemporaryDirectory directory{"augur-output-input-test"};
  fs::path work = directory.path() / "work";
};

TEST_F(OutputOverInput, DbExportRefusesTheDatabase) {
  const std::string database = (work / "perf.db").string();
  const Outcome added = augur({"db", "add", "--db", database, examples + "/db/toy-S.coupling.jsonl"});
  ASSERT_EQ(added.exit_code, 0) << describe(added);
  expect_refused({"db", "export", "--db", database, "--table", "runs", "-o", database}, database, database);
  fs::create_symlink("perf.db", work / "runs.csv");
  const std::string link = (work / "runs.csv").string();
  expect_refused({"db", "export", "--db", database, "--table", "runs", "-o", link}, link, database);
  expect_refused({"db", "export", "--table", "runs", "-o", link}, link, database, "", {"AUGUR_DB=" + database});
  const Outcome listed = augur({"db", "list", "--db", database});  // still a database
  EXPECT_EQ(listed.exit_code, 0) << describe(listed);
}

TEST_F(OutputOverInput, SimRefusesItsTaskSystemAsTheTrace) {
  const std::string system = copy(examples + "/tspp/figure11.tspp", "figure11.tspp");
  expect_refused({"sim", system, "-r", "2", "-q", "--trace", system}, system, system);
  fs::create_hard_link(system, work / "trace.json");
  const std::string hard_link = (work / "trace.json").string();
  expect_refused({"sim", system, "-r", "2", "-q", "--trace", hard_link}, hard_link, system);
  expect_refused({"sim", "-r", "2", "-q", "--trace", system}, system, "on standard input", system);
}

TEST_F(OutputOverInput, PlotRefusesItsDataAsThePicture) {
  const std::string data = copy(examples + "/model/fft_t3e.csv", "fft.svg");  // CSV, whatever its name
  expect_refused({"plot", data, "--format", "csv", "--formula", "c[0] + c[1]/P", "-o", data}, data, data);
}

TEST_F(OutputOverInput, CcRefusesItsSourceAsTheTranslation) {
  const std::string source = copy(examples + "/cc/fft_call.c", "fft_call.c");
  expect_refused({"cc", source, "-o", source}, source, source);
  fs::create_symlink("fft_call.c", work / "translated.c");
  const std::string link = (work / "translated.c").string();
  expect_refused({"cc", source, "-o", link}, link, source);
}

TEST_F(OutputOverInput, RunRefusesItsProgramAsTheReport) {
  const std::string program = copy(AUGUR_SWIM_PLAIN_EXE, "swim-plain");
  fs::permissions(program, fs::perms::owner_all);
  expect_refused({"run", "--json=" + program, "--", program, "64", "2"}, program, program);
}

TEST_F(OutputOverInput, CoupleMeasureRefusesItsProgramAndDatabaseAsTheSavedFile) {
  const std::string database = (work / "perf.db").string();
  const Outcome added = augur({"db", "add", "--db", database, examples + "/db/toy-S.coupling.jsonl"});
  ASSERT_EQ(added.exit_code, 0) << describe(added);
  expect_refused({"couple", "measure", "--db", database, "--save", database, "--", "true"}, database, database);
  const std::string program = copy("/bin/true", "true");
  fs::permissions(program, fs::perms::owner_all);
  expect_refused({"couple", "measure", "--no-db", "--save", program, "--", program}, program, program);
}

}  // namespace
