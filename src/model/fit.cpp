#include "model/fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace augur::model {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double infinity = std::numeric_limits<double>::infinity();

// Unconstrained fit of b ≈ A s over the columns in `free` (A already weighted); the statistics of the
// weighted problem go into `fit`, the constants (of all columns, 0 outside `free`) into it too.
void least_squares(const Eigen::MatrixXd& weighted_design, const Eigen::VectorXd& weighted_values,
                   const std::vector<int>& free, LinearFit& fit) {
  const Eigen::Index rows = weighted_design.rows();
  const Eigen::Index count = static_cast<Eigen::Index>(free.size());
  const Eigen::Index columns = weighted_design.cols();
  fit.constants = Eigen::VectorXd::Zero(columns);
  fit.standard_errors = Eigen::VectorXd::Zero(columns);
  fit.covariance = Eigen::MatrixXd::Zero(columns, columns);
  fit.free_constants = static_cast<int>(count);
  Eigen::VectorXd leverage = Eigen::VectorXd::Zero(rows);
  Eigen::VectorXd residuals = weighted_values;
  if (count == 0) {
    fit.rank = 0;
    fit.weighted_rss = residuals.squaredNorm();
    fit.loo_predictions = residuals;  // placeholder, replaced by the caller's unweighting
    fit.press = fit.weighted_rss;
    fit.loo_predictions.setZero();
    return;
  }
  Eigen::MatrixXd scaled(rows, count);
  Eigen::VectorXd scale(count);
  for (Eigen::Index j = 0; j < count; ++j) {
    const double norm = weighted_design.col(free[static_cast<std::size_t>(j)]).norm();
    scale(j) = norm > 0 ? norm : 1.0;
    scaled.col(j) = weighted_design.col(free[static_cast<std::size_t>(j)]) / scale(j);
  }
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(scaled);
  qr.setThreshold(1e-10);
  fit.rank = static_cast<int>(qr.rank());
  const Eigen::VectorXd solution = qr.solve(weighted_values);
  residuals = weighted_values - scaled * solution;
  fit.weighted_rss = residuals.squaredNorm();
  const Eigen::Index dof = rows - count;
  fit.sigma2 = dof > 0 ? fit.weighted_rss / static_cast<double>(dof) : not_a_number;

  // Thin Q: its rows give the leverages h_ii = ‖Q_i‖².
  const Eigen::Index rank = std::min<Eigen::Index>(qr.rank(), rows);
  const Eigen::MatrixXd thin_q = qr.householderQ() * Eigen::MatrixXd::Identity(rows, rank);
  leverage = thin_q.rowwise().squaredNorm();

  // (AᵀA)⁻¹ of the scaled problem = P R⁻¹ R⁻ᵀ Pᵀ.
  Eigen::MatrixXd inverse = Eigen::MatrixXd::Constant(count, count, not_a_number);
  if (qr.rank() == count) {
    const Eigen::MatrixXd r = qr.matrixR().topLeftCorner(count, count).triangularView<Eigen::Upper>();
    const Eigen::MatrixXd r_inverse = r.triangularView<Eigen::Upper>().solve(Eigen::MatrixXd::Identity(count, count));
    const Eigen::MatrixXd permuted = r_inverse * r_inverse.transpose();
    inverse = qr.colsPermutation() * permuted * qr.colsPermutation().transpose();
  }
  for (Eigen::Index j = 0; j < count; ++j) {
    const int column = free[static_cast<std::size_t>(j)];
    fit.constants(column) = solution(j) / scale(j);
    for (Eigen::Index l = 0; l < count; ++l) {
      fit.covariance(column, free[static_cast<std::size_t>(l)]) = fit.sigma2 * inverse(j, l) / (scale(j) * scale(l));
    }
    fit.standard_errors(column) = std::sqrt(fit.covariance(column, column));
  }
  // Leave-one-out residuals of the weighted problem: r_i / (1 − h_ii).
  fit.loo_predictions = Eigen::VectorXd(rows);
  fit.press = 0.0;
  for (Eigen::Index i = 0; i < rows; ++i) {
    const double remaining = 1.0 - leverage(i);
    const double loo = remaining > 1e-10 ? residuals(i) / remaining : infinity;
    fit.loo_predictions(i) = loo;  // a residual for now; the caller turns it into a prediction
    fit.press += loo * loo;
  }
}

