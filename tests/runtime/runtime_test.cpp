// Unit tests of the option registries (src/runtime/options.{hpp,cpp}): pure functions, no OpenMP, no
// environment of this process (resolve_options gets a fake lookup); and the docs' tables against them.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/options.hpp"

namespace augur::runtime {
namespace {

using selfanalysis::BaselinePolicy;

// The keys include/augur/augur.h documents for augur_set_option.
const std::vector<std::string> documented_keys = {"mode",        "baseline", "warmup_iterations", "baseline_iterations", "measure_iterations", "baseline_every",
                                                  "history",     "sweep",    "sweep_every",         "self_tuning",
                                                  "report",      "summary",  "watch_sigcont",       "manager",
                                                  "experiment_file", "counters", "bsp_trace", "trace"};

std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto position = text.find(needle); position != std::string::npos; position = text.find(needle, position + 1)) ++count;
  return count;
}

// Applies one option to default settings and returns the error (nullopt when accepted).
std::optional<std::string> apply(std::string_view key, std::string_view value) {
  Settings settings;
  return apply_option(settings, key, value);
}

// The fields of two Settings that options set, compared one by one (Settings has no operator==).
void expect_same_settings(const Settings& actual, const Settings& expected) {
  EXPECT_EQ(actual.mode, expected.mode);
  EXPECT_EQ(actual.engine.baseline.kind, expected.engine.baseline.kind);
  EXPECT_EQ(actual.engine.baseline.processors, expected.engine.baseline.processors);
  EXPECT_EQ(actual.engine.warmup_iterations, expected.engine.warmup_iterations);
  EXPECT_EQ(actual.engine.baseline_iterations, expected.engine.baseline_iterations);
  EXPECT_EQ(actual.engine.measure_iterations, expected.engine.measure_iterations);
  EXPECT_EQ(actual.engine.baseline_every, expected.engine.baseline_every);
  EXPECT_EQ(actual.engine.history_weight, expected.engine.history_weight);
  EXPECT_EQ(actual.engine.sweep, expected.engine.sweep);
  EXPECT_EQ(actual.engine.sweep_every, expected.engine.sweep_every);
  EXPECT_EQ(actual.engine.self_tuning, expected.engine.self_tuning);
  EXPECT_EQ(actual.report_path, expected.report_path);
  EXPECT_EQ(actual.summary, expected.summary);
  EXPECT_EQ(actual.watch_sigcont, expected.watch_sigcont);
  EXPECT_EQ(actual.experiment_file, expected.experiment_file);
  EXPECT_EQ(actual.counters, expected.counters);
  EXPECT_EQ(actual.bsp_trace, expected.bsp_trace);
  EXPECT_EQ(actual.trace, expected.trace);
}

// A fake environment: a map of variables, looked up by name.
struct FakeEnvironment {
  std::map<std::string, std::string> variables;

  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> list;
    for (const auto& [name, value] : variables) list.push_back(name);
    return list;
  }
  [[nodiscard]] const char* lookup(const char* name) const {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  }
  [[nodiscard]] OptionSources sources() const {
    OptionSources result;
    result.environment = [this](const char* name) { return lookup(name); };
    const auto tool = variables.find(std::string(tool_channel_variable));
    result.tool_channel = tool == variables.end() ? nullptr : tool->second.c_str();
    return result;
  }
  // As libaugur loads its settings: unknown names, then the runtime set.
  Settings load(std::vector<std::string>& warnings) const {
    const OptionSources from = sources();
    check_variables(names(), from.tool_channel, warnings);
    return settings_from(resolve_options(runtime_option_set(), from, warnings));
  }
};

// ---- apply_option --------------------------------------------------------------------------

