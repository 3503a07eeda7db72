// The pieces (svg_parts.cpp) that the charts of the page (svg.cpp, svg_bars.cpp, timeline.cpp) draw with:
// the palette, pixel text, padded ranges, the frame of a plot, its x axis, the legend. Private to augur_report.
#pragma once

#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "report/svg.hpp"

namespace augur::report::parts {

// The colour of series `index` in Okabe and Ito's palette (8 colours, repeated).
[[nodiscard]] const char* color_of(int index);
// A pixel coordinate with one decimal: "12.5".
[[nodiscard]] std::string pixel(double value);
[[nodiscard]] bool finite(double value);

// The range of a set of values, padded so that no mark sits on the frame.
struct Range {
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  void add(double value, bool logarithmic) {
    if (!finite(value) || (logarithmic && value <= 0)) return;
    low = low < value ? low : value;
    high = high > value ? high : value;
  }
  [[nodiscard]] bool empty() const { return low > high; }
};
[[nodiscard]] Range padded(Range range, const Axis& axis);
[[nodiscard]] std::vector<double> ticks_of(const Scale& scale, bool integer);

struct LegendItem {
  std::string name;
  std::string color;
  bool shade = false;
  bool dashed = false;
  bool point = false;  // a mark without a line: a dot
  bool solid = false;  // a shade drawn opaque (the bars of a timeline), not translucent (a shaded region)
};
// The legend under the plot, wrapped to the width: its height, and the legend itself from `top`.
[[nodiscard]] int legend_height(const std::vector<LegendItem>& items, int width);
void write_legend(std::ostringstream& out, const std::vector<LegendItem>& items, int width, int top);

// The <svg> element's head: size, class "chart KIND", its title, the white background.
void open_svg(std::ostringstream& out, int width, int height, const std::string& title, const char* kind);

struct Frame {
  double left, top, right, bottom;  // the plot area, pixels
};
void write_x_axis(std::ostringstream& out, const Scale& x, const Frame& frame, const std::string& label, bool integer);
void write_y_axis(std::ostringstream& out, const Scale& y, const Frame& frame, const std::string& label, bool integer);

}  // namespace augur::report::parts
