// The timeline of the report page (src/report/timeline.hpp) and the page of a Chrome trace: nesting depths,
// the bars' exact positions, merging past max_bars, the limits, and the trace page's summary, counts and
// tables on traces written here, with every number worked out by hand.
#include <gtest/gtest.h>

#include <string>

#include "augur/core/diagnostics.hpp"
#include "report/report.hpp"
#include "report/timeline.hpp"
#include "report_test_support.hpp"

namespace augur::report {
namespace {

using test::count;
using test::Rendered;

TEST(Timeline, NestedSlicesGoOneRowBelowTheirParent) {
  TimelineChart chart{"", "ms", {"main", "worker"}, {}};
  chart.slices = {{0, 0, 10, "A", "k"}, {0, 1, 4, "B", "k"}, {0, 2, 3, "C", "j"}, {0, 5, 9, "D", "k"}, {1, 0, 5, "E", "k"}};
  const TimelineLayout layout = lay_out_timeline(chart);
  ASSERT_EQ(layout.bars.size(), 5u);
  EXPECT_EQ(layout.depths, (std::vector<int>{3, 1}));
  // By track, depth, start: A (0), B and D (1), C (2), then E on the worker.
  const std::vector<std::pair<std::string, int>> expected{{"A", 0}, {"B", 1}, {"D", 1}, {"C", 2}, {"E", 0}};
  for (std::size_t index = 0; index < expected.size(); ++index) {
    EXPECT_EQ(layout.bars[index].name, expected[index].first) << index;
    EXPECT_EQ(layout.bars[index].depth, expected[index].second) << index;
    EXPECT_EQ(layout.bars[index].slices, 1u);
  }
  EXPECT_EQ(layout.keys, (std::vector<std::string>{"k", "j"}));  // k begins at 0, j at 2
  EXPECT_EQ(layout.merge_gap, 0);
}

TEST(Timeline, ASliceThatBeginsAsTheLastEndsStaysOnItsRow) {
  // 0.1 + 0.2 is 0.30000000000000004 in doubles: ts + dur of the first slice, 0.3 the start of the next.
  TimelineChart chart{"", "s", {"cpu"}, {}};
  chart.slices = {{0, 0.1, 0.1 + 0.2, "a", "k"}, {0, 0.3, 0.5, "b", "k"}, {0, 0.4, 0.45, "c", "k"}};
  const TimelineLayout layout = lay_out_timeline(chart);
  ASSERT_EQ(layout.bars.size(), 3u);
  EXPECT_EQ(layout.bars[0].depth, 0);  // a
  EXPECT_EQ(layout.bars[1].depth, 0);  // b, not below a
  EXPECT_EQ(layout.bars[2].depth, 1);  // c within b
  EXPECT_EQ(layout.depths, (std::vector<int>{2}));
}

TEST(Timeline, BarsSitWhereTheScaleAndTheRowsPutThem) {
  // width 400: the plot from 14 + 7·4 = 42 (names shorter than 4 characters) to 400 − 18 = 382 px; the times
  // 0 to 10 padded to [0, 10.4]: x(t) = 42 + t / 10.4 · 340. Rows of 16 px from y = 12 (no title), tracks 4 px
  // apart, bars 12 px high and 2 px into their row.
  TimelineChart chart{"", "ms", {"a", "b"}, {}, 2000, 48, 8, 12, 400};
  chart.slices = {{0, 0, 10, "outer", "k"}, {0, 2, 4, "inner", "k"}, {1, 5, 6, "other", "j"}};
  const std::string svg = render_timeline(chart);
  EXPECT_EQ(count(svg, "<rect class=\"slice\""), 3u);
  // inner: x = 42 + 2/10.4·340 = 107.38, width 2/10.4·340 = 65.38; depth 1 of track 0: y = 12 + 16 + 2 = 30.
  EXPECT_NE(svg.find("<rect class=\"slice\" x=\"107.4\" y=\"30.0\" width=\"65.4\" height=\"12.0\" fill=\"#0072B2\">"), std::string::npos) << svg;
  // other: track 1 starts at 12 + 2·16 + 4 = 48, y = 50; x = 42 + 5/10.4·340 = 205.46, width 32.69; the second key's colour.
  EXPECT_NE(svg.find("<rect class=\"slice\" x=\"205.5\" y=\"50.0\" width=\"32.7\" height=\"12.0\" fill=\"#D55E00\">"), std::string::npos) << svg;
  // outer: from x = 42 to 42 + 10/10.4·340 = 368.92 at y = 14.
  EXPECT_NE(svg.find("<rect class=\"slice\" x=\"42.0\" y=\"14.0\" width=\"326.9\""), std::string::npos) << svg;
  EXPECT_EQ(count(svg, "class=\"row-label\""), 2u);
  EXPECT_EQ(count(svg, "class=\"note\""), 0u);
}

TEST(Timeline, PastMaxBarsCloseSlicesOfOneRowAndColourAreMerged) {
  // 100 slices [10i, 10i + 1] on one track; the plot is 960 − 18 − 42 = 900 px wide and the slices span
  // 991: the gap starts at 991/900 = 1.101 and doubles (2.2, 4.4, 8.8: none merged, the slices are 9 apart)
  // to 17.6, when all are one bar.
  TimelineChart chart{"", "ms", {"t"}, {}};
  chart.max_bars = 10;
  for (int index = 0; index < 100; ++index) chart.slices.push_back({0, 10.0 * index, 10.0 * index + 1, "s" + std::to_string(index), "k"});
  TimelineLayout layout = lay_out_timeline(chart);
  ASSERT_EQ(layout.bars.size(), 1u);
  EXPECT_DOUBLE_EQ(layout.merge_gap, 991.0 / 900 * 16);
  EXPECT_EQ(layout.bars[0].slices, 100u);
  EXPECT_DOUBLE_EQ(layout.bars[0].busy, 100.0);
  EXPECT_DOUBLE_EQ(layout.bars[0].end, 991.0);
  EXPECT_EQ(layout.drawn, 100u);
  // Two keys alternate: each key's slices are 19 apart; at 17.6 none merge, at 35.2 each key is one bar.
  for (std::size_t index = 0; index < chart.slices.size(); ++index) chart.slices[index].key = index % 2 ? "odd" : "even";
  layout = lay_out_timeline(chart);
  ASSERT_EQ(layout.bars.size(), 2u);
  EXPECT_DOUBLE_EQ(layout.merge_gap, 991.0 / 900 * 32);
  EXPECT_EQ(layout.bars[0].slices + layout.bars[1].slices, 100u);
  const std::string svg = render_timeline(chart);
  EXPECT_EQ(count(svg, "<rect class=\"slice merged\""), 2u);
  EXPECT_NE(svg.find("100 slices drawn as 2 bars: on each row, slices of one colour at most 35.2 apart are one bar"), std::string::npos) << svg;
  // Within max_bars nothing is merged.
  chart.max_bars = 100;
  EXPECT_EQ(lay_out_timeline(chart).bars.size(), 100u);
}

TEST(Timeline, DeepSlicesFarTracksAndManyKeysAreBounded) {
  TimelineChart chart{"", "ms", {"a", "b", "c"}, {}};
  chart.max_tracks = 2;
  chart.max_depth = 3;
  chart.max_keys = 2;
  for (int depth = 0; depth < 5; ++depth) chart.slices.push_back({0, 1.0 * depth, 20.0 - depth, "d", "k" + std::to_string(depth)});
  chart.slices.push_back({2, 0, 1, "far", "k"});
  const TimelineLayout layout = lay_out_timeline(chart);
  EXPECT_EQ(layout.deep, 2u);  // depths 3 and 4
  EXPECT_EQ(layout.hidden_tracks, 1u);
  EXPECT_EQ(layout.on_hidden_tracks, 1u);
  EXPECT_EQ(layout.depths, (std::vector<int>{3, 1}));
  EXPECT_EQ(layout.keys, (std::vector<std::string>{"k0", "k1", "other"}));
  EXPECT_EQ(layout.bars.size(), 3u);
  const std::string svg = render_timeline(chart);
  EXPECT_NE(svg.find("2 slices nested deeper than 3 levels not drawn"), std::string::npos);
  EXPECT_NE(svg.find("1 more track (1 slice) not drawn: the chart shows the first 2"), std::string::npos);
}

TEST(Timeline, ALongTrackNameIsCutBetweenCharacters) {
  // 26 letters and two two-byte characters: 30 bytes, past the 28 shown; the cut at 27 bytes would fall
  // inside the first é, so it falls before it.
  TimelineChart chart;
  chart.tracks = {std::string(26, 'a') + "\u00e9\u00e9"};
  chart.slices.push_back({0, 0, 1, "s", "k"});
  const std::string svg = render_timeline(chart);
  EXPECT_NE(svg.find(">" + std::string(26, 'a') + "\u2026</text>"), std::string::npos) << svg;
}

Rendered render(const std::string& text) {
  return test::render(text, "trace.json");
}

TEST(ReportTrace, ARunsTraceHasItsPhasesThreadsAndCategories) {
  const Rendered page = render(R"json({"traceEvents": [
    {"name": "process_name", "ph": "M", "pid": 7, "tid": 0, "args": {"name": "swim"}},
    {"name": "thread_name", "ph": "M", "pid": 7, "tid": 1, "args": {"name": "phase (baseline / allocated)"}},
    {"name": "thread_name", "ph": "M", "pid": 7, "tid": 2, "args": {"name": "swim (thread 0)"}},
    {"name": "baseline", "cat": "phase", "ph": "X", "pid": 7, "tid": 1, "ts": 1000, "dur": 2000},
    {"name": "allocated", "cat": "phase", "ph": "X", "pid": 7, "tid": 1, "ts": 3000, "dur": 3000},
    {"name": "region 0x1", "cat": "region", "ph": "X", "pid": 7, "tid": 2, "ts": 1000, "dur": 5000},
    {"name": "iteration 1", "cat": "iteration", "ph": "X", "pid": 7, "tid": 2, "ts": 1000, "dur": 1000},
    {"name": "iteration 2", "cat": "iteration", "ph": "X", "pid": 7, "tid": 2, "ts": 2000, "dur": 1000},
    {"name": "iteration 3", "cat": "iteration", "ph": "X", "pid": 7, "tid": 2, "ts": 3000, "dur": 1000},
    {"name": "iteration 4", "cat": "iteration", "ph": "X", "pid": 7, "tid": 2, "ts": 4000, "dur": 1000},
    {"name": "iteration 5", "cat": "iteration", "ph": "X", "pid": 7, "tid": 2, "ts": 5000, "dur": 1000},
    {"name": "threads", "ph": "C", "pid": 7, "tid": 2, "ts": 1000, "args": {"threads": 1}},
    {"name": "<script>x</script>", "cat": "iteration", "ph": "B", "pid": 7, "tid": 3, "ts": 2000},
    {"ph": "E", "pid": 7, "tid": 3, "ts": 2500}],
    "displayTimeUnit": "ms", "metadata": {"augur_trace": {"events": 14, "dropped": 3}}})json");
  // 9 slices (8 complete, one begin-end pair) from 1000 to 6000 µs: 5 ms; tracks tid 1, 2 and 3 (unnamed).
  EXPECT_TRUE(page.says("trace of swim: 9 slices on 3 tracks over 5 ms")) << page.summary();
  EXPECT_TRUE(page.says("not drawn: 1 counter values")) << page.summary();
  EXPECT_TRUE(page.says("the recorder dropped 3 events (its buffers were full): the timeline is incomplete")) << page.summary();
  EXPECT_EQ(count(page.html, "<svg"), 1u);
  EXPECT_EQ(count(page.html, "<rect class=\"slice\""), 9u);
  // Coloured by category, the phases by their name: four legend entries.
  for (const char* key : {">phase baseline</text>", ">phase allocated</text>", ">region</text>", ">iteration</text>"}) {
    EXPECT_EQ(count(page.html, key), 1u) << key;
  }
  EXPECT_EQ(page.html.find("<script>x"), std::string::npos);
  EXPECT_NE(page.html.find(">thread 3</text>"), std::string::npos);
  // Time per category: iteration 5 × 1 ms + 0.5 ms = 5.5 ms; busy per track: 5, 5 and 0.5 ms.
  EXPECT_NE(page.html.find("<td>iteration</td><td class=\"number\" data-sort=\"6\">6</td><td class=\"number\" data-sort=\"5.5\">5.5</td>"),
            std::string::npos);
  EXPECT_NE(page.html.find("<td>thread 3</td><td class=\"number\" data-sort=\"1\">1</td><td class=\"number\" data-sort=\"0.5\">0.5</td>"),
            std::string::npos);
}