// Lawson–Hanson: min ‖b − A x‖ subject to x ≥ 0; returns the columns left free (x > 0).
std::vector<int> nonnegative_set(const Eigen::MatrixXd& design, const Eigen::VectorXd& values) {
  const Eigen::Index columns = design.cols();
  Eigen::MatrixXd scaled = design;
  for (Eigen::Index j = 0; j < columns; ++j) {
    const double norm = design.col(j).norm();
    if (norm > 0) scaled.col(j) /= norm;
  }
  Eigen::VectorXd x = Eigen::VectorXd::Zero(columns);
  std::vector<bool> passive(static_cast<std::size_t>(columns), false);
  const double tolerance = 1e-12 * std::max(1.0, values.norm());
  auto solve_passive = [&]() {
    std::vector<int> free;
    for (Eigen::Index j = 0; j < columns; ++j) {
      if (passive[static_cast<std::size_t>(j)]) free.push_back(static_cast<int>(j));
    }
    Eigen::MatrixXd sub(scaled.rows(), static_cast<Eigen::Index>(free.size()));
    for (std::size_t j = 0; j < free.size(); ++j) sub.col(static_cast<Eigen::Index>(j)) = scaled.col(free[j]);
    const Eigen::VectorXd partial = sub.colPivHouseholderQr().solve(values);
    Eigen::VectorXd full = Eigen::VectorXd::Zero(columns);
    for (std::size_t j = 0; j < free.size(); ++j) full(free[j]) = partial(static_cast<Eigen::Index>(j));
    return full;
  };
  for (int outer = 0; outer < 3 * columns + 10; ++outer) {
    const Eigen::VectorXd gradient = scaled.transpose() * (values - scaled * x);
    Eigen::Index best = -1;
    for (Eigen::Index j = 0; j < columns; ++j) {
      if (!passive[static_cast<std::size_t>(j)] && gradient(j) > tolerance && (best < 0 || gradient(j) > gradient(best))) best = j;
    }
    if (best < 0) break;
    passive[static_cast<std::size_t>(best)] = true;
    for (int inner = 0; inner < 3 * columns + 10; ++inner) {
      const Eigen::VectorXd candidate = solve_passive();
      bool feasible = true;
      double step = 1.0;
      for (Eigen::Index j = 0; j < columns; ++j) {
        if (passive[static_cast<std::size_t>(j)] && candidate(j) <= 0) {
          feasible = false;
          const double denominator = x(j) - candidate(j);
          if (denominator > 0) step = std::min(step, x(j) / denominator);
        }
      }
      if (feasible) {
        x = candidate;
        break;
      }
      x += step * (candidate - x);
      for (Eigen::Index j = 0; j < columns; ++j) {
        if (passive[static_cast<std::size_t>(j)] && x(j) <= 1e-14) {
          passive[static_cast<std::size_t>(j)] = false;
          x(j) = 0.0;
        }
      }
    }
  }
  std::vector<int> free;
  for (Eigen::Index j = 0; j < columns; ++j) {
    if (passive[static_cast<std::size_t>(j)] && x(j) > 0) free.push_back(static_cast<int>(j));
  }
  return free;
}

// The weighted design and values, scaled by powers of two so that nothing overflows or vanishes: row i
// is divided by |y_i| (relative fit: y_i = m_i·2^e_i, 1/2 ≤ m_i < 1, divided as ldexp(·, −e_i) / m_i,
// so that 1/y_i² is never formed: it overflows for a subnormal y_i), and column j by 2^f_j, f_j the
// largest exponent of its weighted entries. The constants of the scaled problem are then c_j·2^f_j.
struct ScaledProblem {
  Eigen::MatrixXd design;
  Eigen::VectorXd values;
  std::vector<int> column_exponents;  // f_j
};

