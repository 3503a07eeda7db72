// Unit tests of libaugur's settings read from the environment (a fake one: options_support.hpp): defaults,
// good and bad variables, one warning each, unknown AUGUR_* names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "options_support.hpp"
#include "runtime/options.hpp"

namespace augur::runtime {
namespace {

using test::expect_same_settings;
using test::FakeEnvironment;

std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto position = text.find(needle); position != std::string::npos; position = text.find(needle, position + 1)) ++count;
  return count;
}

// ---- settings_from_environment ---------------------------------------------------------------

TEST(RuntimeEnvironment, EmptyEnvironmentGivesDefaultsWithoutWarnings) {
  const FakeEnvironment environment;
  std::vector<std::string> warnings;
  const Settings settings = environment.load(warnings);
  EXPECT_TRUE(warnings.empty());
  expect_same_settings(settings, Settings{});
}

TEST(RuntimeEnvironment, GoodVariablesAreApplied) {
  FakeEnvironment environment;
  environment.variables = {{"AUGUR_BASELINE", "2"},    {"AUGUR_HISTORY", "0.25"}, {"AUGUR_SWEEP", "1,2"},
                           {"AUGUR_MODE", "time"},     {"AUGUR_REPORT", "/tmp/x.json"},
                           {"AUGUR_SUMMARY", "no"},    {"PATH", "/usr/bin"},      {"OMP_NUM_THREADS", "2"}};
  std::vector<std::string> warnings;
  const Settings settings = environment.load(warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(settings.engine.baseline.processors, 2);
  EXPECT_DOUBLE_EQ(settings.engine.history_weight, 0.25);
  EXPECT_EQ(settings.engine.sweep, (std::vector<int>{1, 2}));
  EXPECT_EQ(settings.mode, Mode::Time);
  EXPECT_EQ(settings.report_path, "/tmp/x.json");
  EXPECT_FALSE(settings.summary);
}

TEST(RuntimeEnvironment, BadBaselineWarnsOnceAndKeepsTheDefault) {
  FakeEnvironment environment;
  environment.variables = {{"AUGUR_BASELINE", "abc"}};
  std::vector<std::string> warnings;
  const Settings settings = environment.load(warnings);
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_NE(warnings[0].find("AUGUR_BASELINE"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("abc"), std::string::npos) << warnings[0];
  EXPECT_EQ(count_occurrences(warnings[0], "abc"), 1U) << warnings[0];
  EXPECT_NE(warnings[0].find("default (auto)"), std::string::npos) << warnings[0];
  expect_same_settings(settings, Settings{});
}

TEST(RuntimeEnvironment, OneWarningPerBadVariableOthersStillApplied) {
  FakeEnvironment environment;
  environment.variables = {{"AUGUR_BASELINE", "0"}, {"AUGUR_HISTORY", "2"}, {"AUGUR_SWEEP_EVERY", "5"}};
  std::vector<std::string> warnings;
  const Settings settings = environment.load(warnings);
  ASSERT_EQ(warnings.size(), 2U);
  const std::string all = warnings[0] + "\n" + warnings[1];
  EXPECT_EQ(count_occurrences(all, "AUGUR_BASELINE"), 1U) << all;
  EXPECT_EQ(count_occurrences(all, "AUGUR_HISTORY"), 1U) << all;
  EXPECT_EQ(settings.engine.baseline.processors, 4);
  EXPECT_DOUBLE_EQ(settings.engine.history_weight, 0.6);
  EXPECT_EQ(settings.engine.sweep_every, 5);
}

TEST(RuntimeEnvironment, EmptyDefaultIsNamedEmptyInTheWarning) {
  FakeEnvironment environment;
  environment.variables = {{"AUGUR_SWEEP", "1,,2"}};
  std::vector<std::string> warnings;
  const Settings settings = environment.load(warnings);
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_NE(warnings[0].find("AUGUR_SWEEP"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("'1,,2'"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("(empty)"), std::string::npos) << warnings[0];
  EXPECT_TRUE(settings.engine.sweep.empty());
}

TEST(RuntimeEnvironment, UnknownAugurVariableWarns) {
  FakeEnvironment environment;
  environment.variables = {{"AUGUR_FOO", "1"}, {"AUGUR_BASELINE", "2"}, {"NOT_AUGUR_FOO", "1"}};
  std::vector<std::string> warnings;
  const Settings settings = environment.load(warnings);
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_NE(warnings[0].find("AUGUR_FOO"), std::string::npos) << warnings[0];
  EXPECT_EQ(warnings[0].find("NOT_AUGUR_FOO"), std::string::npos) << warnings[0];
  EXPECT_EQ(settings.engine.baseline.processors, 2);
}

TEST(RuntimeEnvironment, EveryOptionVariableIsKnown) {
  FakeEnvironment environment;
  for (const OptionSpec& option : runtime_option_set().options) {
    environment.variables[environment_name(option.key)] = option.default_value;
  }
  std::vector<std::string> warnings;
  const Settings settings = environment.load(warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  expect_same_settings(settings, Settings{});
}

}  // namespace
}  // namespace augur::runtime