TEST(RuntimeOptions, BaselineAcceptsCountsAndHalf) {
  Settings settings;
  ASSERT_EQ(apply_option(settings, "baseline", "1"), std::nullopt);
  EXPECT_EQ(settings.engine.baseline.kind, BaselinePolicy::Kind::Fixed);
  EXPECT_EQ(settings.engine.baseline.processors, 1);

  ASSERT_EQ(apply_option(settings, "baseline", "4"), std::nullopt);
  EXPECT_EQ(settings.engine.baseline.kind, BaselinePolicy::Kind::Fixed);
  EXPECT_EQ(settings.engine.baseline.processors, 4);

  ASSERT_EQ(apply_option(settings, "baseline", "half"), std::nullopt);
  EXPECT_EQ(settings.engine.baseline.kind, BaselinePolicy::Kind::Half);

  ASSERT_EQ(apply_option(settings, "baseline", "auto"), std::nullopt);
  EXPECT_EQ(settings.engine.baseline.kind, BaselinePolicy::Kind::Automatic);

  ASSERT_EQ(apply_option(settings, "baseline", "4096"), std::nullopt);
  EXPECT_EQ(settings.engine.baseline.kind, BaselinePolicy::Kind::Fixed);
  EXPECT_EQ(settings.engine.baseline.processors, 4096);
}

TEST(RuntimeOptions, BaselineRejectsZeroWordsAndHugeCounts) {
  for (const char* bad : {"0", "abc", "5000", "-1", "", "2x", " 2", "1.5"}) {
    Settings settings;
    const auto error = apply_option(settings, "baseline", bad);
    ASSERT_TRUE(error.has_value()) << "baseline '" << bad << "' was accepted";
    EXPECT_NE(error->find(std::string("'") + bad + "'"), std::string::npos) << "the message does not name the value: " << *error;
    // A rejected value leaves the settings as they were: the default, min(4, P/2).
    EXPECT_EQ(settings.engine.baseline.kind, BaselinePolicy::Kind::Automatic);
  }
}

TEST(RuntimeOptions, RejectedValueLeavesEarlierSettingsUnchanged) {
  Settings settings;
  ASSERT_EQ(apply_option(settings, "baseline", "2"), std::nullopt);
  ASSERT_EQ(apply_option(settings, "sweep", "1,2"), std::nullopt);
  EXPECT_TRUE(apply_option(settings, "baseline", "abc").has_value());
  EXPECT_TRUE(apply_option(settings, "sweep", "1,x").has_value());
  EXPECT_EQ(settings.engine.baseline.processors, 2);
  EXPECT_EQ(settings.engine.sweep, (std::vector<int>{1, 2}));
}

TEST(RuntimeOptions, HistoryAcceptsWeightsInHalfOpenUnitInterval) {
  Settings settings;
  ASSERT_EQ(apply_option(settings, "history", "0.6"), std::nullopt);
  EXPECT_DOUBLE_EQ(settings.engine.history_weight, 0.6);
  ASSERT_EQ(apply_option(settings, "history", "0"), std::nullopt);
  EXPECT_DOUBLE_EQ(settings.engine.history_weight, 0.0);
  ASSERT_EQ(apply_option(settings, "history", "0.99"), std::nullopt);
  EXPECT_DOUBLE_EQ(settings.engine.history_weight, 0.99);
}

TEST(RuntimeOptions, HistoryRejectsOneNegativeAndWords) {
  for (const char* bad : {"1", "-0.1", "2", "abc", "", "nan", "inf", "0.5x"}) {
    const auto error = apply("history", bad);
    ASSERT_TRUE(error.has_value()) << "history '" << bad << "' was accepted";
    EXPECT_NE(error->find(std::string("'") + bad + "'"), std::string::npos) << *error;
  }
}

TEST(RuntimeOptions, SweepParsesCommaSeparatedCounts) {
  Settings settings;
  ASSERT_EQ(apply_option(settings, "sweep", "1,2,4"), std::nullopt);
  EXPECT_EQ(settings.engine.sweep, (std::vector<int>{1, 2, 4}));
  ASSERT_EQ(apply_option(settings, "sweep", "3"), std::nullopt);
  EXPECT_EQ(settings.engine.sweep, (std::vector<int>{3}));
  // Empty (the default) and "off" turn the sweep off.
  ASSERT_EQ(apply_option(settings, "sweep", ""), std::nullopt);
  EXPECT_TRUE(settings.engine.sweep.empty());
  ASSERT_EQ(apply_option(settings, "sweep", "1,2"), std::nullopt);
  ASSERT_EQ(apply_option(settings, "sweep", "off"), std::nullopt);
  EXPECT_TRUE(settings.engine.sweep.empty());
}

