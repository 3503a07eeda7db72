#include "model/segment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace augur::model {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

struct Problem {
  const Eigen::MatrixXd& design;
  const Eigen::VectorXd& values;
  const Eigen::MatrixXd& parameters;
  const SegmentOptions& options;
  double floor;  // the smallest weighted RSS taken seriously (rounding of an exact fit)
};

Segment fit_members(const Problem& problem, std::vector<int> members) {
  const Eigen::Index rows = static_cast<Eigen::Index>(members.size());
  Eigen::MatrixXd design(rows, problem.design.cols());
  Eigen::VectorXd values(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    design.row(i) = problem.design.row(members[static_cast<std::size_t>(i)]);
    values(i) = problem.values(members[static_cast<std::size_t>(i)]);
  }
  Segment segment;
  segment.fit = fit_linear(design, values, problem.options.fit);
  const Eigen::Index count = problem.parameters.cols();
  segment.lower.assign(static_cast<std::size_t>(count), infinity);
  segment.upper.assign(static_cast<std::size_t>(count), -infinity);
  for (int member : members) {
    for (Eigen::Index p = 0; p < count; ++p) {
      segment.lower[static_cast<std::size_t>(p)] = std::min(segment.lower[static_cast<std::size_t>(p)], problem.parameters(member, p));
      segment.upper[static_cast<std::size_t>(p)] = std::max(segment.upper[static_cast<std::size_t>(p)], problem.parameters(member, p));
    }
  }
  segment.members = std::move(members);
  return segment;
}

double segments_bic(const std::vector<Segment>& segments, const Problem& problem) {
  double wrss = 0.0;
  double n = 0.0;
  double constants = 0.0;
  for (const Segment& segment : segments) {
    wrss += segment.fit.weighted_rss;
    n += segment.fit.observations;
    constants += segment.fit.free_constants;
  }
  const double s = static_cast<double>(segments.size());
  return n * std::log(std::max(wrss, problem.floor) / n) + (constants + s - 1.0) * std::log(n);
}

