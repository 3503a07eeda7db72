#include "report/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "core/json_text.hpp"
#include "svg_parts.hpp"

namespace augur::report {
namespace {

using namespace parts;

bool shown(const Point& point, const Axis& x_axis, const Axis& y_axis) {
  return finite(point.x) && finite(point.y) && (!x_axis.logarithmic || point.x > 0) &&
         (!y_axis.logarithmic || point.y > 0);
}

void write_series(std::ostringstream& out, const Series& series, const std::string& color, const Scale& x,
                  const Scale& y, const Chart& chart) {
  out << "<g class=\"series\">";
  const auto edge = [&](double value) {  // a band's or bar's edge on a log axis: clipped to the axis
    return y.logarithmic() && value <= 0 ? y.low() : value;
  };
  if (series.mark == Mark::band) {
    std::string upper, lower;
    for (const Point& point : series.points) {
      if (!point.low || !point.high || !finite(point.x) || (chart.x.logarithmic && point.x <= 0)) continue;
      upper += (upper.empty() ? "M" : "L") + pixel(x(point.x)) + "," + pixel(y(edge(*point.high)));
      lower = "L" + pixel(x(point.x)) + "," + pixel(y(edge(*point.low))) + lower;
    }
    if (!upper.empty()) {
      out << "<path class=\"band\" d=\"" << upper << lower << "Z\" fill=\"" << color
          << "\" fill-opacity=\"0.18\" stroke=\"none\"/>";
    }
  }
  if (series.mark == Mark::line || series.mark == Mark::line_points) {
    std::string path;
    bool pen_down = false;
    const Point* first = nullptr;
    const Point* last = nullptr;
    for (const Point& point : series.points) {
      if (!shown(point, chart.x, chart.y)) {
        pen_down = false;  // a gap: the next point starts a new piece
        continue;
      }
      path += (pen_down ? "L" : "M") + pixel(x(point.x)) + "," + pixel(y(point.y));
      pen_down = true;
      if (!first) first = &point;
      last = &point;
    }
    if (!path.empty()) {
      out << "<path class=\"line\" d=\"" << path << "\" fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\""
          << (series.dashed ? " stroke-dasharray=\"6,4\"" : "") << "><title>" << escape_html(series.name) << ": from "
          << format_number(first->x, 6) << ", " << format_number(first->y, 6) << " to " << format_number(last->x, 6) << ", "
          << format_number(last->y, 6) << "</title></path>";
    }
  }
  if (series.mark == Mark::error_bars || series.mark == Mark::ranges) {
    for (const Point& point : series.points) {
      if (!shown(point, chart.x, chart.y) || !point.low || !point.high) continue;
      const double at = x(point.x);
      out << "<path class=\"error-bar\" d=\"M" << pixel(at) << "," << pixel(y(edge(*point.low))) << "L" << pixel(at)
          << "," << pixel(y(edge(*point.high))) << "M" << pixel(at - 4) << "," << pixel(y(edge(*point.low))) << "h8M"
          << pixel(at - 4) << "," << pixel(y(edge(*point.high))) << "h8\" stroke=\"" << color << "\"/>";
    }
  }
  if (series.mark == Mark::points || series.mark == Mark::line_points || series.mark == Mark::error_bars) {
    for (const Point& point : series.points) {
      if (!shown(point, chart.x, chart.y)) continue;
      out << "<circle class=\"point\" cx=\"" << pixel(x(point.x)) << "\" cy=\"" << pixel(y(point.y))
          << "\" r=\"3.5\" fill=\"" << color << "\"><title>" << escape_html(series.name) << ": "
          << format_number(point.x, 6) << ", " << format_number(point.y, 6) << "</title></circle>";
    }
  }
  out << "</g>";
}

}  // namespace

using namespace parts;

std::string escape_html(std::string_view text) {
  const std::string valid = core::valid_utf8(text);
  std::string escaped;
  escaped.reserve(valid.size());
  for (char c : valid) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&#39;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string format_number(double value, int significant) {
  if (std::isnan(value)) return "-";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", std::clamp(significant, 1, 17), value);
  std::string number = text;
  const auto exponent_at = number.find('e');
  std::string mantissa = number.substr(0, exponent_at);
  std::string exponent = exponent_at == std::string::npos ? "" : number.substr(exponent_at + 1);
  if (mantissa.find('.') != std::string::npos) {
    while (mantissa.back() == '0') mantissa.pop_back();
    if (mantissa.back() == '.') mantissa.pop_back();
  }
  if (exponent.empty()) return mantissa;
  const bool negative = exponent[0] == '-';
  std::size_t digits = (exponent[0] == '-' || exponent[0] == '+') ? 1 : 0;
  while (digits + 1 < exponent.size() && exponent[digits] == '0') ++digits;
  return mantissa + "e" + (negative ? "-" : "") + exponent.substr(digits);
}

std::vector<double> linear_ticks(double low, double high, int target) {
  if (!finite(low) || !finite(high)) return {};
  if (high < low) std::swap(low, high);
  if (high == low) return {low};
  const double raw = (high - low) / std::max(target, 1);
  if (!finite(raw) || raw <= std::fabs(high) * 1e-15) return {low, high};  // beyond double's range or precision
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double residual = raw / magnitude;
  // The smallest round step at least `raw`: never more than target + 1 ticks.
  const double step = magnitude * (residual <= 1 + 1e-9 ? 1 : residual <= 2 + 1e-9 ? 2 : residual <= 5 + 1e-9 ? 5 : 10);
  const double first = std::ceil(low / step - 1e-9);
  std::vector<double> ticks;
  for (double index = first; index < first + 2.0 * std::max(target, 1) + 2; index += 1) {
    double tick = index * step;
    if (tick > high + step * 1e-9) break;
    if (std::fabs(tick) < step * 1e-9) tick = 0;
    ticks.push_back(tick);
  }
  return ticks;
}

std::vector<double> log_ticks(double low, double high) {
  if (!(low > 0) || !finite(high) || high <= low) return linear_ticks(low, high);
  const double decades = std::log10(high / low);
  std::vector<double> ticks;
  const auto within = [&](double value) { return value >= low * (1 - 1e-9) && value <= high * (1 + 1e-9); };
  if (decades < 1) {
    for (double power = std::ceil(std::log2(low) - 1e-9); power <= std::floor(std::log2(high) + 1e-9); power += 1) {
      ticks.push_back(std::exp2(power));
    }
    if (ticks.size() >= 2) return ticks;
    ticks.clear();
  }
  const double first = std::floor(std::log10(low)), last = std::ceil(std::log10(high));
  const double stride = std::max(1.0, std::ceil(decades / 8));  // at most about 8 powers of ten
  for (double power = first; power <= last; power += stride) {
    const double decade = std::pow(10.0, power);
    for (double multiple : decades < 3 ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
      if (within(decade * multiple)) ticks.push_back(decade * multiple);
    }
  }
  if (ticks.size() < 2) return linear_ticks(low, high);
  return ticks;
}

std::vector<double> integer_ticks(std::vector<double> ticks, double low, double high, int target) {
  std::erase_if(ticks, [](double tick) { return tick != std::round(tick); });
  if (ticks.size() >= 2 || !finite(low) || !finite(high)) return ticks;
  ticks.clear();
  const double first = std::ceil(low), last = std::floor(high);
  const double stride = std::max(1.0, std::ceil((last - first + 1) / std::max(target, 1)));
  for (int index = 0; index <= std::max(target, 1) + 1; ++index) {
    const double tick = first + stride * index;
    if (tick > last || (index > 0 && tick == ticks.back())) break;
    ticks.push_back(tick);
  }
  return ticks;
}

Scale::Scale(double low, double high, double pixel_low, double pixel_high, bool logarithmic)
    : low_(low), high_(high), pixel_low_(pixel_low), pixel_high_(pixel_high), logarithmic_(logarithmic) {}

double Scale::operator()(double value) const {
  const auto position = [this](double v) { return logarithmic_ ? std::log10(v) : v; };
  const double from = position(low_), to = position(high_);
  if (to == from) return (pixel_low_ + pixel_high_) / 2;
  return pixel_low_ + (position(value) - from) / (to - from) * (pixel_high_ - pixel_low_);
}

std::string render_chart(const Chart& chart) {
  Range x_range, y_range;
  int hidden = 0;
  for (const Series& series : chart.series) {
    for (const Point& point : series.points) {
      if (!finite(point.x) || !finite(point.y)) continue;
      if (!shown(point, chart.x, chart.y)) {
        ++hidden;
        continue;
      }
      x_range.add(point.x, chart.x.logarithmic);
      y_range.add(point.y, chart.y.logarithmic);
      if (point.low) y_range.add(*point.low, chart.y.logarithmic);
      if (point.high) y_range.add(*point.high, chart.y.logarithmic);
    }
  }
  for (const Shade& shade : chart.shades) {
    x_range.add(shade.from, chart.x.logarithmic);
    x_range.add(shade.to, chart.x.logarithmic);
  }
  std::vector<LegendItem> legend;
  for (std::size_t index = 0; index < chart.series.size(); ++index) {
    const Series& series = chart.series[index];
    if (series.name.empty()) continue;
    legend.push_back({series.name, color_of(series.color >= 0 ? series.color : static_cast<int>(index)),
                      series.mark == Mark::band, series.dashed,
                      series.mark == Mark::points || series.mark == Mark::error_bars});
  }
  for (const Shade& shade : chart.shades) {
    if (!shade.name.empty()) legend.push_back({shade.name, "#888", true, false});
  }
  const int legend_size = legend_height(legend, chart.width);
  const int note_size = hidden > 0 ? 16 : 0;
  const int height = chart.height + legend_size + note_size;
  const Frame frame{72, chart.title.empty() ? 12.0 : 30.0, chart.width - 18.0, chart.height - 48.0};
  const Range xs = padded(x_range, chart.x), ys = padded(y_range, chart.y);
  const Scale x(xs.low, xs.high, frame.left, frame.right, chart.x.logarithmic);
  const Scale y(ys.low, ys.high, frame.bottom, frame.top, chart.y.logarithmic);

  std::ostringstream out;
  open_svg(out, chart.width, height, chart.title, "plot");
  for (const Shade& shade : chart.shades) {
    const double from = x(std::clamp(shade.from, xs.low, xs.high)), to = x(std::clamp(shade.to, xs.low, xs.high));
    out << "<rect class=\"shade\" x=\"" << pixel(std::min(from, to)) << "\" y=\"" << pixel(frame.top) << "\" width=\""
        << pixel(std::fabs(to - from)) << "\" height=\"" << pixel(frame.bottom - frame.top)
        << "\" fill=\"#888\" fill-opacity=\"0.15\"><title>" << escape_html(shade.name) << "</title></rect>";
  }
  write_x_axis(out, x, frame, chart.x.label, chart.x.integer);
  write_y_axis(out, y, frame, chart.y.label, chart.y.integer);
  for (std::size_t index = 0; index < chart.series.size(); ++index) {
    const Series& series = chart.series[index];
    write_series(out, series, color_of(series.color >= 0 ? series.color : static_cast<int>(index)), x, y, chart);
  }
  write_legend(out, legend, chart.width, chart.height);
  if (hidden > 0) {
    out << "<text class=\"note\" x=\"10\" y=\"" << chart.height + legend_size + 12 << "\">" << hidden
        << (hidden == 1 ? " value" : " values") << " ≤ 0 not shown on the logarithmic axis</text>";
  }
  out << "</svg>";
  return out.str();
}

}  // namespace augur::report