TEST(RuntimeOptions, SweepRejectsEmptyItemsTrailingCommasAndWords) {
  for (const char* bad : {"1,,2", "1,2,", "x", ",1", "0", "1,5000", "1;2"}) {
    Settings settings;
    const auto error = apply_option(settings, "sweep", bad);
    ASSERT_TRUE(error.has_value()) << "sweep '" << bad << "' was accepted";
    EXPECT_NE(error->find(std::string("'") + bad + "'"), std::string::npos) << *error;
    EXPECT_TRUE(settings.engine.sweep.empty()) << "a rejected sweep '" << bad << "' changed the settings";
  }
}

TEST(RuntimeOptions, SweepEveryNeedsAtLeastTwoIterations) {
  Settings settings;
  ASSERT_EQ(apply_option(settings, "sweep_every", "2"), std::nullopt);
  EXPECT_EQ(settings.engine.sweep_every, 2);
  ASSERT_EQ(apply_option(settings, "sweep_every", "25"), std::nullopt);
  EXPECT_EQ(settings.engine.sweep_every, 25);
  for (const char* bad : {"1", "0", "-3", "ten", ""}) {
    const auto error = apply_option(settings, "sweep_every", bad);
    ASSERT_TRUE(error.has_value()) << "sweep_every '" << bad << "' was accepted";
    EXPECT_NE(error->find(std::string("'") + bad + "'"), std::string::npos) << *error;
  }
  EXPECT_EQ(settings.engine.sweep_every, 25);
}

TEST(RuntimeOptions, WarmUpMayBeZeroButNotNegative) {
  Settings settings;
  ASSERT_EQ(apply_option(settings, "warmup_iterations", "0"), std::nullopt);
  EXPECT_EQ(settings.engine.warmup_iterations, 0);
  ASSERT_EQ(apply_option(settings, "warmup_iterations", "50"), std::nullopt);
  EXPECT_EQ(settings.engine.warmup_iterations, 50);
  for (const char* bad : {"-1", "some", ""}) {
    const auto error = apply_option(settings, "warmup_iterations", bad);
    ASSERT_TRUE(error.has_value()) << "warmup_iterations '" << bad << "' was accepted";
  }
  EXPECT_EQ(settings.engine.warmup_iterations, 50);
}

TEST(RuntimeOptions, IterationCountsArePositive) {
  for (const char* key : {"baseline_iterations", "measure_iterations"}) {
    Settings settings;
    ASSERT_EQ(apply_option(settings, key, "1"), std::nullopt) << key;
    ASSERT_EQ(apply_option(settings, key, "7"), std::nullopt) << key;
    const int value = std::string(key) == "baseline_iterations" ? settings.engine.baseline_iterations
                                                                : settings.engine.measure_iterations;
    EXPECT_EQ(value, 7) << key;
    for (const char* bad : {"0", "-1", "many", ""}) {
      const auto error = apply_option(settings, key, bad);
      ASSERT_TRUE(error.has_value()) << key << " '" << bad << "' was accepted";
      EXPECT_NE(error->find(std::string("'") + bad + "'"), std::string::npos) << *error;
    }
  }
}

TEST(RuntimeOptions, BooleansAcceptTheUsualSpellings) {
  struct Case {
    const char* text;
    bool value;
  };
  const Case cases[] = {{"1", true},     {"0", false},   {"true", true}, {"false", false}, {"yes", true},
                        {"no", false},   {"on", true},   {"off", false}, {"TRUE", true},   {"Off", false}};
  for (const char* key : {"self_tuning", "summary", "watch_sigcont"}) {
    for (const Case& item : cases) {
      Settings settings;
      // Start from the opposite value so that the assignment is visible.
      settings.engine.self_tuning = settings.summary = settings.watch_sigcont = !item.value;
      ASSERT_EQ(apply_option(settings, key, item.text), std::nullopt) << key << "=" << item.text;
      const bool actual = std::string(key) == "self_tuning" ? settings.engine.self_tuning
                          : std::string(key) == "summary"   ? settings.summary
                                                            : settings.watch_sigcont;
      EXPECT_EQ(actual, item.value) << key << "=" << item.text;
    }
    for (const char* bad : {"2", "maybe", "", "y"}) {
      const auto error = apply(key, bad);
      ASSERT_TRUE(error.has_value()) << key << " '" << bad << "' was accepted";
      EXPECT_NE(error->find(std::string("'") + bad + "'"), std::string::npos) << *error;
    }
  }
}

