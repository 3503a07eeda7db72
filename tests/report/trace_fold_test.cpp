// A trace's events folded while the JSON is parsed (src/report/trace_fold.hpp): the same page as from the
// whole document, the same errors, and no event kept in the document.
#include <gtest/gtest.h>

#include <sstream>

#include "augur/core/diagnostics.hpp"
#include "report/trace_fold.hpp"
#include "report_test_support.hpp"

namespace augur::report {
namespace {

using test::Json;

const std::string file = "trace.json";

struct Folded {
  Json document;
  std::shared_ptr<TraceData> trace = std::make_shared<TraceData>();
};

Folded fold(const std::string& text) {
  Folded folded;
  folded.document = Json::parse(text, trace_folding_callback(*folded.trace, file));
  finish_trace(*folded.trace);
  return folded;
}

std::string html_of(Input input) {
  std::ostringstream html;
  write_page(html, build_page({std::move(input)}));
  return html.str();
}

std::string folded_html(const std::string& text) {
  Folded folded = fold(text);
  Input input{file, folded.document, Kind::trace};
  input.trace = folded.trace;
  return html_of(std::move(input));
}

std::string error_of(const std::string& text) {
  try {
    (void)folded_html(text);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

const char* run_trace = R"json({"displayTimeUnit": "ms", "traceEvents": [
    {"name": "process_name", "ph": "M", "pid": 7, "tid": 0, "args": {"name": "swim"}},
    {"name": "thread_name", "ph": "M", "pid": 7, "tid": 2, "args": {"name": "swim (thread 0)"}},
    {"name": "baseline", "cat": "phase", "ph": "X", "pid": 7, "tid": 1, "ts": 1000, "dur": 2000},
    {"name": "region 0x1", "cat": "region", "ph": "X", "pid": 7, "tid": 2, "ts": 1000, "dur": 5000, "args": {"deep": [1, {"x": [2]}]}},
    {"name": "iteration 1", "cat": "iteration", "ph": "X", "pid": 7, "tid": 2, "ts": 1000, "dur": 1000},
    {"name": "iteration 2", "cat": "iteration", "ph": "B", "pid": 7, "tid": 2, "ts": 2000},
    {"ph": "E", "pid": 7, "tid": 2, "ts": 2600},
    {"name": "open", "ph": "B", "pid": 7, "tid": 3, "ts": 2000},
    {"name": "threads", "ph": "C", "pid": 7, "tid": 2, "ts": 1000, "args": {"threads": 1}}],
    "metadata": {"augur_trace": {"events": 9, "dropped": 2}}})json";

const char* simulator_trace = R"([
    {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "disk"}},
    {"name": "task-1", "cat": "cpu", "ph": "X", "pid": 1, "tid": 0, "ts": 0, "dur": 1000000},
    {"name": "task-2", "cat": "disk", "ph": "X", "pid": 1, "tid": 1, "ts": 1000000, "dur": 2000000}])";

TEST(TraceFold, TheEventsLeaveTheDocumentAndTheRestStays) {
  const Folded object = fold(run_trace);
  EXPECT_EQ(object.document["traceEvents"], Json::array());
  EXPECT_EQ(object.document["metadata"]["augur_trace"]["dropped"], 2);
  EXPECT_EQ(object.document["displayTimeUnit"], "ms");
  EXPECT_TRUE(object.trace->folded_while_parsing);
  EXPECT_EQ(object.trace->events, 9u);
  // 3 complete slices and one begin-end pair; the counter counted; one slice begun and never ended.
  EXPECT_EQ(object.trace->slices.size(), 4u);
  EXPECT_EQ(object.trace->other.at("counter values"), 1u);
  EXPECT_EQ(object.trace->unclosed, 1u);
  EXPECT_EQ(object.trace->text(object.trace->slices[3].name), "iteration 2");
  EXPECT_EQ(object.trace->slices[3].end, 2600);
  // Names and categories are kept once each: 5 names (the unended "open" too), 4 categories ("" of "open").
  EXPECT_EQ(object.trace->strings.size(), 9u);

  const Folded array = fold(simulator_trace);
  EXPECT_EQ(array.document, Json::array());
  EXPECT_EQ(array.trace->slices.size(), 2u);
}

TEST(TraceFold, ThePageIsTheOneOfTheWholeDocument) {
  for (const char* text : {run_trace, simulator_trace}) {
    EXPECT_EQ(folded_html(text), test::render(text, file).html);
  }
}

TEST(TraceFold, OtherDocumentsAreNotTouched) {
  // No top-level traceEvents array, or an array whose first element is not an event: nothing folded.
  for (const char* text : {R"({"regions": [{"ph": "X"}], "x": {"traceEvents": [{"ph": "X"}]}})", R"([1, {"ph": "X"}])",
                           R"([{"name": "a"}, {"ph": "X"}])", R"({"traceEvents": {"a": {"ph": "X"}}})"}) {
    const Folded folded = fold(text);
    EXPECT_FALSE(folded.trace->folded_while_parsing) << text;
    EXPECT_EQ(folded.document, Json::parse(text)) << text;
  }
}

TEST(TraceFold, BadEventsAreNamedAsInTheWholeDocument) {
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "X", "name": "a", "dur": 1}]})"), "trace.json: missing field traceEvents[0].ts");
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "M"}, {"ph": "X", "name": "a", "ts": 1, "dur": -1}]})"),
            "trace.json: traceEvents[1].dur: a negative duration");
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "C"}, 3]})"), "trace.json: traceEvents[1]: expected an object (a trace event)");
  EXPECT_EQ(error_of(R"({"traceEvents": [[{"ph": "X"}]]})"), "trace.json: traceEvents[0]: expected an object (a trace event)");
  EXPECT_EQ(error_of(R"([{"ph": "M"}, {"ph": "B", "ts": "late"}])"), "trace.json: [1].ts: expected a number");
  EXPECT_EQ(error_of(R"([{"ph": "M"}, "x"])"), "trace.json: [1]: expected an object (a trace event)");
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1e308, "dur": 1e308}]})"),
            "trace.json: traceEvents[0]: ends past the largest number (ts + dur)");
  EXPECT_EQ(error_of(R"({"traceEvents": [], "traceEvents": []})"), "trace.json: traceEvents: given twice (a trace has one list of events)");
}

}  // namespace
}  // namespace augur::report
