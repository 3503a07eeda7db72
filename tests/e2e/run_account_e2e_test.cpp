// End-to-end: `augur run`'s line "where the region's ... went" (docs/run.md; docs/self-analysis.md, "Where the
// region's time went") on a real outer region and a real region of parallel loops: the report's figures add up to
// the region's time, and the line prints what they give, each kind's time beyond T(P) worked out here from the
// report.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "core/files.hpp"
#include "core/process.hpp"
#include "run_e2e_support.hpp"
#include "support/self_analysis_runs.hpp"

namespace {

using augur::core::ProcessResult;
using augur::core::run_process;
using augur::run_e2e::TemporaryFile;
using augur::test::clean_environment;
using nlohmann::json;

// The account: its first line and its rows, each run of blanks as one blank.
std::string account_lines(const std::string& out) {
  const std::size_t start = out.find("  where the region's ");
  if (start == std::string::npos) return "";
  std::size_t end = out.find('\n', start);
  while (end != std::string::npos && out.compare(end + 1, 4, "    ") == 0) end = out.find('\n', end + 1);
  std::string lines;
  for (const char c : out.substr(start, end - start))
    if (c != ' ' || lines.empty() || lines.back() != ' ') lines += c;
  return lines;
}

// "+1.234 ms": a kind's time beyond count x T(P) as the line prints it ("+0.000 ms" below half a microsecond).
std::string beyond(double seconds, long count, double iteration_time) {
  const double extra = seconds - static_cast<double>(count) * iteration_time;
  char text[64];
  std::snprintf(text, sizeof text, "%+.3f ms", std::fabs(extra) < 5e-7 ? 0.0 : extra * 1e3);
  return text;
}

// A row's start, its blanks collapsed: its count and its kind.
std::string row(long count, const std::string& kind) { return "\n " + std::to_string(count) + " " + kind + " "; }

}  // namespace