TEST(ReportTrace, ASimulatorsTraceInTheArrayFormIsColouredByTask) {
  const Rendered page = render(R"([
    {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "disk"}},
    {"name": "thread_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "cpu"}},
    {"name": "task-1", "cat": "cpu", "ph": "X", "pid": 1, "tid": 0, "ts": 0, "dur": 1000000},
    {"name": "task-2", "cat": "disk", "ph": "X", "pid": 1, "tid": 1, "ts": 1000000, "dur": 2000000},
    {"name": "task-1", "cat": "cpu", "ph": "X", "pid": 1, "tid": 0, "ts": 3000000, "dur": 1000000}])");
  EXPECT_TRUE(page.says("trace of 3 slices on 2 tracks over 4 s")) << page.summary();
  EXPECT_EQ(count(page.html, "<rect class=\"slice\""), 3u);
  EXPECT_EQ(count(page.html, ">task-1</text>"), 1u);  // the legend: by task, not by resource
  EXPECT_EQ(count(page.html, ">task-2</text>"), 1u);
  // Tracks by tid: cpu (0) above disk (1).
  EXPECT_LT(page.html.find(">cpu</text>"), page.html.find(">disk</text>"));
}

TEST(ReportTrace, BadEventsAreNamed) {
  const auto error_of = [](const std::string& text) {
    try {
      (void)render(text);
    } catch (const core::InputError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "X", "name": "a", "dur": 1}]})"), "trace.json: missing field traceEvents[0].ts");
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": -1}]})"), "trace.json: traceEvents[0].dur: a negative duration");
  EXPECT_EQ(error_of(R"({"traceEvents": [3]})"), "trace.json: traceEvents[0]: expected an object (a trace event)");
  EXPECT_EQ(error_of(R"({"traceEvents": {}})"), "trace.json: traceEvents: expected an array");
  const Rendered empty = render(R"({"traceEvents": []})");
  EXPECT_TRUE(empty.says("trace of 0 slices on 0 tracks over 0 µs")) << empty.summary();
  EXPECT_EQ(count(empty.html, "<svg"), 0u);
}

}  // namespace
}  // namespace augur::report
