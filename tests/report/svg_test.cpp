// The SVG chart writer (src/report/svg.hpp): numbers, ticks, scales, escaping, and the marks of each chart,
// against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "report/svg.hpp"

namespace augur::report {
namespace {

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++found;
  return found;
}

void expect_ticks(const std::vector<double>& ticks, const std::vector<double>& expected) {
  ASSERT_EQ(ticks.size(), expected.size());
  for (std::size_t index = 0; index < ticks.size(); ++index) EXPECT_NEAR(ticks[index], expected[index], 1e-12) << index;
}

TEST(Svg, NumbersAreWrittenAsAPersonWritesThem) {
  EXPECT_EQ(format_number(10.0), "10");
  EXPECT_EQ(format_number(0.5), "0.5");
  EXPECT_EQ(format_number(1.59), "1.59");
  EXPECT_EQ(format_number(-0.25), "-0.25");
  EXPECT_EQ(format_number(0.6000000000000001), "0.6");
  EXPECT_EQ(format_number(2.1e6), "2.1e6");
  EXPECT_EQ(format_number(1e-5), "1e-5");
  EXPECT_EQ(format_number(1234567.0), "1.235e6");
  EXPECT_EQ(format_number(1234567.0, 7), "1234567");
  EXPECT_EQ(format_number(0.0), "0");
  EXPECT_EQ(format_number(NAN), "-");
  EXPECT_EQ(format_number(INFINITY), "inf");
}

TEST(Svg, LinearTicksAreRoundStepsWithinTheRange) {
  expect_ticks(linear_ticks(0, 10), {0, 2, 4, 6, 8, 10});       // (10 - 0) / 6 = 1.67 → step 2
  expect_ticks(linear_ticks(0, 1), {0, 0.2, 0.4, 0.6, 0.8, 1});  // 0.167 → 0.2
  expect_ticks(linear_ticks(-3, 7), {-2, 0, 2, 4, 6});           // 1.67 → 2, from -2 (≥ -3)
  expect_ticks(linear_ticks(3, 5), {3, 3.5, 4, 4.5, 5});         // 0.333 → 0.5
  expect_ticks(linear_ticks(0.9, 1.1), {0.9, 0.95, 1, 1.05, 1.1});  // 0.0333 → 0.05
  expect_ticks(linear_ticks(4, 4), {4});
  EXPECT_EQ(format_number(linear_ticks(0, 1)[3]), "0.6");  // 3 × 0.2 is written 0.6
}

TEST(Svg, LogTicksArePowersOfTenThenTwoAndFive) {
  expect_ticks(log_ticks(1, 1000), {1, 10, 100, 1000});
  expect_ticks(log_ticks(1, 100), {1, 2, 5, 10, 20, 50, 100});
  expect_ticks(log_ticks(0.5, 30), {0.5, 1, 2, 5, 10, 20});
  expect_ticks(log_ticks(1, 8), {1, 2, 4, 8});              // less than a decade: powers of two
  expect_ticks(log_ticks(3, 5), {3, 3.5, 4, 4.5, 5});       // no two round values: linear ticks
  expect_ticks(log_ticks(1e-3, 1e9), {1e-3, 1e-1, 1e1, 1e3, 1e5, 1e7, 1e9});  // 12 decades: every second one
}

TEST(Svg, IntegerTicksKeepWholeNumbers) {
  expect_ticks(integer_ticks(linear_ticks(1, 2), 1, 2), {1, 2});
  expect_ticks(integer_ticks(linear_ticks(1, 3), 1, 3), {1, 2, 3});  // 1, 1.5, ... → the whole ones
  expect_ticks(integer_ticks(linear_ticks(1.2, 1.8), 1.2, 1.8), {});
}

TEST(Svg, ScalesMapLinearlyOrByLogarithm) {
  const Scale linear(0, 10, 0, 100, false);
  EXPECT_DOUBLE_EQ(linear(5), 50);
  EXPECT_DOUBLE_EQ(linear(10), 100);
  const Scale upward(0, 10, 300, 100, false);  // a y axis: pixels grow downwards
  EXPECT_DOUBLE_EQ(upward(2.5), 250);
  const Scale logarithmic(1, 100, 0, 200, true);
  EXPECT_DOUBLE_EQ(logarithmic(10), 100);
  EXPECT_NEAR(logarithmic(1000), 300, 1e-9);
}

TEST(Svg, EveryTextIsEscaped) {
  EXPECT_EQ(escape_html("<script>alert('x')&\"</script>"), "&lt;script&gt;alert(&#39;x&#39;)&amp;&quot;&lt;/script&gt;");
  EXPECT_EQ(escape_html(std::string("a\xff" "b")), "a\xEF\xBF\xBD" "b");  // invalid UTF-8: U+FFFD
  Chart chart;
  chart.title = "<b>title</b>";
  chart.x.label = "<script>x</script>";
  chart.series.push_back({"<script>alert(1)</script>", {{1, 1, {}, {}}, {2, 2, {}, {}}}, Mark::line_points, -1, false});
  const std::string svg = render_chart(chart);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

TEST(Svg, ChartsDrawEachMark) {
  Chart chart;
  chart.x = {"p", false, {}, {}, true};
  chart.series.push_back({"line", {{1, 1, {}, {}}, {2, 2, {}, {}}, {3, NAN, {}, {}}, {4, 3, {}, {}}, {5, 4, {}, {}}}, Mark::line, -1, false});
  chart.series.push_back({"bars", {{1, 1, 0.5, 1.5}, {2, 2, 1.5, 2.5}}, Mark::error_bars, -1, false});
  chart.series.push_back({"band", {{1, 1, 0.5, 1.5}, {2, 2, 1.5, 2.5}}, Mark::band, -1, false});
  chart.shades.push_back({4, 5, "extrapolation"});
  const std::string svg = render_chart(chart);
  EXPECT_EQ(count(svg, "<svg"), 1u);
  EXPECT_EQ(count(svg, "class=\"line\""), 1u);
  const std::size_t line_at = svg.find("class=\"line\"");
  const std::string line = svg.substr(svg.rfind("<path", line_at), svg.find("</path>", line_at) - svg.rfind("<path", line_at));
  EXPECT_EQ(count(line, "M"), 2u) << line;  // the NaN breaks the line into two pieces
  EXPECT_NE(line.find("<title>line: from 1, 1 to 5, 4</title>"), std::string::npos) << line;
  EXPECT_EQ(count(svg, "class=\"error-bar\""), 2u);
  EXPECT_EQ(count(svg, "class=\"point\""), 2u);  // the error bars' points; the line has none
  EXPECT_EQ(count(svg, "class=\"band\""), 1u);
  EXPECT_EQ(count(svg, "class=\"shade\""), 1u);
  EXPECT_NE(svg.find(">extrapolation</text>"), std::string::npos);  // named in the legend
  // Whole-number ticks on the x axis 1..5 (padded to 0.84..5.16): 1, 2, 3, 4, 5.
  EXPECT_EQ(count(svg, "text-anchor=\"middle\">1.5<"), 0u);
  for (const char* tick : {">1<", ">2<", ">3<", ">4<", ">5<"}) EXPECT_NE(svg.find(tick), std::string::npos) << tick;
}

TEST(Svg, LogAxesLeaveOutWhatTheyCannotShowAndSaySo) {
  Chart chart;
  chart.y.logarithmic = true;
  chart.series.push_back({"s", {{1, 10, {}, {}}, {2, 0, {}, {}}, {3, -1, {}, {}}, {4, 1000, {}, {}}}, Mark::points, -1, false});
  const std::string svg = render_chart(chart);
  EXPECT_EQ(count(svg, "class=\"point\""), 2u);
  EXPECT_NE(svg.find("2 values ≤ 0 not shown on the logarithmic axis"), std::string::npos);
  for (const char* tick : {">10<", ">100<", ">1000<"}) EXPECT_NE(svg.find(tick), std::string::npos) << tick;
}

TEST(Svg, GanttBarsSpanTheirTimes) {
  Gantt gantt{"tasks", "time", {{"a", 0, 10, ""}, {"b", 5, 10, "<i>"}, {"a", 10, 12, ""}}, 760};
  const std::string svg = render_gantt(gantt);
  EXPECT_EQ(count(svg, "class=\"bar\""), 3u);
  EXPECT_EQ(count(svg, "class=\"row-label\""), 2u);  // rows a and b
  EXPECT_EQ(svg.find("<i>"), std::string::npos);
  const std::regex bar("class=\"bar\" x=\"([0-9.]+)\" y=\"([0-9.]+)\" width=\"([0-9.]+)\"");
  std::vector<double> x, y, width;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it) {
    x.push_back(std::stod((*it)[1]));
    y.push_back(std::stod((*it)[2]));
    width.push_back(std::stod((*it)[3]));
  }
  ASSERT_EQ(x.size(), 3u);
  EXPECT_NEAR(width[0], 2 * width[1], 0.2);         // 10 units against 5
  EXPECT_NEAR(x[1], x[0] + width[1], 0.2);          // b starts at 5
  EXPECT_NEAR(x[2], x[0] + width[0], 0.2);          // a again at 10
  EXPECT_EQ(y[0], y[2]);                            // the same row
  EXPECT_GT(y[1], y[0]);
}

TEST(Svg, BarChartsDrawOneBarPerValue) {
  BarChart chart{"levels", "miss rate", {"l1", "l2"}, {{"a", {0.5, 0.25}}, {"b", {1, NAN}}}, 640, 300};
  const std::string svg = render_bars(chart);
  EXPECT_EQ(count(svg, "class=\"bar\""), 3u);  // the NaN has no bar
  const std::regex bar("class=\"bar\" x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"[0-9.]+\" height=\"([0-9.]+)\"");
  std::vector<double> height;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it) height.push_back(std::stod((*it)[1]));
  ASSERT_EQ(height.size(), 3u);
  EXPECT_NEAR(height[0], 2 * height[1], 0.2);
  EXPECT_NEAR(height[2], 2 * height[0], 0.2);
}

}  // namespace
}  // namespace augur::report