TEST(RuntimeOptions, ModeAcceptsAnalyzeTimeAndOff) {
  Settings settings;
  ASSERT_EQ(apply_option(settings, "mode", "time"), std::nullopt);
  EXPECT_EQ(settings.mode, Mode::Time);
  ASSERT_EQ(apply_option(settings, "mode", "off"), std::nullopt);
  EXPECT_EQ(settings.mode, Mode::Off);
  ASSERT_EQ(apply_option(settings, "mode", "analyze"), std::nullopt);
  EXPECT_EQ(settings.mode, Mode::Analyze);
  for (const char* bad : {"fast", "", "analyse", "1"}) {
    const auto error = apply_option(settings, "mode", bad);
    ASSERT_TRUE(error.has_value()) << "mode '" << bad << "' was accepted";
    EXPECT_NE(error->find(std::string("'") + bad + "'"), std::string::npos) << *error;
  }
  EXPECT_EQ(settings.mode, Mode::Analyze);
  EXPECT_STREQ(mode_name(Mode::Analyze), "analyze");
  EXPECT_STREQ(mode_name(Mode::Time), "time");
  EXPECT_STREQ(mode_name(Mode::Off), "off");
}

TEST(RuntimeOptions, ReportTakesAnyPath) {
  Settings settings;
  ASSERT_EQ(apply_option(settings, "report", "/tmp/augur-%p.json"), std::nullopt);
  EXPECT_EQ(settings.report_path, "/tmp/augur-%p.json");
  ASSERT_EQ(apply_option(settings, "report", ""), std::nullopt);
  EXPECT_EQ(settings.report_path, "");
}

TEST(RuntimeOptions, UnknownKeyIsRejectedAndNamed) {
  for (const char* key : {"basline", "", "BASELINE", "AUGUR_BASELINE"}) {
    const auto error = apply(key, "1");
    ASSERT_TRUE(error.has_value()) << "key '" << key << "' was accepted";
    EXPECT_NE(error->find(std::string("'") + key + "'"), std::string::npos) << *error;
    // The message lists the known keys.
    EXPECT_NE(error->find("baseline"), std::string::npos) << *error;
  }
}

// ---- environment_name and the option table ---------------------------------------------------

TEST(RuntimeOptions, EnvironmentNameIsUpperCaseWithPrefix) {
  EXPECT_EQ(environment_name("baseline"), "AUGUR_BASELINE");
  EXPECT_EQ(environment_name("sweep_every"), "AUGUR_SWEEP_EVERY");
  EXPECT_EQ(environment_name("watch_sigcont"), "AUGUR_WATCH_SIGCONT");
}

TEST(RuntimeOptions, TableListsEveryDocumentedKeyOnce) {
  std::vector<std::string> keys;
  for (const OptionSpec& option : runtime_option_set().options) {
    EXPECT_FALSE(option.help.empty()) << option.key;
    keys.emplace_back(option.key);
  }
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size()) << "a key is listed twice";
  std::vector<std::string> sorted_keys = keys;
  std::vector<std::string> sorted_documented = documented_keys;
  std::sort(sorted_keys.begin(), sorted_keys.end());
  std::sort(sorted_documented.begin(), sorted_documented.end());
  EXPECT_EQ(sorted_keys, sorted_documented);
}

TEST(RuntimeOptions, EveryTableDefaultIsAcceptedAndMatchesTheBuiltInDefault) {
  Settings settings;
  for (const OptionSpec& option : runtime_option_set().options) {
    EXPECT_EQ(apply_option(settings, option.key, option.default_value), std::nullopt)
        << option.key << " rejects its own default '" << option.default_value << "'";
  }
  // Applying every documented default gives the defaults of a fresh Settings.
  expect_same_settings(settings, Settings{});
}

