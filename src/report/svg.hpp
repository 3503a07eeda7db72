// A small SVG chart writer for the report page (docs/report.md): axes with readable ticks, linear or
// logarithmic, lines, points, error bars, bands, shaded regions, a legend, bar charts and Gantt bars.
// Pure: a chart in, SVG text out. Every text from a user's input is escaped.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace augur::report {

// `text` safe inside HTML or SVG text and attribute values (& < > " ' escaped); invalid UTF-8 replaced.
[[nodiscard]] std::string escape_html(std::string_view text);

// A number as a person writes it: at most `significant` digits, no trailing zeros ("10", "0.5", "1.59",
// "2.1e+06" → "2.1e6", "1e-05" → "1e-5"); "-" for NaN, "inf" / "-inf".
[[nodiscard]] std::string format_number(double value, int significant = 4);

// Ticks of a linear axis over [low, high]: at most target + 1 round values (the smallest step of 1, 2 or 5
// times a power of ten that is at least (high - low) / target), all within [low, high].
[[nodiscard]] std::vector<double> linear_ticks(double low, double high, int target = 6);

// Ticks of a logarithmic axis over [low, high] (low > 0): the powers of ten within, with 2 and 5 times them
// when the range spans fewer than three decades, with every power of two when it spans less than one decade
// and holds at least two; linear ticks when nothing else gives two ticks.
[[nodiscard]] std::vector<double> log_ticks(double low, double high);

// The ticks of `linear_ticks` or `log_ticks` that are whole numbers; when fewer than two are, every whole
// number in [low, high] (at most `target` of them, evenly strided).
[[nodiscard]] std::vector<double> integer_ticks(std::vector<double> ticks, double low, double high, int target = 6);

// A map from data values to pixels along one axis.
class Scale {
 public:
  Scale(double low, double high, double pixel_low, double pixel_high, bool logarithmic);
  [[nodiscard]] double operator()(double value) const;
  [[nodiscard]] bool logarithmic() const { return logarithmic_; }
  [[nodiscard]] double low() const { return low_; }
  [[nodiscard]] double high() const { return high_; }

 private:
  double low_, high_, pixel_low_, pixel_high_;
  bool logarithmic_;
};

struct Axis {
  std::string label;
  bool logarithmic = false;
  std::optional<double> minimum, maximum;  // forced bounds (else from the data, padded)
  bool integer = false;                    // ticks on whole numbers only (thread counts, processors)
};

struct Point {
  double x = 0, y = 0;
  std::optional<double> low, high;  // an error bar or a band's edges
};

enum class Mark {
  line,         // a line through the points; a NaN y breaks it (segments drawn apart)
  points,       // circles
  line_points,  // both
  error_bars,   // circles with vertical bars from low to high
  band,         // a filled band between low and high
  ranges,       // the vertical bars of error_bars alone (beside a line_points series of the same values)
};

struct Series {
  std::string name;  // the legend's text; empty: not in the legend
  std::vector<Point> points;
  Mark mark = Mark::line_points;
  int color = -1;  // index in the palette; -1: the series' own index
  bool dashed = false;
};

struct Shade {  // a shaded stretch of the x axis (the extrapolation region), named in the legend
  double from = 0, to = 0;
  std::string name;
};

struct Chart {
  std::string title;
  Axis x, y;
  std::vector<Series> series;
  std::vector<Shade> shades;
  int width = 640, height = 380;
};

// The chart as one <svg> element (class "chart"). Values a logarithmic axis cannot show (≤ 0) are left out
// and said in a note under the plot.
[[nodiscard]] std::string render_chart(const Chart& chart);

struct BarGroup {
  std::string label;            // the category on the x axis
  std::vector<double> values;   // one per series (NaN: none)
};

struct BarChart {
  std::string title;
  std::string y_label;
  std::vector<std::string> series;  // legend names, one per value of each group
  std::vector<BarGroup> groups;
  int width = 640, height = 340;
};

[[nodiscard]] std::string render_bars(const BarChart& chart);

struct GanttBar {
  std::string row;  // the row's label (a task, a job)
  double start = 0, end = 0;
  std::string note;  // shown on hover
};

struct Gantt {
  std::string title;
  std::string x_label;
  std::vector<GanttBar> bars;  // bars of the same row share it, in the order rows first appear
  int width = 760;
};

[[nodiscard]] std::string render_gantt(const Gantt& gantt);

}  // namespace augur::report
