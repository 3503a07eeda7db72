// Unit tests of libaugur's options (src/runtime/options*.cpp): apply_option and the table of the runtime set
// (its settings read from the environment: runtime_environment_test.cpp; the registries in general:
// option_registry_test.cpp).
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

#include "options_support.hpp"
#include "runtime/options.hpp"

namespace augur::runtime {
namespace {

using selfanalysis::BaselinePolicy;
using test::expect_same_settings;

// The keys include/augur/augur.h documents for augur_set_option.
const std::vector<std::string> documented_keys = {"mode",        "baseline", "warmup_iterations", "baseline_iterations", "measure_iterations", "baseline_every",
                                                  "history",     "sweep",    "sweep_every",         "self_tuning",
                                                  "report",      "summary",  "watch_sigcont",       "manager",
                                                  "experiment_file", "counters", "bsp_trace", "trace"};

// Applies one option to default settings and returns the error (nullopt when accepted).
std::optional<std::string> apply(std::string_view key, std::string_view value) {
  Settings settings;
  return apply_option(settings, key, value);
}

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

}  // namespace
}  // namespace augur::runtime
