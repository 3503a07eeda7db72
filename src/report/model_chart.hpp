// The pieces of a model's chart (page_model.cpp) that the comparison of several fits (page_compare.cpp)
// draws with too. Private to augur_report.
#pragma once

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "augur/core/expression.hpp"
#include "report/svg.hpp"
#include "view.hpp"

namespace augur::report {

struct Bound {
  double low = INFINITY, high = -INFINITY;
};

// The bounds of every parameter over all segments of a model (fit --json's "segments").
[[nodiscard]] std::map<std::string, Bound> bounds_of(const View& segments);

// What a model's chart runs along: the parameter whose bounds span most, its measured range, and the other
// parameters at their largest measured value.
struct ModelAxis {
  std::string varied;
  Bound range;
  core::Bindings fixed;
  std::string fixed_text;  // "N = 2097152"
};
[[nodiscard]] std::optional<ModelAxis> model_axis(const std::map<std::string, Bound>& bounds);

// A logarithmic axis for a positive range of a ratio of 8 or more.
[[nodiscard]] bool logarithmic_range(const Bound& range);
// Where the chart's extrapolation ends: 4 times the largest measured value (logarithmic), else half the range on.
[[nodiscard]] double extrapolated_end(const Bound& range);

// The lines of the model's segments along axis.varied, each over its interval of validity, the last to `end`;
// `color` < 0: one colour per segment, else this one for all.
[[nodiscard]] std::vector<Series> segment_series(const View& model, const ModelAxis& axis, double end, bool logarithmic, int color);
// The measurements of the model's region and metric the command attached to the fit's JSON, at `fixed`.
[[nodiscard]] Series measured_series(const View& fit, const View& model, const std::string& varied, const core::Bindings& fixed);

}  // namespace augur::report