ScaledProblem scaled_problem(const Eigen::MatrixXd& design, const Eigen::VectorXd& values, bool relative) {
  const Eigen::Index rows = design.rows();
  const Eigen::Index columns = design.cols();
  std::vector<int> row_exponents(static_cast<std::size_t>(rows), 0);
  Eigen::VectorXd mantissas = Eigen::VectorXd::Ones(rows);
  if (relative) {
    for (Eigen::Index i = 0; i < rows; ++i) {
      if (values(i) == 0.0) throw std::invalid_argument("a relative fit needs non-zero values, and one measured value is 0");
      mantissas(i) = std::frexp(std::fabs(values(i)), &row_exponents[static_cast<std::size_t>(i)]);
    }
  }
  ScaledProblem scaled{Eigen::MatrixXd(rows, columns), Eigen::VectorXd(rows), std::vector<int>(static_cast<std::size_t>(columns), 0)};
  for (Eigen::Index j = 0; j < columns; ++j) {
    int largest = std::numeric_limits<int>::min();
    for (Eigen::Index i = 0; i < rows; ++i) {
      if (design(i, j) == 0.0 || !std::isfinite(design(i, j))) continue;
      int exponent = 0;
      (void)std::frexp(design(i, j), &exponent);
      largest = std::max(largest, exponent - row_exponents[static_cast<std::size_t>(i)]);
    }
    const int shift = largest == std::numeric_limits<int>::min() ? 0 : largest;
    scaled.column_exponents[static_cast<std::size_t>(j)] = shift;
    for (Eigen::Index i = 0; i < rows; ++i) {
      scaled.design(i, j) = std::ldexp(design(i, j), -row_exponents[static_cast<std::size_t>(i)] - shift) / mantissas(i);
    }
  }
  for (Eigen::Index i = 0; i < rows; ++i) {
    scaled.values(i) = std::ldexp(values(i), -row_exponents[static_cast<std::size_t>(i)]) / mantissas(i);
  }
  return scaled;
}

}  // namespace

LinearFit fit_linear(const Eigen::MatrixXd& design, const Eigen::VectorXd& values, const FitOptions& options) {
  if (design.rows() != values.size() || design.rows() == 0) throw std::invalid_argument("fit_linear: the design has no rows or does not match the values");
  const Eigen::Index rows = design.rows();
  const ScaledProblem scaled = scaled_problem(design, values, options.relative);
  const Eigen::MatrixXd& weighted_design = scaled.design;
  const Eigen::VectorXd& weighted_values = scaled.values;

  std::vector<int> free;
  if (options.nonnegative) {
    free = nonnegative_set(weighted_design, weighted_values);
  } else {
    for (Eigen::Index j = 0; j < design.cols(); ++j) free.push_back(static_cast<int>(j));
  }

  LinearFit fit;
  fit.relative = options.relative;
  fit.observations = static_cast<int>(rows);
  least_squares(weighted_design, weighted_values, free, fit);
  for (Eigen::Index j = 0; j < design.cols(); ++j) {  // back from the scaled columns: c_j = s_j·2^−f_j
    const int shift = scaled.column_exponents[static_cast<std::size_t>(j)];
    fit.constants(j) = std::ldexp(fit.constants(j), -shift);
    fit.standard_errors(j) = std::ldexp(fit.standard_errors(j), -shift);
    for (Eigen::Index l = 0; l < design.cols(); ++l) {
      fit.covariance(j, l) = std::ldexp(fit.covariance(j, l), -shift - scaled.column_exponents[static_cast<std::size_t>(l)]);
    }
  }
  if (free.empty()) fit.sigma2 = rows > 0 ? fit.weighted_rss / static_cast<double>(rows) : not_a_number;
  fit.fitted = design * fit.constants;
  fit.rss = (values - fit.fitted).squaredNorm();
  for (Eigen::Index i = 0; i < rows; ++i) {
    // the weighted leave-one-out residual, unweighted, is y_i − ŷ_(−i)
    fit.loo_predictions(i) = values(i) - fit.loo_predictions(i) * (options.relative ? std::fabs(values(i)) : 1.0);
  }
  const double average = values.mean();
  const double total = (values.array() - average).square().sum();
  const double n = static_cast<double>(rows);
  const double k = static_cast<double>(fit.free_constants);
  fit.r2 = total > 0 ? 1.0 - fit.rss / total : (fit.rss == 0 ? 1.0 : 0.0);
  fit.adjusted_r2 = n > k ? 1.0 - (1.0 - fit.r2) * (n - 1.0) / (n - k) : not_a_number;
  fit.smape = smape(values, fit.fitted);
  fit.loo_smape = smape(values, fit.loo_predictions);
  return fit;
}