// The best split of `members` along `parameter` into exactly 1..max segments: result[s−1] (empty when
// impossible), by dynamic programming over the sorted distinct values.
std::vector<std::vector<Segment>> splits_along(const Problem& problem, const std::vector<int>& members, int parameter, int most) {
  std::vector<double> distinct;
  for (int member : members) distinct.push_back(problem.parameters(member, parameter));
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const int m = static_cast<int>(distinct.size());
  const int needed = static_cast<int>(problem.design.cols()) + 2;
  std::vector<std::vector<int>> at(static_cast<std::size_t>(m));
  for (int member : members) {
    const auto position = std::lower_bound(distinct.begin(), distinct.end(), problem.parameters(member, parameter)) - distinct.begin();
    at[static_cast<std::size_t>(position)].push_back(member);
  }
  // cost[a][b]: weighted RSS of one segment over distinct values a..b (infinite when too small or singular)
  std::vector<std::vector<double>> cost(static_cast<std::size_t>(m), std::vector<double>(static_cast<std::size_t>(m), infinity));
  for (int a = 0; a < m; ++a) {
    std::vector<int> range;
    for (int b = a; b < m; ++b) {
      range.insert(range.end(), at[static_cast<std::size_t>(b)].begin(), at[static_cast<std::size_t>(b)].end());
      if (static_cast<int>(range.size()) < needed) continue;
      const Segment segment = fit_members(problem, range);
      if (segment.fit.full_rank()) cost[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = segment.fit.weighted_rss;
    }
  }
  // best[s][b]: least cost of s + 1 segments covering values 0..b; from[s][b]: where the last one starts
  const int limit = std::min(most, m);
  std::vector<std::vector<double>> best(static_cast<std::size_t>(limit), std::vector<double>(static_cast<std::size_t>(m), infinity));
  std::vector<std::vector<int>> from(static_cast<std::size_t>(limit), std::vector<int>(static_cast<std::size_t>(m), -1));
  for (int b = 0; b < m; ++b) best[0][static_cast<std::size_t>(b)] = cost[0][static_cast<std::size_t>(b)], from[0][static_cast<std::size_t>(b)] = 0;
  for (int s = 1; s < limit; ++s) {
    for (int b = s; b < m; ++b) {
      for (int a = s; a <= b; ++a) {
        const double total = best[static_cast<std::size_t>(s - 1)][static_cast<std::size_t>(a - 1)] + cost[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
        if (total < best[static_cast<std::size_t>(s)][static_cast<std::size_t>(b)]) {
          best[static_cast<std::size_t>(s)][static_cast<std::size_t>(b)] = total;
          from[static_cast<std::size_t>(s)][static_cast<std::size_t>(b)] = a;
        }
      }
    }
  }
  std::vector<std::vector<Segment>> result(static_cast<std::size_t>(most));
  for (int s = 0; s < limit; ++s) {
    if (!std::isfinite(best[static_cast<std::size_t>(s)][static_cast<std::size_t>(m - 1)])) continue;
    std::vector<Segment> segments;
    int end = m - 1;
    for (int level = s; level >= 0; --level) {
      const int start = from[static_cast<std::size_t>(level)][static_cast<std::size_t>(end)];
      std::vector<int> range;
      for (int value = start; value <= end; ++value) range.insert(range.end(), at[static_cast<std::size_t>(value)].begin(), at[static_cast<std::size_t>(value)].end());
      segments.push_back(fit_members(problem, range));
      end = start - 1;
    }
    std::reverse(segments.begin(), segments.end());
    result[static_cast<std::size_t>(s)] = std::move(segments);
  }
  return result;
}

// Splits `members` as well as BIC allows, trying the parameters not yet used; recursive.
std::vector<Segment> refine(const Problem& problem, const std::vector<int>& members, std::vector<bool> used) {
  std::vector<Segment> best = {fit_members(problem, members)};
  double best_bic = segments_bic(best, problem);
  int best_parameter = -1;
  for (int parameter = 0; parameter < problem.parameters.cols(); ++parameter) {
    if (used[static_cast<std::size_t>(parameter)]) continue;
    const auto splits = splits_along(problem, members, parameter, problem.options.max_segments);
    for (std::size_t s = 1; s < splits.size(); ++s) {
      if (splits[s].empty()) continue;
      const double value = segments_bic(splits[s], problem);
      if (value < best_bic - 1e-9) best_bic = value, best = splits[s], best_parameter = parameter;
    }
  }
  if (best_parameter < 0) return best;
  used[static_cast<std::size_t>(best_parameter)] = true;
  std::vector<Segment> result;
  for (const Segment& segment : best) {
    auto pieces = refine(problem, segment.members, used);
    result.insert(result.end(), pieces.begin(), pieces.end());
  }
  return result;
}

}  // namespace

Segmentation segment_fit(const Eigen::MatrixXd& design, const Eigen::VectorXd& values, const Eigen::MatrixXd& parameters,
                         const SegmentOptions& options) {
  // Σ w y², the weighted values' size: n for a relative fit (w = 1/y², never formed: it overflows for a subnormal y)
  const double scale = options.fit.relative ? static_cast<double>(values.size()) : values.squaredNorm();
  const Problem problem{design, values, parameters, options, std::max(1e-300, 1e-18 * scale)};
  std::vector<int> all(static_cast<std::size_t>(values.size()));
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);

  Segmentation result;
  if (options.segments == 1) {
    result.segments = {fit_members(problem, all)};
  } else if (options.segments == 0 && options.parameter < 0) {
    result.segments = refine(problem, all, std::vector<bool>(static_cast<std::size_t>(parameters.cols()), false));
  } else {
    // A given parameter, or a given number of segments: the best single split.
    double best_bic = infinity;
    const int first = options.parameter >= 0 ? options.parameter : 0;
    const int last = options.parameter >= 0 ? options.parameter : static_cast<int>(parameters.cols()) - 1;
    for (int parameter = first; parameter <= last; ++parameter) {
      const int most = options.segments > 0 ? options.segments : options.max_segments;
      const auto splits = splits_along(problem, all, parameter, most);
      for (std::size_t s = 0; s < splits.size(); ++s) {
        if (splits[s].empty() || (options.segments > 0 && static_cast<int>(s) + 1 != options.segments)) continue;
        const double value = segments_bic(splits[s], problem);
        if (value < best_bic) best_bic = value, result.segments = splits[s];
      }
    }
    if (result.segments.empty()) {
      throw std::invalid_argument("cannot make " + std::to_string(options.segments) + " segments with at least " +
                                  std::to_string(design.cols() + 2) + " points each (the formula has " +
                                  std::to_string(design.cols()) + " constants)");
    }
  }
  result.bic = segments_bic(result.segments, problem);
  return result;
}

std::size_t segment_for(const Segmentation& segmentation, const std::vector<double>& point) {
  std::size_t chosen = 0;
  double nearest = infinity;
  for (std::size_t index = 0; index < segmentation.segments.size(); ++index) {
    const Segment& segment = segmentation.segments[index];
    double distance = 0.0;
    for (std::size_t p = 0; p < point.size() && p < segment.lower.size(); ++p) {
      auto gap = [](double a, double b) {
        return a > 0 && b > 0 ? std::fabs(std::log(a / b)) : std::fabs(a - b);
      };
      if (point[p] < segment.lower[p]) distance += gap(segment.lower[p], point[p]);
      if (point[p] > segment.upper[p]) distance += gap(point[p], segment.upper[p]);
    }
    if (distance < nearest) nearest = distance, chosen = index;
  }
  return chosen;
}

}  // namespace augur::model