TEST(AugurRunAccount, AnOuterRegionsTimeIsIterationsTimesTPAndEachKindBeyondIt) {
  TemporaryFile report("outer.json");
  const ProcessResult result = run_process({AUGUR_EXE, "run", "-p", "2", "--iterations", "300", "--json=" + report.path(), "--",
                                            AUGUR_OUTER_REGION_EXE, "100000", "300"},
                                           clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  const json outer = json::parse(augur::core::read_file(report.path())).at("regions").at(0);
  const json& account = outer.at("time_account");
  const std::string line = account_lines(result.standard_output);
  if (account.is_null()) {  // fewer than 5 usable steps (a machine loaded throughout): no T(2), no account
    EXPECT_TRUE(outer.at("iteration_time_s").is_null()) << outer.dump();
    EXPECT_EQ(line, "") << result.standard_output;
    return;
  }
  ASSERT_TRUE(account.is_object()) << outer.dump();
  const double t = account.at("iteration_time_s").get<double>();
  const long iterations = account.at("iterations").get<long>();
  EXPECT_EQ(iterations, 300);
  EXPECT_DOUBLE_EQ(t, outer.at("iteration_time_s").get<double>());
  EXPECT_DOUBLE_EQ(account.at("elapsed_s").get<double>(), outer.at("elapsed_s").get<double>());
  EXPECT_EQ(account.at("team_steps").at("steps").get<long>(), outer.at("noise").at("steps_used").get<long>());
  EXPECT_EQ(account.at("baseline_steps").at("steps").get<long>(), outer.at("baseline_steps").get<long>());
  // The steps on the team, used or left out, are the noise verdict's (preempted ones are used when fewer than 5
  // are clean).
  EXPECT_EQ(account.at("team_steps").at("steps").get<long>() + account.at("preempted_steps").at("steps").get<long>() +
                account.at("left_out_steps").at("steps").get<long>(),
            outer.at("noise").at("steps").get<long>());
  EXPECT_LE(account.at("preempted_steps").at("steps").get<long>(), outer.at("noise").at("steps_preempted").get<long>());
  // Beyond T(2), the used steps hold the tool's delay in them.
  EXPECT_NEAR(account.at("team_steps").at("seconds").get<double>() - static_cast<double>(account.at("team_steps").at("steps").get<long>()) * t,
              account.at("team_steps").at("tool_delay_s").get<double>(), 1e-9);
  // Every measured step in one kind; the rest not measured (at least the 32 steps the detector needs).
  long steps = 0;
  double total = static_cast<double>(iterations) * t + account.at("team_steps").at("tool_delay_s").get<double>();
  for (const char* kind : {"team_steps", "baseline_steps", "preempted_steps", "left_out_steps", "not_measured"}) {
    steps += account.at(kind).at("steps").get<long>();
    if (std::string(kind) != "team_steps")
      total += account.at(kind).at("seconds").get<double>() - static_cast<double>(account.at(kind).at("steps").get<long>()) * t;
  }
  EXPECT_EQ(steps, iterations);
  EXPECT_GE(account.at("not_measured").at("steps").get<long>(), 32);
  EXPECT_NEAR(total, account.at("elapsed_s").get<double>(), 1e-9);
  // The rows: each kind's count and its time beyond count x T(2), as worked out from the report.
  ASSERT_NE(line, "") << result.standard_output;
  EXPECT_NE(line.find("300 iterations x T(2) "), std::string::npos) << line;
  EXPECT_NE(line.find(", and each kind beyond its count x T(2):"), std::string::npos) << line;
  // Every kind has its row, zero or not.
  const auto expect_kind = [&](const char* kind, const std::string& words) {
    const long count = account.at(kind).at("steps").get<long>();
    const std::string text = row(count, words) + beyond(account.at(kind).at("seconds").get<double>(), count, t);
    EXPECT_NE(line.find(text), std::string::npos) << text << "\n" << line;
  };
  EXPECT_NE(line.find("\n steps kind beyond\n"), std::string::npos) << line;
  expect_kind("team_steps", "team");
  expect_kind("baseline_steps", "baseline");
  expect_kind("preempted_steps", "preempted");
  expect_kind("left_out_steps", "slow");
  expect_kind("not_measured", "not measured");
}

TEST(AugurRunAccount, ARegionOfLoopsCountsItsIterationsByProcessors) {
  TemporaryFile report("swim.json");
  const ProcessResult result = run_process({AUGUR_EXE, "run", "-p", "2", "--iterations", "200", "--json=" + report.path(), "--",
                                            AUGUR_SWIM_PLAIN_EXE, "128", "200"},
                                           clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  const json full = json::parse(augur::core::read_file(report.path()));
  const json* main = nullptr;
  for (const json& region : full.at("regions"))
    if (main == nullptr || region.at("elapsed_s").get<double>() > main->at("elapsed_s").get<double>()) main = &region;
  ASSERT_NE(main, nullptr) << full.dump();
  const json* on_two = nullptr;
  long measured = 0;
  double seconds = 0.0;
  for (const json& point : main->at("speedup")) {
    measured += point.at("measured_iterations").get<long>();
    seconds += point.at("measured_time_s").get<double>();
    if (point.at("p") == 2) on_two = &point;
  }
  ASSERT_NE(on_two, nullptr) << main->dump();
  const std::string line = account_lines(result.standard_output);
  if (on_two->at("value").is_null()) {  // S(2) not calculated (too few iterations measured on 2): no account
    EXPECT_EQ(line, "") << result.standard_output;
    return;
  }
  const long iterations = main->at("iterations").get<long>();
  EXPECT_LE(measured, iterations);
  EXPECT_LE(seconds, main->at("elapsed_s").get<double>());
  // The table's T(2) = AF(B) x T(B) / S(2); each processor count's iterations beyond it.
  const double t = main->at("af").get<double>() * main->at("baseline_time_s").get<double>() / on_two->at("value").get<double>();
  ASSERT_NE(line, "") << result.standard_output;
  EXPECT_NE(line.find(std::to_string(iterations) + " iterations x T(2) "), std::string::npos) << line;
  EXPECT_NE(line.find("\n iterations kind beyond\n"), std::string::npos) << line;
  for (const json& point : main->at("speedup")) {
    const long count = point.at("measured_iterations").get<long>();
    if (count == 0) continue;
    const int p = point.at("p").get<int>();
    const std::string text = row(count, "on " + std::to_string(p) + (p == 1 ? " processor" : " processors")) +
                             beyond(point.at("measured_time_s").get<double>(), count, t);
    EXPECT_NE(line.find(text), std::string::npos) << text << "\n" << line;
  }
  const std::string rest =
      row(iterations - measured, "not measured") + beyond(main->at("elapsed_s").get<double>() - seconds, iterations - measured, t);
  EXPECT_NE(line.find(rest), std::string::npos) << rest << "\n" << line;
}