TEST(RuntimeOptions, EveryDocumentedKeyIsAcceptedByApplyOption) {
  for (const std::string& key : documented_keys) {
    const OptionSpec* found = find_option(runtime_option_set(), key);
    ASSERT_NE(found, nullptr) << key << " is not in the table";
    Settings settings;
    EXPECT_EQ(apply_option(settings, key, found->default_value), std::nullopt) << key;
  }
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

TEST(RuntimeOptions, ExperimentOptions) {
  Settings settings;
  EXPECT_EQ(settings.experiment_file, "%n.cll.jsonl");
  EXPECT_FALSE(apply_option(settings, "experiment_file", "runs/fft.%p.jsonl"));
  EXPECT_EQ(settings.experiment_file, "runs/fft.%p.jsonl");
  EXPECT_TRUE(apply_option(settings, "experiment_file", ""));
  EXPECT_EQ(settings.experiment_file, "runs/fft.%p.jsonl");

  EXPECT_FALSE(apply_option(settings, "counters", "PAPI_TOT_CYC,PAPI_L1_DCM"));
  EXPECT_EQ(settings.counters, (std::vector<std::string>{"PAPI_TOT_CYC", "PAPI_L1_DCM"}));
  EXPECT_FALSE(apply_option(settings, "counters", ""));
  EXPECT_TRUE(settings.counters.empty());
  for (const char* bad : {"PAPI_TOT_CYC,", ",PAPI_TOT_CYC", "PAPI TOT", "a,b,c,d,e,f,g,h,i"}) {
    Settings unchanged;
    unchanged.counters = {"X"};
    const auto error = apply_option(unchanged, "counters", bad);
    EXPECT_TRUE(error) << bad;
    EXPECT_EQ(unchanged.counters, std::vector<std::string>{"X"}) << bad;
  }
  EXPECT_FALSE(apply_option(settings, "bsp_trace", "fft.bsp.jsonl"));
  EXPECT_EQ(settings.bsp_trace, "fft.bsp.jsonl");
}


// ---- the registries: names derived from the key ---------------------------------------------------

TEST(OptionRegistry, NamesDeriveFromTheKeyByOneRule) {
  EXPECT_EQ(environment_name("coupling.min_time"), "AUGUR_COUPLING_MIN_TIME");
  EXPECT_EQ(environment_name("dpd.window"), "AUGUR_DPD_WINDOW");
  EXPECT_EQ(environment_name("some-key"), "AUGUR_SOME_KEY");
  const auto entry = [](const OptionSet& set, std::string_view key) -> const OptionSpec& {
    const OptionSpec* option = find_option(set, key);
    EXPECT_NE(option, nullptr) << key;
    return *option;
  };
  EXPECT_EQ(api_key(coupling_option_set(), entry(coupling_option_set(), "min_time")), "min_time");
  EXPECT_EQ(entry(coupling_option_set(), "min_time").key, "coupling.min_time");
  EXPECT_EQ(flag_name(runtime_option_set(), entry(runtime_option_set(), "warmup_iterations")), "--warmup-iterations");
  EXPECT_EQ(flag_name(coupling_option_set(), entry(coupling_option_set(), "application_samples")), "--application-samples");
  EXPECT_EQ(flag_name(run_option_set(), entry(run_option_set(), "dpd.window")), "--dpd-window");
  EXPECT_EQ(flag_name(run_option_set(), entry(run_option_set(), "iterations")), "--iterations");
  EXPECT_EQ(find_full_key("run.info").first, &run_option_set());
  EXPECT_EQ(find_full_key("info").second, nullptr);  // a full key, not an API key
  EXPECT_EQ(find_option_set("coupling"), &coupling_option_set());
  EXPECT_EQ(find_option_set("nothing"), nullptr);
}

TEST(OptionRegistry, EveryVariableIsUniqueAndEveryDefaultValid) {
  std::set<std::string> variables;
  for (const OptionSet* set : option_sets()) {
    for (const OptionSpec& option : set->options) {
      EXPECT_TRUE(variables.insert(environment_name(option.key)).second) << option.key << " twice";
      EXPECT_EQ(check_value(option, option.default_value), std::nullopt) << option.key;
      EXPECT_TRUE(option.key.starts_with(set->prefix) || set->name == "run") << option.key;
      EXPECT_FALSE(option.help.empty()) << option.key;
    }
  }
}

// ---- parsing by type, and ranges ---------------------------------------------------------------------

std::optional<std::string> check(const OptionSet& set, std::string_view key, std::string_view value) {
  const OptionSpec* option = find_option(set, key);
  if (option == nullptr) return "no option " + std::string(key);
  return check_value(*option, value);
}

TEST(OptionRegistry, RealsHonourOpenAndClosedBounds) {
  const OptionSet& coupling = coupling_option_set();
  for (const char* good : {"0.001", "3600", "1e-3"}) EXPECT_EQ(check(coupling, "min_time", good), std::nullopt) << good;
  for (const char* bad : {"0", "-1", "3600.5", "1e300", "inf", "nan", "", "0.1s", "0,1"}) {
    const auto error = check(coupling, "min_time", bad);
    ASSERT_TRUE(error.has_value()) << bad;
    EXPECT_NE(error->find("(0, 3600]"), std::string::npos) << *error;
  }
  EXPECT_EQ(check(runtime_option_set(), "history", "0"), std::nullopt);  // [0, 1)
  EXPECT_TRUE(check(runtime_option_set(), "history", "1").has_value());
}

TEST(OptionRegistry, ChainSpansAreWhatTheHarnessReads) {
  // The harness reads the span with coupling::chain_lengths (at most five digits a number): the registry
  // refuses what it would not read, rather than let it fall back to `all`.
  const OptionSet& coupling = coupling_option_set();
  for (const char* good : {"all", "none", "3", "2-5", "99999", "00003"}) EXPECT_EQ(check(coupling, "chains", good), std::nullopt) << good;
  for (const char* bad : {"000003", "2-000005", "100000", "-3", "3-", "", "a-b", "2--3"}) {
    EXPECT_TRUE(check(coupling, "chains", bad).has_value()) << bad;
  }
}

TEST(OptionRegistry, IntegersAreWholeDecimalNumbersInRange) {
  const OptionSet& coupling = coupling_option_set();
  EXPECT_EQ(check(coupling, "samples", "1"), std::nullopt);
  EXPECT_EQ(check(coupling, "samples", "10000"), std::nullopt);
  EXPECT_EQ(check(coupling, "warmup", "0"), std::nullopt);
  for (const char* bad : {"0", "10001", "1e2", "0x10", "+5", " 5", "5 ", "", "-1"}) {
    EXPECT_TRUE(check(coupling, "samples", bad).has_value()) << bad;
  }
  // An empty value means "not given" where the entry allows it.
  EXPECT_EQ(check(run_option_set(), "iterations", ""), std::nullopt);
  EXPECT_EQ(check(run_option_set(), "iterations", "1099511627776"), std::nullopt);
  EXPECT_TRUE(check(run_option_set(), "iterations", "1099511627777").has_value());
  EXPECT_TRUE(check(run_option_set(), "dpd.window", "3").has_value());
  EXPECT_EQ(check(run_option_set(), "dpd.window", "4"), std::nullopt);
}

TEST(OptionRegistry, LengthSpansBooleansChoicesAndPaths) {
  const OptionSet& coupling = coupling_option_set();
  for (const char* good : {"all", "none", "3", "2-4", "0"}) EXPECT_EQ(check(coupling, "chains", good), std::nullopt) << good;
  for (const char* bad : {"2-x", "x", "-1", "2-", "", "2-3-4", "All"}) {
    EXPECT_TRUE(check(coupling, "chains", bad).has_value()) << bad;
  }
  EXPECT_EQ(check(coupling, "progress", "yes"), std::nullopt);
  EXPECT_TRUE(check(coupling, "progress", "2").has_value());
  EXPECT_TRUE(check(coupling, "output", "").has_value());
  EXPECT_EQ(check(run_option_set(), "info", ""), std::nullopt);
  const auto error = check(runtime_option_set(), "mode", "fast");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "'fast' is not 'analyze', 'time' or 'off'");
}