double smape(const Eigen::VectorXd& values, const Eigen::VectorXd& predictions) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    if (!std::isfinite(predictions(i))) return infinity;
    const double denominator = std::fabs(values(i)) + std::fabs(predictions(i));
    sum += denominator > 0 ? 2.0 * std::fabs(values(i) - predictions(i)) / denominator : 0.0;
  }
  return 100.0 * sum / static_cast<double>(values.size());
}

Interval predict_with_interval(const LinearFit& fit, const Eigen::VectorXd& row, double confidence) {
  Interval interval;
  interval.value = row.dot(fit.constants);
  const int dof = fit.degrees_of_freedom();
  if (dof <= 0 || !std::isfinite(fit.sigma2)) {
    interval.lower = interval.upper = not_a_number;
    return interval;
  }
  const double mean_variance = row.dot(fit.covariance * row);
  const double noise_variance = fit.sigma2 * (fit.relative ? interval.value * interval.value : 1.0);
  const double half = student_t_quantile(0.5 + confidence / 2.0, dof) * std::sqrt(std::max(0.0, mean_variance) + noise_variance);
  interval.lower = interval.value - half;
  interval.upper = interval.value + half;
  return interval;
}

Interval predict_with_robust_interval(const LinearFit& fit, const Eigen::MatrixXd& design, const Eigen::VectorXd& values,
                                      const Eigen::VectorXd& row, double confidence) {
  Interval interval;
  interval.value = row.dot(fit.constants);
  const int dof = fit.degrees_of_freedom();
  interval.lower = interval.upper = not_a_number;
  if (dof <= 0 || fit.relative || design.rows() != values.size() || design.cols() != row.size()) return interval;
  // Columns scaled to unit norm, as in the fit, so that (XᵀX)⁻¹ is formed from a well-conditioned matrix.
  Eigen::VectorXd norms = design.colwise().norm().transpose();
  for (Eigen::Index j = 0; j < norms.size(); ++j) norms(j) = norms(j) > 0 ? norms(j) : 1.0;
  const Eigen::MatrixXd scaled = design * norms.cwiseInverse().asDiagonal();
  const Eigen::VectorXd direction = (scaled.transpose() * scaled).ldlt().solve(row.cwiseQuotient(norms));
  const Eigen::VectorXd influence = scaled * direction;  // x0ᵀ (XᵀX)⁻¹ xᵢ for each point i
  double mean_variance = 0.0;
  double relative_noise = 0.0;
  int counted = 0;
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    const double residual = values(i) - fit.loo_predictions(i);
    if (!std::isfinite(residual)) return interval;
    mean_variance += influence(i) * influence(i) * residual * residual;
    if (values(i) != 0) relative_noise += (residual / values(i)) * (residual / values(i)), ++counted;
  }
  const double noise_variance = counted > 0 ? relative_noise / counted * interval.value * interval.value : 0.0;
  const double half = student_t_quantile(0.5 + confidence / 2.0, dof) * std::sqrt(mean_variance + noise_variance);
  if (!std::isfinite(half)) return interval;
  interval.lower = interval.value - half;
  interval.upper = interval.value + half;
  return interval;
}

}  // namespace augur::model
