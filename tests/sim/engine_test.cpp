// The simulation engine alone, on cases with exact answers: event order, random streams, Welford's
// statistics, Student-t quantiles, replications in parallel, the trace-event timeline. This executable
// links augur_sim_engine only: the engine builds and tests without any simulator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "augur/core/stats.hpp"
#include "augur/sim/engine.hpp"
#include "core/stats_json.hpp"

namespace augur::sim {
namespace {

TEST(Engine, RunsEventsInTimeOrderAndTiesInSchedulingOrder) {
  Engine engine;
  std::vector<std::string> order;
  engine.schedule(2.0, [&] { order.push_back("b@2"); });
  engine.schedule(1.0, [&] {
    order.push_back("a@1");
    engine.schedule(1.0, [&] { order.push_back("c@2"); });  // same time as b, scheduled later
    engine.schedule(0.0, [&] { order.push_back("d@1"); });
  });
  EXPECT_EQ(engine.run(), 4u);
  EXPECT_EQ(order, (std::vector<std::string>{"a@1", "d@1", "b@2", "c@2"}));
  EXPECT_DOUBLE_EQ(engine.now(), 2.0);
  EXPECT_EQ(engine.events_run(), 4u);
}

TEST(Engine, ANegativeDelayIsNowAndRunsAfterWhatIsDueNow) {
  Engine engine;
  std::vector<std::string> order;
  engine.schedule(1.0, [&] {
    order.push_back("first");
    engine.schedule(-5.0, [&] { order.push_back("negative"); });
  });
  engine.schedule(1.0, [&] { order.push_back("second"); });
  engine.run();
  EXPECT_EQ(order, (std::vector<std::string>{"first", "second", "negative"}));
  EXPECT_DOUBLE_EQ(engine.now(), 1.0);
}

TEST(EngineRandomStream, IsReproducibleAndStreamsDiffer) {
  RandomStream first(42, 0);
  RandomStream again(42, 0);
  RandomStream other(42, 1);
  double sum = 0.0;
  bool differs = false;
  for (int i = 0; i < 200000; ++i) {
    const double value = first.exponential(2.0);
    EXPECT_EQ(value, again.exponential(2.0));
    differs = differs || value != other.exponential(2.0);
    sum += value;
  }
  EXPECT_TRUE(differs);
  EXPECT_NEAR(sum / 200000, 2.0, 0.02);  // fixed seed: the same figure on every run
  EXPECT_EQ(RandomStream(42, 0).exponential(0.0), 0.0);
}

// ---- statistics ----

TEST(EngineStatistics, WelfordAgreesWithTwoPasses) {
  // Values far from zero with a small spread: where the naive sum of squares loses its digits.
  RandomStream random(7, 0);
  std::vector<double> values;
  for (int i = 0; i < 5000; ++i) values.push_back(1e6 + random.exponential(3.0));
  Accumulator accumulator;
  for (double value : values) accumulator.add(value);
  double sum = 0.0;
  for (double value : values) sum += value;
  const double mean = sum / static_cast<double>(values.size());
  double squares = 0.0;
  for (double value : values) squares += (value - mean) * (value - mean);
  const double variance = squares / static_cast<double>(values.size() - 1);
  EXPECT_EQ(accumulator.count(), 5000);
  EXPECT_NEAR(accumulator.mean(), mean, 1e-12 * mean);
  EXPECT_NEAR(accumulator.variance(), variance, 1e-9 * variance);
  EXPECT_EQ(accumulator.minimum(), *std::min_element(values.begin(), values.end()));
  EXPECT_EQ(accumulator.maximum(), *std::max_element(values.begin(), values.end()));
  const Statistic statistic = accumulator.statistic();
  EXPECT_EQ(statistic.count, 5000);
  EXPECT_EQ(statistic.mean, accumulator.mean());
  EXPECT_DOUBLE_EQ(statistic.deviation, std::sqrt(accumulator.variance()));
  EXPECT_DOUBLE_EQ(statistic.half_width, core::student_t_quantile(0.975, 4999) * statistic.deviation / std::sqrt(5000.0));
  EXPECT_EQ(statistic.minimum, accumulator.minimum());
  EXPECT_EQ(statistic.maximum, accumulator.maximum());
}

TEST(EngineStatistics, SmallSamplesAndTheInterval) {
  Accumulator empty;
  EXPECT_EQ(empty.statistic().count, 0);
  EXPECT_EQ(empty.variance(), 0.0);
  Accumulator one;
  one.add(-3.0);
  EXPECT_EQ(one.statistic().mean, -3.0);
  EXPECT_EQ(one.statistic().half_width, 0.0) << "no interval from one value";
  EXPECT_EQ(one.minimum(), -3.0);
  EXPECT_EQ(one.maximum(), -3.0);
  // 1, 3, 5, 7: mean 4, sample variance 20/3; 95% half-width t(0.975, 3) * s / 2 = 3.182 * 2.582 / 2.
  Accumulator four;
  for (double value : {7.0, 1.0, 5.0, 3.0}) four.add(value);
  const Statistic statistic = four.statistic();
  EXPECT_DOUBLE_EQ(statistic.mean, 4.0);
  EXPECT_DOUBLE_EQ(four.variance(), 20.0 / 3.0);
  EXPECT_NEAR(statistic.half_width, 3.182446305284263 * std::sqrt(20.0 / 3.0) / 2.0, 1e-9);
  EXPECT_EQ(statistic.minimum, 1.0);
  EXPECT_EQ(statistic.maximum, 7.0);
  EXPECT_NEAR(four.statistic(0.99).half_width, 5.840909309733 * std::sqrt(20.0 / 3.0) / 2.0, 1e-8);
  const core::Estimate estimate = statistic.estimate();
  EXPECT_EQ(estimate.mean, statistic.mean);
  EXPECT_EQ(estimate.deviation, statistic.deviation);
  ASSERT_TRUE(estimate.half_width.has_value());
  EXPECT_EQ(*estimate.half_width, statistic.half_width);
}

TEST(EngineStatistics, TheJsonOfAMeanWithItsInterval) {
  Accumulator two;
  two.add(1.0);
  two.add(3.0);
  // Mean 2, deviation sqrt(2), half-width t(0.975, 1) * sqrt(2) / sqrt(2) = 12.706...
  const nlohmann::ordered_json json = core::estimate_json(two.statistic().estimate());
  ASSERT_EQ(json.size(), 3u);
  auto field = json.begin();
  EXPECT_EQ(field.key(), "mean");
  EXPECT_EQ((++field).key(), "std");
  EXPECT_EQ((++field).key(), "ci95_half_width");
  EXPECT_EQ(json.at("mean"), 2.0);
  EXPECT_DOUBLE_EQ(json.at("std").get<double>(), std::sqrt(2.0));
  EXPECT_NEAR(json.at("ci95_half_width").get<double>(), 12.706204736174698, 1e-9);
  // A predictor's figure has no interval.
  EXPECT_EQ(core::estimate_json({6.5, 2.0, std::nullopt}).dump(), R"({"mean":6.5,"std":2.0})");
}

TEST(EngineStudentT, MatchesPublishedTables) {
  // Two-sided 95% and 99% points and one-sided 95% points of the usual tables (3 decimals).
  struct Row {
    double p;
    double degrees;
    double table;
  };
  for (const Row& row : {Row{0.975, 1, 12.706}, Row{0.975, 2, 4.303}, Row{0.975, 3, 3.182}, Row{0.975, 5, 2.571},
                         Row{0.975, 10, 2.228}, Row{0.975, 30, 2.042}, Row{0.975, 120, 1.980}, Row{0.995, 1, 63.657},
                         Row{0.995, 10, 3.169}, Row{0.995, 30, 2.750}, Row{0.95, 1, 6.314}, Row{0.95, 20, 1.725}}) {
    EXPECT_NEAR(core::student_t_quantile(row.p, row.degrees), row.table, 5e-4) << row.p << ", " << row.degrees;
    EXPECT_NEAR(core::student_t_quantile(1.0 - row.p, row.degrees), -row.table, 5e-4);
  }
  // Many degrees: the normal quantile.
  EXPECT_NEAR(core::student_t_quantile(0.975, 1e6), 1.959963985, 1e-5);
  EXPECT_NEAR(core::student_t_quantile(0.975, 1e8), 1.959963985, 1e-6);
  EXPECT_NEAR(core::student_t_quantile(0.5, 4), 0.0, 1e-12);
  EXPECT_TRUE(std::isnan(core::student_t_quantile(1.0, 4)));
  EXPECT_TRUE(std::isnan(core::student_t_quantile(0.975, 0)));
  EXPECT_EQ(core::mean_half_width(2.0, 1), 0.0);
}

// ---- replications in parallel ----

// A replication with its own stream: a few exponential draws, as a simulator's replication would use.
std::vector<double> draws(int index) {
  RandomStream random(99, static_cast<std::uint64_t>(index));
  std::vector<double> values;
  for (int i = 0; i < 1 + index % 7; ++i) values.push_back(random.exponential(1.0 + index % 3));
  return values;
}

struct Combined {
  std::vector<int> order;
  Accumulator sum;
  double total = 0.0;
};

Combined combine_all(int count, int threads) {
  Combined combined;
  run_replications(count, threads, draws, [&](int index, std::vector<double>&& values) {
    combined.order.push_back(index);
    double sum = 0.0;
    for (double value : values) sum += value;
    combined.sum.add(sum);
    combined.total += sum;
  });
  return combined;
}

TEST(EngineReplications, ParallelGivesTheSerialResultsInOrder) {
  const Combined serial = combine_all(1000, 1);
  std::vector<int> in_order(1000);
  for (int i = 0; i < 1000; ++i) in_order[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(serial.order, in_order);
  for (int threads : {2, 3, 8, 0}) {
    const Combined parallel = combine_all(1000, threads);
    EXPECT_EQ(parallel.order, in_order) << threads << " threads";
    // The same bits, not nearly the same figures.
    EXPECT_EQ(parallel.total, serial.total) << threads << " threads";
    EXPECT_EQ(parallel.sum.mean(), serial.sum.mean());
    EXPECT_EQ(parallel.sum.variance(), serial.sum.variance());
  }
  EXPECT_EQ(combine_all(3, 16).order, (std::vector<int>{0, 1, 2})) << "more threads than replications";
  EXPECT_TRUE(combine_all(0, 4).order.empty());
}

TEST(EngineReplications, TheThreadCount) {
  EXPECT_EQ(replication_threads(3, 100), 3);
  EXPECT_EQ(replication_threads(8, 5), 5);
  EXPECT_EQ(replication_threads(4, 0), 1);
  EXPECT_GE(replication_threads(0, 100), 1);
  EXPECT_LE(replication_threads(0, 2), 2);
}

TEST(EngineReplications, RunInOrderWithNoThreadsAskedForStillRunsEveryIndex) {
  // A thread count of 0 or less is one worker, not none (which would wait for ever).
  for (const int threads : {0, -3}) {
    std::vector<int> consumed;
    std::vector<int> slots(2, -1);
    augur::sim::run_in_order(
        5, threads, 2, [&](int index, int slot) { slots[static_cast<std::size_t>(slot)] = index * index; },
        [&](int index, int slot) {
          EXPECT_EQ(slots[static_cast<std::size_t>(slot)], index * index);
          consumed.push_back(index);
        });
    EXPECT_EQ(consumed, (std::vector<int>{0, 1, 2, 3, 4})) << threads;
  }
}

TEST(EngineReplications, AFailureStopsTheRunAndIsRethrown) {
  for (int threads : {1, 4}) {
    std::vector<int> combined;
    EXPECT_THROW(run_replications(
                     500, threads,
                     [](int index) {
                       if (index == 137) throw std::runtime_error("replication 137");
                       return index;
                     },
                     [&](int index, int) { combined.push_back(index); }),
                 std::runtime_error);
    // Combined in order up to the failure at most.
    ASSERT_LE(combined.size(), 137u) << threads << " threads";
    for (std::size_t i = 0; i < combined.size(); ++i) EXPECT_EQ(combined[i], static_cast<int>(i));
    // A failure while combining, too.
    EXPECT_THROW(run_replications(
                     500, threads, [](int index) { return index; },
                     [](int index, int) {
                       if (index == 10) throw std::logic_error("combine");
                     }),
                 std::logic_error);
  }
}

// ---- timelines ----

TEST(EngineTimeline, WritesChromeTraceEvents) {
  Timeline timeline;
  timeline.name_row(0, "cpu");
  timeline.name_row(1, "disk");
  timeline.span(1, "a", "disk", 0.5, 2.0);
  timeline.instant(0, "done", "marks", 2.0);
  EXPECT_EQ(timeline.size(), 4u);
  const std::string text = timeline.json();
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line";
  const nlohmann::json json = nlohmann::json::parse(text);
  EXPECT_EQ(json.at("displayTimeUnit"), "ms");
  const auto& events = json.at("traceEvents");
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0], nlohmann::json::parse(R"({"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"cpu"}})"));
  EXPECT_EQ(events[1].at("args").at("name"), "disk");
  EXPECT_EQ(events[2], nlohmann::json::parse(R"({"name":"a","cat":"disk","ph":"X","pid":1,"tid":1,"ts":500000.0,"dur":1500000.0})"));
  EXPECT_EQ(events[3], nlohmann::json::parse(R"({"name":"done","cat":"marks","ph":"i","s":"t","pid":1,"tid":0,"ts":2000000.0})"));
  // The keys in the order the viewers' documentation lists them.
  const std::string start = R"({"traceEvents":[{"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"cpu"}},)";
  EXPECT_EQ(text.substr(0, start.size()), start);
  EXPECT_EQ(Timeline().json(), "{\"traceEvents\":[],\"displayTimeUnit\":\"ms\"}\n");
}

