// Linear least squares for complexity formulas: y ≈ X c, X the terms' values at the measured points.
//
// Columns are scaled to unit norm and factorised by column-pivoting Householder QR (Eigen). The
// constants come with standard errors from σ² (XᵀWX)⁻¹; leave-one-out residuals come exactly from
// the same factorisation as r_i / (1 − h_ii), h_ii the leverage (the squared norm of row i of the thin
// Q), without refitting. Relative weighting (W = diag(1/y²)) fits relative errors, as timing noise is
// multiplicative. Non-negative constants are found by Lawson–Hanson's active-set method.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "augur/core/stats.hpp"

namespace augur::model {

struct FitOptions {
  bool relative = false;     // weight each point by 1/y² (minimise relative errors)
  bool nonnegative = false;  // constrain every constant to be ≥ 0
};

struct LinearFit {
  Eigen::VectorXd constants;        // c
  Eigen::VectorXd standard_errors;  // sqrt(diag(covariance)); 0 for a constant held at 0 by the constraint
  Eigen::MatrixXd covariance;       // σ² (XᵀWX)⁻¹ over the free constants, zero rows/columns for held ones
  Eigen::VectorXd fitted;           // X c at the measured points
  Eigen::VectorXd loo_predictions;  // the prediction of each point by the fit without it (NaN when undefined)
  double rss = 0.0;                 // Σ (y − ŷ)²
  double weighted_rss = 0.0;        // Σ w (y − ŷ)² (= rss when unweighted)
  double sigma2 = 0.0;              // weighted_rss / (n − k), NaN when n ≤ k
  double r2 = 0.0;                  // 1 − rss / Σ (y − ȳ)²
  double adjusted_r2 = 0.0;         // 1 − (1 − R²)(n − 1)/(n − k)
  double smape = 0.0;               // 100/n Σ 2|y − ŷ| / (|y| + |ŷ|), percent (0 to 200)
  double loo_smape = 0.0;           // the same with the leave-one-out predictions; +inf when undefined
  double press = 0.0;               // Σ w (leave-one-out residual)², the weighted PRESS statistic
  int observations = 0;             // n
  int free_constants = 0;           // k: constants fitted (not held at 0)
  int rank = 0;                     // numerical rank of X (k when the terms are independent on these points)
  bool relative = false;

  [[nodiscard]] bool full_rank() const { return rank == free_constants; }
  [[nodiscard]] int degrees_of_freedom() const { return observations - free_constants; }
};

// Fits y ≈ X c. X is n × k with n ≥ 1; a relative fit needs every y ≠ 0 (std::invalid_argument).
[[nodiscard]] LinearFit fit_linear(const Eigen::MatrixXd& design, const Eigen::VectorXd& values, const FitOptions& options = {});

struct Interval {
  double value = 0.0;
  double lower = 0.0;
  double upper = 0.0;
};

// The prediction x0ᵀc at a new point with its prediction interval (for a new measurement, not only
// the mean): ± t(1 − α/2, n − k) · sqrt(x0ᵀ Σ x0 + σ² v0), v0 = 1, or ŷ0² for a relative fit.
// Bounds are NaN when n ≤ k.
[[nodiscard]] Interval predict_with_interval(const LinearFit& fit, const Eigen::VectorXd& row, double confidence = 0.95);

// The same for an unweighted fit under noise whose size grows with the value (timing noise is
// multiplicative): the constants' covariance from the leave-one-out residuals e_i = y_i − ŷ₋ᵢ (the
// jackknife-like sandwich (XᵀX)⁻¹ Xᵀ diag(e_i²) X (XᵀX)⁻¹, "HC3"), and the noise of one new measurement
// as the mean squared relative leave-one-out residual times ŷ0². design and values: the fit's points.
// Bounds are NaN when n ≤ k, for a relative fit, or when a leave-one-out prediction is undefined.
[[nodiscard]] Interval predict_with_robust_interval(const LinearFit& fit, const Eigen::MatrixXd& design,
                                                    const Eigen::VectorXd& values, const Eigen::VectorXd& row,
                                                    double confidence = 0.95);

// 100/n Σ 2|y − ŷ| / (|y| + |ŷ|), percent (0 to 200); +inf when a prediction is not finite.
[[nodiscard]] double smape(const Eigen::VectorXd& values, const Eigen::VectorXd& predictions);

// Quantile of Student's t distribution (one implementation, in core; p in (0, 1), degrees > 0).
using core::student_t_quantile;

}  // namespace augur::model
