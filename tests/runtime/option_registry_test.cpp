// Unit tests of the option registries (src/runtime/options*.cpp): the names derived from a key, values checked
// and read by type, the precedence of the sources, the suggestions for misspelt variables, and the docs' tables
// against the registries (the options of libaugur, read into its settings: runtime_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "options_support.hpp"
#include "runtime/options.hpp"

namespace augur::runtime {
namespace {

using test::FakeEnvironment;

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

// Every AUGUR_* variable the sources read (getenv, or the store's environment()) is known: an option's or one of
// other_variables(), which `augur options` lists.
TEST(OptionSpelling, EveryVariableTheSourcesReadIsKnown) {
  const std::regex read(R"re((?:getenv|environment)\(\s*"(AUGUR_[A-Z0-9_]+)"\s*\))re");
  int found = 0;
  std::set<std::string> read_names;
  for (const char* folder : {"/src", "/bench"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(AUGUR_SOURCE_DIR) + folder)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream file(entry.path());
      std::stringstream text;
      text << file.rdbuf();
      const std::string content = text.str();
      for (std::sregex_iterator match(content.begin(), content.end(), read), end; match != end; ++match) {
        ++found;
        const std::string name = (*match)[1];
        read_names.insert(name);
        EXPECT_EQ(closest_known_variable(name), name) << entry.path() << " reads " << name << ", which no option set nor other_variables() has";
      }
    }
  }
  EXPECT_GE(found, 5);  // AUGUR_DB, AUGUR_CORE_BINDING, AUGUR_SPIN_SAMPLING, AUGUR_NPB_DIR, AUGUR_BENCH_VERBOSE at least
  // And the other way: every variable listed outside the sets is read somewhere (none kept after its reader went).
  for (const OtherVariable& other : other_variables())
    EXPECT_EQ(read_names.count(std::string(other.name)), 1u) << other.name << " is listed, but no source reads it";
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
