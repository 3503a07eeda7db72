// The grammar every command shares (docs/cli.md), checked on the real binary: every command and subcommand
// of the command table (walked through `augur help-export tree`, not a list kept here) has the shared flags
// in its --help; suggestions after a mistyped command or option; --json=FILE; the man pages and the bash and
// zsh completion scripts the build generates.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_support.hpp"

namespace {

namespace fs = std::filesystem;
using augur::core::ProcessResult;
using augur::core::run_process;
using augur::e2e::contains;
using augur::e2e::describe;

const std::string augur_exe = AUGUR_EXE;
const fs::path generated = AUGUR_GENERATED_HELP_DIR;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) out.push_back(line);
  return out;
}

// Every command path below augur ("fit", "couple measure"), from the command table.
std::vector<std::string> command_paths() {
  const ProcessResult tree = run_process({augur_exe, "help-export", "tree"});
  EXPECT_EQ(tree.exit_code, 0) << describe(tree);
  return lines(tree.standard_output);
}

// The commands that run something: those without subcommands.
std::vector<std::string> leaf_paths() {
  const std::vector<std::string> all = command_paths();
  std::vector<std::string> leaves;
  for (const std::string& path : all) {
    bool parent = false;
    for (const std::string& other : all) parent = parent || other.rfind(path + " ", 0) == 0;
    if (!parent) leaves.push_back(path);
  }
  return leaves;
}

ProcessResult help_of(const std::string& path) {
  std::vector<std::string> argv = {augur_exe};
  std::istringstream words(path);
  for (std::string word; words >> word;) argv.push_back(word);
  argv.emplace_back("--help");
  return run_process(argv);
}

// The option lines of a --help text whose names include `name` ("--threads").
std::vector<std::string> option_lines(const std::string& help, const std::string& name) {
  std::vector<std::string> found;
  for (const std::string& line : lines(help)) {
    const std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || line[start] != '-') continue;
    const std::string names = line.substr(start, line.find(' ', start) - start);
    std::istringstream split(names);
    for (std::string each; std::getline(split, each, ',');) {
      if (each == name) found.push_back(line);
    }
  }
  return found;
}

TEST(CliGrammar, TheCommandTableHasEveryCommand) {
  const std::vector<std::string> paths = command_paths();
  const std::set<std::string> names(paths.begin(), paths.end());
  for (const char* expected : {"fit", "predict", "plot", "speedup", "run", "tspp", "sim", "couple measure", "couple report", "db list"}) {
    EXPECT_TRUE(names.count(expected)) << expected;
  }
  EXPECT_FALSE(names.count("help-export"));  // hidden: a tool of the build
}

TEST(CliGrammar, EveryCommandsHelpHasTheSharedFlags) {
  const std::vector<std::string> leaves = leaf_paths();
  ASSERT_GT(leaves.size(), 30u);
  for (const std::string& path : leaves) {
    SCOPED_TRACE("augur " + path + " --help");
    const ProcessResult result = help_of(path);
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    const std::string& help = result.standard_output;
    const auto json = option_lines(help, "--json");
    const auto output = option_lines(help, "--output");
    // A report in JSON, or a file of the command's own language (-o): every command has one of the two.
    EXPECT_TRUE(!json.empty() || !output.empty()) << help;
    for (const std::string& line : json) EXPECT_TRUE(contains(line, "--json [=FILE]")) << line;
    for (const std::string& line : option_lines(help, "--csv")) EXPECT_TRUE(contains(line, "--csv [=FILE]")) << line;
    for (const std::string& line : output) EXPECT_TRUE(contains(line, "-o,--output")) << line;
    for (const std::string& line : option_lines(help, "--threads")) EXPECT_TRUE(contains(line, "-p,--threads")) << line;
    for (const std::string& line : option_lines(help, "-p")) EXPECT_TRUE(contains(line, "-p,--threads")) << line;
  }
}