// A flow is an "s" and an "f" event of one id: the arrow the viewers draw from a sender to a receiver.
TEST(EngineTimeline, FlowsAreStartAndFinishEventsOfOneId) {
  Timeline timeline;
  timeline.flow_start(0, "m", "message", 7, 1.5);
  timeline.flow_end(2, "m", "message", 7, 4.0);
  EXPECT_EQ(timeline.size(), 2u);
  const nlohmann::json events = nlohmann::json::parse(timeline.json()).at("traceEvents");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0], nlohmann::json::parse(R"({"name":"m","cat":"message","ph":"s","id":7,"pid":1,"tid":0,"ts":1500000.0})"));
  EXPECT_EQ(events[1], nlohmann::json::parse(R"({"name":"m","cat":"message","ph":"f","id":7,"pid":1,"tid":2,"ts":4000000.0})"));
  std::string streamed;
  TimelineWriter writer([&](std::string_view piece) { streamed += piece; });
  writer.flow_start(0, "m", "message", 7, 1.5);
  writer.flow_end(2, "m", "message", 7, 4.0);
  writer.finish();
  EXPECT_EQ(streamed, timeline.json());
}

// The writer hands the same text to its sink, one event at a time, as Timeline::json() gives at the end.
TEST(EngineTimeline, AWriterStreamsTheSameText) {
  Timeline timeline;
  std::string streamed;
  std::size_t pieces = 0;
  TimelineWriter writer([&](std::string_view piece) {
    streamed += piece;
    ++pieces;
  });
  const std::string head = streamed;
  for (int i = 0; i < 3; ++i) {
    timeline.name_row(i, "row \"" + std::to_string(i) + "\"");
    writer.name_row(i, "row \"" + std::to_string(i) + "\"");
    timeline.span(i, "a", "c", 0.1 * i, 1.0 / 3.0);
    writer.span(i, "a", "c", 0.1 * i, 1.0 / 3.0);
    timeline.instant(i, "i", "c", 1e-7 * i);
    writer.instant(i, "i", "c", 1e-7 * i);
  }
  EXPECT_EQ(head, "{\"traceEvents\":[");
  EXPECT_EQ(writer.size(), 9U);
  EXPECT_EQ(streamed.find("displayTimeUnit"), std::string::npos) << "the end only at finish()";
  writer.finish();
  writer.finish();
  writer.span(0, "late", "c", 0, 1);  // after the end: nothing
  EXPECT_EQ(streamed, timeline.json());
  EXPECT_GT(pieces, 9U);
  std::string empty;
  TimelineWriter nothing([&](std::string_view piece) { empty += piece; });
  nothing.finish();
  EXPECT_EQ(empty, Timeline().json());
}

}  // namespace
}  // namespace augur::sim
