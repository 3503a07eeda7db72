// What the unit tests of libaugur's options share (runtime_test.cpp, runtime_environment_test.cpp,
// option_registry_test.cpp): Settings compared field by field, and a fake environment to resolve options from.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "runtime/options.hpp"

namespace augur::runtime::test {

// The fields of two Settings that options set, compared one by one (Settings has no operator==).
inline void expect_same_settings(const Settings& actual, const Settings& expected) {
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

}  // namespace augur::runtime::test
