// The timeline recorder of real runs (src/runtime/trace_recorder.hpp): slices nest on each thread's track,
// names are escaped, the buffer is bounded and what it drops is counted, threads record at once.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "runtime/trace_recorder.hpp"
#include "support/trace_nesting.hpp"

namespace augur::runtime {
namespace {

using Json = nlohmann::json;

Json parsed(TraceRecorder& recorder, double now = 100.0) { return Json::parse(recorder.json(0.0, now, 42, "prog \"x\"")); }

std::vector<Json> of_phase(const Json& trace, const std::string& phase) {
  std::vector<Json> events;
  for (const Json& event : trace.at("traceEvents")) {
    if (event.at("ph") == phase) events.push_back(event);
  }
  return events;
}

TEST(TraceRecorder, SlicesNestOnTheirThreadsTrack) {
  TraceRecorder recorder;
  recorder.begin("region", "region", 1.0, 0x4005f0, TraceNumber::Hex);
  recorder.begin("iteration", "iteration", 1.5, 1, TraceNumber::Decimal, 4);
  recorder.slice("parallel loop", "loop", 1.6, 1.9);
  recorder.end(2.0);
  recorder.begin("iteration", "iteration", 2.0, 2, TraceNumber::Decimal, 2);
  recorder.end(2.5);
  recorder.end(3.0);
  const Json trace = parsed(recorder);
  const std::vector<Json> slices = of_phase(trace, "X");
  ASSERT_EQ(slices.size(), 4u);
  // In the order they ended: the loop, iteration 1, iteration 2, the region.
  EXPECT_EQ(slices[0].at("name"), "parallel loop");
  EXPECT_EQ(slices[1].at("name"), "iteration 1");
  EXPECT_EQ(slices[1].at("args").at("threads"), 4);
  EXPECT_EQ(slices[2].at("name"), "iteration 2");
  EXPECT_EQ(slices[3].at("name"), "region 0x4005f0");
  EXPECT_DOUBLE_EQ(slices[3].at("ts").get<double>(), 1e6);
  EXPECT_DOUBLE_EQ(slices[3].at("dur").get<double>(), 2e6);
  EXPECT_DOUBLE_EQ(slices[1].at("dur").get<double>(), 0.5e6);
  for (const Json& slice : slices) {
    EXPECT_EQ(slice.at("pid"), 42);
    EXPECT_EQ(slice.at("tid"), 2);
  }
  EXPECT_EQ(test::trace_nesting_problems(trace), std::vector<std::string>{});
  EXPECT_EQ(trace.at("metadata").at("augur_trace").at("events"), 4);
  EXPECT_EQ(trace.at("metadata").at("augur_trace").at("dropped"), 0);
}

TEST(TraceRecorder, NamesAreEscaped) {
  TraceRecorder recorder;
  const char* name = recorder.intern("a \"quoted\"\\ name\n\xff");
  recorder.slice(name, "experiment", 0.0, 1.0);
  const std::string text = recorder.json(0.0, 2.0, 7, "prog \"x\"");
  const Json trace = Json::parse(text);  // valid JSON, invalid UTF-8 replaced
  EXPECT_EQ(of_phase(trace, "X").at(0).at("name"), "a \"quoted\"\\ name\n\xef\xbf\xbd");
  EXPECT_EQ(of_phase(trace, "M").at(0).at("args").at("name"), "prog \"x\"");
}

TEST(TraceRecorder, PhasesAreAProcessTrackAndCountersCount) {
  TraceRecorder recorder;
  recorder.phase("warm-up", 0.0);
  recorder.counter("threads", 0.0, 8);
  recorder.phase("baseline", 1.0);
  recorder.counter("threads", 1.0, 2);
  recorder.phase("baseline", 1.5);  // the same phase goes on
  recorder.phase("allocated", 2.0);
  recorder.counter("threads", 2.0, 8);
  const Json trace = parsed(recorder, 5.0);  // the open phase closes at the writing
  const std::vector<Json> phases = of_phase(trace, "X");
  ASSERT_EQ(phases.size(), 3u);
  EXPECT_EQ(phases[0].at("name"), "warm-up");
  EXPECT_EQ(phases[1].at("name"), "baseline");
  EXPECT_DOUBLE_EQ(phases[1].at("dur").get<double>(), 1e6);
  EXPECT_EQ(phases[2].at("name"), "allocated");
  EXPECT_DOUBLE_EQ(phases[2].at("dur").get<double>(), 3e6);
  for (const Json& phase : phases) EXPECT_EQ(phase.at("tid"), 1);
  const std::vector<Json> counters = of_phase(trace, "C");
  ASSERT_EQ(counters.size(), 3u);
  EXPECT_EQ(counters[1].at("args").at("threads"), 2);
  EXPECT_EQ(test::trace_nesting_problems(trace), std::vector<std::string>{});
}

TEST(TraceRecorder, ABoundedBufferKeepsTheFirstEventsAndCountsTheRest) {
  TraceRecorder recorder(TraceRecorder::chunk_events + 10);  // two chunks, the second not full
  const std::size_t offered = TraceRecorder::chunk_events + 100;
  for (std::size_t i = 0; i < offered; ++i) {
    recorder.begin("iteration", "iteration", static_cast<double>(i), i, TraceNumber::Decimal);
    recorder.end(static_cast<double>(i) + 0.5);
  }
  EXPECT_EQ(recorder.recorded(), TraceRecorder::chunk_events + 10);
  EXPECT_EQ(recorder.dropped(), 90u);
  const Json trace = parsed(recorder, 1e6);
  const std::vector<Json> slices = of_phase(trace, "X");
  ASSERT_EQ(slices.size(), TraceRecorder::chunk_events + 10);
  EXPECT_EQ(slices.back().at("name"), "iteration " + std::to_string(TraceRecorder::chunk_events + 9));
  EXPECT_EQ(trace.at("metadata").at("augur_trace").at("dropped"), 90);
  EXPECT_EQ(trace.at("metadata").at("augur_trace").at("capacity_per_thread"), TraceRecorder::chunk_events + 10);
}

TEST(TraceRecorder, TooDeepSlicesAreDroppedWithoutBreakingTheNesting) {
  TraceRecorder recorder;
  const std::size_t depth = TraceRecorder::max_depth + 3;
  for (std::size_t i = 0; i < depth; ++i) recorder.begin("level", "test", static_cast<double>(i), i, TraceNumber::Decimal);
  for (std::size_t i = 0; i < depth; ++i) recorder.end(static_cast<double>(depth + 1 + i));  // innermost first
  recorder.end(1000.0);  // an end without a begin: ignored
  const Json trace = parsed(recorder, 2000.0);
  EXPECT_EQ(of_phase(trace, "X").size(), TraceRecorder::max_depth);
  EXPECT_EQ(trace.at("metadata").at("augur_trace").at("dropped"), 3);
  EXPECT_EQ(test::trace_nesting_problems(trace), std::vector<std::string>{});
}

TEST(TraceRecorder, OpenSlicesCloseWhenWritten) {
  TraceRecorder recorder;
  recorder.begin("region", "region", 1.0);
  recorder.begin("iteration", "iteration", 2.0, 7, TraceNumber::Decimal);
  const std::vector<Json> slices = of_phase(parsed(recorder, 4.0), "X");
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(slices[0].at("name"), "iteration 7");
  EXPECT_DOUBLE_EQ(slices[0].at("dur").get<double>(), 2e6);
  EXPECT_DOUBLE_EQ(slices[1].at("dur").get<double>(), 3e6);
}

TEST(TraceRecorder, EachThreadHasItsTrack) {
  TraceRecorder recorder;
  recorder.slice("main", "test", 0.0, 1.0);
  constexpr int threads = 4;
  constexpr int per_thread = 5000;  // more than a chunk: chunks are added while others record
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&recorder, t] {
      for (int i = 0; i < per_thread; ++i) {
        recorder.begin("work", "test", t + i * 1e-3, static_cast<std::uint64_t>(i), TraceNumber::Decimal);
        recorder.end(t + i * 1e-3 + 5e-4);
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  const Json trace = parsed(recorder, 1e3);
  EXPECT_EQ(of_phase(trace, "X").size(), 1u + threads * per_thread);
  const auto tracks = test::trace_slices_by_track(trace);
  ASSERT_EQ(tracks.size(), 1u + threads);
  for (const auto& [track, slices] : tracks) {
    EXPECT_EQ(track.first, 42);
    EXPECT_EQ(slices.size(), track.second == 2 ? 1u : static_cast<std::size_t>(per_thread));
  }
  EXPECT_EQ(test::trace_nesting_problems(trace), std::vector<std::string>{});
  EXPECT_EQ(trace.at("metadata").at("augur_trace").at("threads"), 1 + threads);
}

// Two recorders one after the other (the thread's cached buffer belongs to the first).
TEST(TraceRecorder, ASecondRecorderStartsEmpty) {
  {
    TraceRecorder first;
    first.slice("a", "test", 0.0, 1.0);
  }
  TraceRecorder second;
  second.slice("b", "test", 0.0, 1.0);
  const std::vector<Json> slices = of_phase(parsed(second), "X");
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_EQ(slices[0].at("name"), "b");
}

}  // namespace
}  // namespace augur::runtime