// The self-analyzer's baseline has one default, libaugur's registry entry, shown by every command that sets it.
TEST(CliGrammar, OneBaselineDefaultInEveryHelp) {
  for (const char* path : {"run", "speedup"}) {
    const std::string help = help_of(path).standard_output;
    const auto baseline = option_lines(help, "--baseline");
    ASSERT_EQ(baseline.size(), 1u) << path << ":\n" << help;
    EXPECT_TRUE(contains(baseline.front(), "--baseline N|auto|half")) << baseline.front();
    EXPECT_TRUE(contains(help, "(default auto) [AUGUR_BASELINE]")) << path << ":\n" << help;
  }
}

// The commands with long work show progress on a terminal, --progress forces lines, -q silences it.
TEST(CliGrammar, LongWorkHasProgressAndQuiet) {
  for (const char* path : {"speedup", "sim", "cache sim", "hierarchy sweep", "actors search", "actors tune", "couple measure", "fit",
                           "predict", "plot"}) {
    const std::string help = help_of(path).standard_output;
    EXPECT_EQ(option_lines(help, "--progress").size(), 1u) << path << ":\n" << help;
    EXPECT_EQ(option_lines(help, "-q").size(), 1u) << path << ":\n" << help;
  }
}

TEST(CliGrammar, DefaultsAreShownAfterTheType) {
  const ProcessResult fit = help_of("fit");
  EXPECT_TRUE(contains(fit.standard_output, "--aggregate TEXT=mean")) << fit.standard_output;
  const ProcessResult tspp = help_of("tspp");
  EXPECT_TRUE(contains(tspp.standard_output, "[1 - 1000000]=1")) << tspp.standard_output;  // -V: the bound of sim too
  const ProcessResult sim = help_of("sim");
  EXPECT_TRUE(contains(sim.standard_output, "[1 - 1000000]=1")) << sim.standard_output;
}

TEST(CliSuggestions, AugurAloneListsTheCommands) {
  const ProcessResult result = run_process({augur_exe});
  EXPECT_EQ(result.exit_code, 2);
  for (const std::string& path : leaf_paths()) {
    if (path.find(' ') == std::string::npos) {
      EXPECT_TRUE(contains(result.standard_error, "  " + path + " ")) << path << "\n" << result.standard_error;
    }
  }
}