TEST(OptionRegistry, ValuesReadBackByType) {
  OptionValues values(coupling_option_set());
  EXPECT_EQ(values.text("output"), "%a.coupling.jsonl");
  EXPECT_DOUBLE_EQ(values.real("min_time"), 0.03);
  EXPECT_EQ(values.integer("samples"), 9);
  EXPECT_FALSE(values.boolean("progress"));
  EXPECT_EQ(values.set_value("samples", "12"), std::nullopt);
  EXPECT_EQ(values.integer("samples"), 12);
  EXPECT_TRUE(values.set_value("samples", "x").has_value());
  EXPECT_EQ(values.integer("samples"), 12);  // unchanged by a bad value
  const auto unknown = values.set_value("colour", "red");
  ASSERT_TRUE(unknown.has_value());
  EXPECT_NE(unknown->find("'colour'"), std::string::npos) << *unknown;
  EXPECT_NE(unknown->find("min_time"), std::string::npos) << *unknown;
  EXPECT_EQ(values.entries().size(), coupling_option_set().options.size());
}

// ---- precedence: default < environment < API < tool channel ---------------------------------------

TEST(OptionPrecedence, DefaultThenEnvironmentThenApiThenToolChannel) {
  FakeEnvironment environment;
  std::vector<std::pair<std::string, std::string>> api;
  const auto resolve = [&](std::string_view key) {
    OptionSources sources = environment.sources();
    sources.api = api;
    std::vector<std::string> warnings;
    const OptionValues values = resolve_options(runtime_option_set(), sources, warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    return values.text(key);
  };
  EXPECT_EQ(resolve("baseline"), "auto");  // the default
  environment.variables["AUGUR_BASELINE"] = "2";
  EXPECT_EQ(resolve("baseline"), "2");  // the environment over the default
  api.emplace_back("baseline", "3");
  EXPECT_EQ(resolve("baseline"), "3");  // the API over the environment
  environment.variables["AUGUR_TOOL_OPTIONS"] = "baseline=half;coupling.samples=5";
  EXPECT_EQ(resolve("baseline"), "half");  // the tool channel over the API
  EXPECT_EQ(resolve("history"), "0.6");    // options nobody set keep their default
}

TEST(OptionPrecedence, BadValuesFallBackToTheLowerSourceAndAreNamed) {
  FakeEnvironment environment;
  environment.variables = {{"AUGUR_COUPLING_SAMPLES", "5"}, {"AUGUR_TOOL_OPTIONS", "coupling.samples=many;coupling.warmup=2"}};
  const std::vector<std::pair<std::string, std::string>> api = {{"samples", "0"}, {"min_time", "0.5"}};
  OptionSources sources = environment.sources();
  sources.api = api;
  sources.api_name = "augur_coupling_set_option";
  std::vector<std::string> warnings;
  const OptionValues values = resolve_options(coupling_option_set(), sources, warnings);
  EXPECT_EQ(values.integer("samples"), 5);  // the API's 0 and the tool's 'many' are refused
  EXPECT_EQ(values.integer("warmup"), 2);
  EXPECT_DOUBLE_EQ(values.real("min_time"), 0.5);
  ASSERT_EQ(warnings.size(), 2U);
  EXPECT_NE(warnings[0].find("augur_coupling_set_option(samples): '0'"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find("AUGUR_TOOL_OPTIONS: coupling.samples: 'many'"), std::string::npos) << warnings[1];
  EXPECT_NE(warnings[1].find("using 5"), std::string::npos) << warnings[1];
}

TEST(OptionPrecedence, ToolChannelRoundTripsAnyValue) {
  const std::vector<std::pair<std::string, std::string>> choices = {
      {"report", "/tmp/a;b\\c.json"}, {"run.info", ""}, {"coupling.chains", "2-3"}};
  const std::string text = tool_options(choices);
  EXPECT_EQ(text, "report=/tmp/a\\;b\\\\c.json;run.info=;coupling.chains=2-3");
  const auto parsed = parse_tool_options(text);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, choices);
  EXPECT_EQ(parse_tool_options("")->size(), 0U);
  EXPECT_EQ(parse_tool_options("summary=0;")->size(), 1U);
  EXPECT_FALSE(parse_tool_options("summary").has_value());
  EXPECT_FALSE(parse_tool_options("=0").has_value());
  EXPECT_FALSE(parse_tool_options("report=x\\").has_value());
}

// ---- did you mean -----------------------------------------------------------------------------------

TEST(OptionSpelling, CloseNamesAreSuggested) {
  EXPECT_EQ(closest_known_variable("AUGUR_BASELNE"), "AUGUR_BASELINE");
  EXPECT_EQ(closest_known_variable("AUGUR_BASELIN"), "AUGUR_BASELINE");
  EXPECT_EQ(closest_known_variable("AUGUR_COUPLING_SAMPLE"), "AUGUR_COUPLING_SAMPLES");
  EXPECT_EQ(closest_known_variable("AUGUR_DPD_WINDOWS"), "AUGUR_DPD_WINDOW");
  EXPECT_EQ(closest_known_variable("AUGUR_SWEEPEVERY"), "AUGUR_SWEEP_EVERY");
  EXPECT_EQ(closest_known_variable("AUGUR_TOOL_OPTION"), "AUGUR_TOOL_OPTIONS");
  EXPECT_EQ(closest_known_variable("AUGUR_FOO"), "");
  EXPECT_EQ(closest_known_variable("AUGUR_SOMETHING_ELSE"), "");
}

TEST(OptionSpelling, UnknownNamesWarnOnceEachWithTheSuggestion) {
  const std::vector<std::string> variables = {"AUGUR_BASELNE", "AUGUR_FOO", "PATH", "AUGUR_BASELINE", "XAUGUR_BASELNE"};
  std::vector<std::string> warnings;
  check_variables(variables, nullptr, warnings);
  ASSERT_EQ(warnings.size(), 2U);
  EXPECT_EQ(warnings[0], "unknown variable AUGUR_BASELNE (did you mean AUGUR_BASELINE?)");
  EXPECT_EQ(warnings[1].rfind("unknown variable AUGUR_FOO ", 0), 0U) << warnings[1];
}

TEST(OptionSpelling, EveryVariableTheToolsAndTestsSetIsKnown) {
  // Set by augur run, augur couple measure, the tests or the benchmarks; read by augur db.
  const std::vector<std::string> variables = {
      "AUGUR_DB",           "AUGUR_RUN_INFO",           "AUGUR_RUN_ITERATIONS",    "AUGUR_DPD_WINDOW",
      "AUGUR_TOOL_OPTIONS", "AUGUR_COUPLING_OUTPUT",    "AUGUR_COUPLING_PROGRESS", "AUGUR_COUPLING_MIN_TIME", "AUGUR_COUPLING_ANNOUNCE",
      "AUGUR_COUPLING_SAMPLES", "AUGUR_COUPLING_WARMUP", "AUGUR_COUPLING_CHAINS", "AUGUR_COUPLING_APPLICATION_SAMPLES",
      "AUGUR_BENCH_VERBOSE", "AUGUR_EXPERIMENT_FILE",   "AUGUR_COUNTERS",
      "AUGUR_BSP_TRACE",    "AUGUR_MODE",               "AUGUR_SWEEP_EVERY"};
  std::vector<std::string> warnings;
  check_variables(variables, "report=r.json;coupling.samples=3;run.info=i.json;dpd.window=64", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
}

TEST(OptionSpelling, ToolChannelWithUnknownKeysOrBadTextWarns) {
  std::vector<std::string> warnings;
  check_variables({}, "report=r.json;baselne=2", warnings);
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_NE(warnings[0].find("AUGUR_TOOL_OPTIONS: unknown option 'baselne'"), std::string::npos) << warnings[0];
  warnings.clear();
  check_variables({}, "report", warnings);
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_NE(warnings[0].find("AUGUR_TOOL_OPTIONS: 'report'"), std::string::npos) << warnings[0];
}

// ---- the docs' tables are the registry's ---------------------------------------------------------

// The text between "<!-- options:NAME -->\n" and "<!-- /options -->" in `path`, or a message saying
// what is missing.
std::string quoted_table(const std::string& path, std::string_view name) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  const std::string content = text.str();
  const std::string open = "<!-- options:" + std::string(name) + " -->\n";
  const auto begin = content.find(open);
  if (begin == std::string::npos) return "(no " + open + " in " + path + ")";
  const auto end = content.find("<!-- /options -->", begin);
  if (end == std::string::npos) return "(no <!-- /options --> after " + open + " in " + path + ")";
  return content.substr(begin + open.size(), end - begin - open.size());
}

TEST(OptionDocs, TablesInTheDocsAreWhatTheRegistryPrints) {
  const std::string docs = std::string(AUGUR_SOURCE_DIR) + "/docs/";
  EXPECT_EQ(quoted_table(docs + "self-analysis.md", "runtime"), markdown_table(runtime_option_set()))
      << "update docs/self-analysis.md with: augur options --set runtime --markdown";
  EXPECT_EQ(quoted_table(docs + "couple.md", "coupling"), markdown_table(coupling_option_set()))
      << "update docs/couple.md with: augur options --set coupling --markdown";
  EXPECT_EQ(quoted_table(docs + "run.md", "run"), markdown_table(run_option_set()))
      << "update docs/run.md with: augur options --set run --markdown";
}

}  // namespace
}  // namespace augur::runtime