TEST(CliSuggestions, AMistypedCommandGetsTheNearest) {
  const ProcessResult result = run_process({augur_exe, "fitt", "data.csv"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(contains(result.standard_error, "'fitt' is not a command; did you mean 'augur fit'?")) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "  couple ")) << describe(result);
  const ProcessResult far = run_process({augur_exe, "zzzzzzzz"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_FALSE(contains(far.standard_error, "did you mean")) << describe(far);
}

TEST(CliSuggestions, AMistypedOptionGetsTheNearestOfItsCommand) {
  const ProcessResult result = run_process({augur_exe, "fit", "data.csv", "--formul", "c[0]"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(contains(result.standard_error, "did you mean --formula?")) << describe(result);
  const ProcessResult sub = run_process({augur_exe, "couple", "report", "--all-chain"});
  EXPECT_EQ(sub.exit_code, 2);
  EXPECT_TRUE(contains(sub.standard_error, "did you mean --all-chains?")) << describe(sub);
}

TEST(CliSuggestions, AFormulaWithoutBracketsShowsTheRightForm) {
  augur::e2e::TemporaryDirectory folder;
  const fs::path data = folder.path() / "d.csv";
  augur::e2e::write_text(data, "P,time\n1,4\n2,3\n4,2.5\n");
  const ProcessResult result = run_process({augur_exe, "fit", data.string(), "--formula", "c0 + c1*P"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(contains(result.standard_error, "constants take brackets: c[0] + c[1] * P")) << describe(result);
}

TEST(CliJson, JsonToAFileIsWhatJsonPrints) {
  augur::e2e::TemporaryDirectory folder;
  const fs::path data = folder.path() / "d.csv";
  augur::e2e::write_text(data, "N,time\n1,3\n2,5\n3,7\n4,9\n");
  const ProcessResult printed = run_process({augur_exe, "fit", data.string(), "--formula", "c[0] + c[1]*N", "--json"});
  ASSERT_EQ(printed.exit_code, 0) << describe(printed);
  const fs::path file = folder.path() / "fit.json";
  const ProcessResult written = run_process({augur_exe, "fit", data.string(), "--formula", "c[0] + c[1]*N", "--json=" + file.string()});
  ASSERT_EQ(written.exit_code, 0) << describe(written);
  EXPECT_EQ(written.standard_output, "");
  EXPECT_EQ(augur::e2e::read_text(file), printed.standard_output);
  // Over its input: refused, the input intact.
  const ProcessResult over = run_process({augur_exe, "fit", data.string(), "--formula", "c[0] + c[1]*N", "--json=" + data.string()});
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_TRUE(contains(augur::e2e::read_text(data), "N,time")) << describe(over);
  // A command that fails writes nothing.
  const fs::path failed = folder.path() / "failed.json";
  const ProcessResult bad = run_process({augur_exe, "fit", data.string(), "--formula", "c0", "--json=" + failed.string()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_FALSE(fs::exists(failed));
}

TEST(CliJson, AnOptionalValueNeverTakesTheSeparatorOrTheProgram) {
  augur::e2e::TemporaryDirectory folder;
  // `augur run --json -- true`: the program is `true`, and no file named `--` (nor `true`) appears.
  const ProcessResult result =
      run_process({"sh", "-c", "cd \"$1\" && exec \"$0\" run --json -- true", augur_exe, folder.path().string()});
  EXPECT_EQ(result.exit_code, 1) << describe(result);  // parsed: `true` is the program, and not an OpenMP one
  EXPECT_TRUE(contains(result.standard_error, "true loads neither")) << describe(result);
  EXPECT_TRUE(fs::is_empty(folder.path())) << describe(result);
}

// augur tspp --csv and augur sim --csv: the rows of the times table, at full precision. The figures are the
// seed's Figure 12 (examples/tspp/figure11.out, three decimals).
TEST(CliCsv, TsppAndSimGiveTheTimesTable) {
  const std::string figure11 = std::string(AUGUR_EXAMPLES_DIR) + "/tspp/figure11.tspp";
  const ProcessResult tspp = run_process({augur_exe, "tspp", "--method", "mak-lundstrom", "--csv", figure11});
  ASSERT_EQ(tspp.exit_code, 0) << describe(tspp);
  const std::vector<std::string> rows = lines(tspp.standard_output);
  ASSERT_EQ(rows.size(), 8u) << tspp.standard_output;  // header, six tasks, the completion
  EXPECT_EQ(rows[0], "kind,name,start_mean,start_sd,residence_mean,residence_sd,end_mean,end_sd");
  auto field = [](const std::string& row, int index) {
    std::istringstream split(row);
    std::string value;
    for (int i = 0; i <= index; ++i) std::getline(split, value, ',');
    return value;
  };
  EXPECT_EQ(field(rows[3], 1), "task-3");
  EXPECT_NEAR(std::stod(field(rows[3], 2)), 2.635, 0.0005);  // start
  EXPECT_NEAR(std::stod(field(rows[3], 3)), 1.949, 0.0005);
  EXPECT_NEAR(std::stod(field(rows[3], 6)), 4.828, 0.0005);  // end
  EXPECT_EQ(field(rows[7], 0), "completion");
  EXPECT_EQ(field(rows[7], 2), "");
  EXPECT_NEAR(std::stod(field(rows[7], 6)), 6.393, 0.0005);
  EXPECT_NEAR(std::stod(field(rows[7], 7)), 2.840, 0.0005);
  EXPECT_EQ(run_process({augur_exe, "tspp", "--csv", "--json", figure11}).exit_code, 2);  // one or the other

  const ProcessResult sim = run_process({augur_exe, "sim", figure11, "--replications", "20", "-q", "--csv"});
  ASSERT_EQ(sim.exit_code, 0) << describe(sim);
  const std::vector<std::string> simulated = lines(sim.standard_output);
  ASSERT_EQ(simulated.size(), 8u) << sim.standard_output;
  EXPECT_EQ(simulated[0], rows[0]);
  EXPECT_EQ(field(simulated[1], 2), "0");  // task-1 starts at 0 in every replication
}

TEST(CliManPages, OnePerCommandFromItsHelp) {
  for (const std::string& path : command_paths()) {
    std::string name = "augur-" + path;
    for (char& c : name) c = c == ' ' ? '-' : c;
    const fs::path page = generated / "man" / "man1" / (name + ".1");
    ASSERT_TRUE(fs::exists(page)) << page;
    const std::string text = augur::e2e::read_text(page);
    EXPECT_TRUE(contains(text, ".SH SYNOPSIS") && contains(text, ".SH OPTIONS")) << page;
  }
  const std::string fit = augur::e2e::read_text(generated / "man" / "man1" / "augur-fit.1");
  EXPECT_TRUE(contains(fit, ".B \\-\\-formula")) << fit;
  EXPECT_TRUE(contains(fit, "(default: mean)")) << fit;
  EXPECT_TRUE(fs::exists(generated / "man" / "man1" / "augur.1"));
}

// What the bash script completes `words` (the last one being completed) to.
std::string bash_complete(const std::string& words) {
  const std::string script = (generated / "bash-completion" / "completions" / "augur").string();
  const ProcessResult result = run_process(
      {"bash", "-c", "source \"$1\"; COMP_WORDS=($2); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _augur; echo \"${COMPREPLY[*]}\"",
       "bash", script, words});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  return result.standard_output;
}

TEST(CliCompletion, BashCompletesCommandsAndOptions) {
  EXPECT_EQ(bash_complete("augur fi"), "fit\n");
  EXPECT_EQ(bash_complete("augur fit --for"), "--formula --format\n");  // both begin so
  EXPECT_EQ(bash_complete("augur fit --formu"), "--formula\n");
  EXPECT_EQ(bash_complete("augur couple m"), "measure\n");
  EXPECT_TRUE(contains(bash_complete("augur couple measure --ou"), "--output")) << bash_complete("augur couple measure --ou");
  EXPECT_EQ(bash_complete("augur run -p 2 --one"), "--one-run\n");
}

// The candidates the zsh function offers for `words` (compadd and _files stood in for: the function's
// choice is what is tested; zsh filters by the prefix itself).
std::string zsh_candidates(const std::string& words, const std::string& prefix) {
  const std::string script = (generated / "zsh" / "site-functions" / "_augur").string();
  const ProcessResult result = run_process(
      {"zsh", "-c",
       "compdef() { :; }; compadd() { [[ $1 == -a ]] && print -l -- ${(P)2}; }; _files() { print files; }; source \"$1\"; "
       "words=(${=2}); CURRENT=${#words}; PREFIX=$3; _augur",
       "zsh", script, words, prefix});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  return result.standard_output;
}

TEST(CliCompletion, ZshOffersCommandsAndOptions) {
  const std::string script = (generated / "zsh" / "site-functions" / "_augur").string();
  const ProcessResult syntax = run_process({"zsh", "-n", script});
  ASSERT_EQ(syntax.exit_code, 0) << describe(syntax);
  EXPECT_TRUE(contains(zsh_candidates("augur fi", "fi"), "\nfit\n")) << zsh_candidates("augur fi", "fi");
  EXPECT_TRUE(contains(zsh_candidates("augur fit --for", "--for"), "\n--formula\n")) << zsh_candidates("augur fit --for", "--for");
  EXPECT_EQ(zsh_candidates("augur run -- ./a", "./a"), "files\n");
}

// `augur options` lists, after the sets' tables, the variables that are no option of a set; one set alone
// does not.
TEST(CliOptions, TheVariablesOutsideTheSetsAreListed) {
  const ProcessResult all = run_process({augur_exe, "options"});
  ASSERT_EQ(all.exit_code, 0) << describe(all);
  for (const char* name : {"AUGUR_DB  read by the augur command", "AUGUR_CORE_BINDING  read by", "AUGUR_SPIN_SAMPLING  read by libaugur_preload.so"})
    EXPECT_TRUE(contains(all.standard_output, name)) << name << "\n" << all.standard_output;
  EXPECT_TRUE(contains(all.standard_output, "\nother variables (")) << all.standard_output;
  const ProcessResult run = run_process({augur_exe, "options", "--set", "run"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_FALSE(contains(run.standard_output, "other variables")) << run.standard_output;
}

}  // namespace
