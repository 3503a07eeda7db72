// The modeling engine: formulas, least squares, leave-one-out, intervals, search, segmentation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "model/model.hpp"

namespace {

using namespace augur;
using namespace augur::model;

std::string formula_error(const std::string& text) {
  try {
    (void)Formula::parse(core::SourceText("f", text));
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Formula, ReadsTheSeedsFftFormulaInCanonicalForm) {
  const Formula formula = Formula::parse(core::SourceText("f", "fft[0]+fft[1]*log(P)+fft[2]*(N/P)*log(N/P)+\n fft[3]*N*(P-1)/P"));
  ASSERT_EQ(formula.terms().size(), 4u);
  EXPECT_EQ(formula.terms()[0].constant, "fft[0]");
  EXPECT_EQ(formula.terms()[0].factor, nullptr);
  EXPECT_EQ(formula.terms()[3].constant, "fft[3]");
  EXPECT_EQ(formula.text(), "fft[0] + fft[1] * log(P) + fft[2] * N / P * log(N / P) + fft[3] * N * (P - 1) / P");
  EXPECT_EQ(formula.variables(), (std::vector<std::string>{"N", "P"}));
  const core::Bindings at{{"N", 1024.0}, {"P", 4.0}};
  EXPECT_DOUBLE_EQ(formula.regressor(0, at), 1.0);
  EXPECT_DOUBLE_EQ(formula.regressor(1, at), 2.0);  // log is base 2
  EXPECT_DOUBLE_EQ(formula.regressor(2, at), 256.0 * 8.0);
  EXPECT_DOUBLE_EQ(formula.regressor(3, at), 1024.0 * 3.0 / 4.0);
}

TEST(Formula, KeepsSignsNumbersAndConstantsAnywhereInTheProduct) {
  const Formula formula = Formula::parse(core::SourceText("f", "a[0] - N*a[1] + -(2*a[2]/P)"));
  ASSERT_EQ(formula.terms().size(), 3u);
  const core::Bindings at{{"N", 10.0}, {"P", 4.0}};
  EXPECT_DOUBLE_EQ(formula.regressor(1, at), -10.0);
  EXPECT_DOUBLE_EQ(formula.regressor(2, at), -0.5);
  EXPECT_EQ(formula.with_values({1.5, 2.0, 4.0}, core::ExpressionStyle::Readable), "1.5 - 2 * N - 4 * 2 / P");
  EXPECT_EQ(formula.with_values({1.5, 2.0, 4.0}, core::ExpressionStyle::Python), "1.5 - 2 * N - 4 * 2 / P");
}

// Found by fuzz_formula: a factor that is a sum lost its parentheses when written ("c[1] * P - 1"), so
// fit printed another formula than the one it fitted, and a Python text that computes it wrong.
TEST(Formula, AFactorThatIsASumKeepsItsParenthesesAndReadsBackTheSame) {
  const Formula formula = Formula::parse(core::SourceText("f", "c[0] + c[1]*(P-1) - c[2]*(-N)"));
  EXPECT_EQ(formula.text(), "c[0] + c[1] * (P - 1) + c[2] * N");  // the negation folds into the sign
  EXPECT_EQ(formula.with_values({0.5, 2.0, 3.0}, core::ExpressionStyle::Python), "0.5 + 2 * (P - 1) + 3 * N");
  const Formula again = Formula::parse(core::SourceText("g", formula.text()));
  EXPECT_EQ(again.text(), formula.text());
  const core::Bindings at{{"N", 10.0}, {"P", 4.0}};
  for (std::size_t term = 0; term < 3; ++term) EXPECT_DOUBLE_EQ(again.regressor(term, at), formula.regressor(term, at));
  EXPECT_DOUBLE_EQ(formula.regressor(1, at), 3.0);
}

TEST(Formula, PointsAtTheTermThatIsNotCanonical) {
  EXPECT_EQ(formula_error("c[0] + N*P"), "f:1:8: the term N * P has no constant; write it as name[i] * (N * P)");
  // Constants written without brackets: the formula as it was meant (log2 is a function, c[2] a constant).
  EXPECT_EQ(formula_error("c0 + c1*P"), "f:1:1: the term c0 has no constant; write it as name[i] * (c0); constants take brackets: c[0] + c[1] * P");
  EXPECT_EQ(formula_error("c[2]*log2(N) + c3*N"),
            "f:1:16: the term c3 * N has no constant; write it as name[i] * (c3 * N); constants take brackets: c[2] * log2(N) + c[3] * N");
  EXPECT_EQ(formula_error("c[0] + c[1]*c[2]*N"), "f:1:13: the term has two constants, c[1] and c[2]; each term of a canonical formula has exactly one");
  EXPECT_EQ(formula_error("c[0] + log(c[1]*N)"), "f:1:8: the constant c[1] must multiply its term, not stand inside log(c[1] * N) (canonical form: a sum of terms constant * expression)");
  EXPECT_EQ(formula_error("c[0] + N/c[1]"), "f:1:10: the constant c[1] divides its term; a canonical term is constant * expression");
  EXPECT_EQ(formula_error("c[0] + c[0]*N"), "f:1:8: the constant c[0] is used in two terms; each term needs its own constant");
  EXPECT_EQ(formula_error("c[0] + (c[1] + c[2])*N"), "f:1:9: the constant c[1] must multiply its term, not stand inside c[1] + c[2] (canonical form: a sum of terms constant * expression)");
  EXPECT_EQ(formula_error("c[x]"), "f:1:3: expected the index of the constant c[...] (a whole number) but found 'x'");
}

TEST(Fit, RecoversExactConstantsWithZeroErrors) {
  Eigen::MatrixXd design(5, 2);
  Eigen::VectorXd values(5);
  for (int i = 0; i < 5; ++i) {
    design(i, 0) = 1.0;
    design(i, 1) = 1e6 * (i + 1);  // badly scaled on purpose
    values(i) = 2.0 + 3e-6 * design(i, 1);
  }
  const LinearFit fit = fit_linear(design, values);
  EXPECT_NEAR(fit.constants(0), 2.0, 1e-12);
  EXPECT_NEAR(fit.constants(1), 3e-6, 1e-18);
  EXPECT_NEAR(fit.rss, 0.0, 1e-20);
  EXPECT_NEAR(fit.r2, 1.0, 1e-12);
  EXPECT_NEAR(fit.loo_smape, 0.0, 1e-9);
  EXPECT_TRUE(fit.full_rank());
}

TEST(Fit, LeaveOneOutFromOneFactorisationEqualsRefitting) {
  std::mt19937 random(7);
  std::normal_distribution<double> noise(0.0, 0.05);
  const int n = 9;
  Eigen::MatrixXd design(n, 3);
  Eigen::VectorXd values(n);
  for (int i = 0; i < n; ++i) {
    const double x = std::pow(2.0, i + 2);
    design.row(i) << 1.0, x, x * std::log2(x);
    values(i) = (1.0 + 0.5 * x + 0.01 * x * std::log2(x)) * (1.0 + noise(random));
  }
  for (bool relative : {false, true}) {
    const LinearFit fit = fit_linear(design, values, {relative, false});
    for (int left = 0; left < n; ++left) {
      Eigen::MatrixXd rest(n - 1, 3);
      Eigen::VectorXd rest_values(n - 1);
      for (int i = 0, row = 0; i < n; ++i) {
        if (i == left) continue;
        rest.row(row) = design.row(i);
        rest_values(row++) = values(i);
      }
      const LinearFit refit = fit_linear(rest, rest_values, {relative, false});
      const double expected = design.row(left).dot(refit.constants);
      EXPECT_NEAR(fit.loo_predictions(left), expected, 1e-9 * std::fabs(expected)) << "point " << left << " relative " << relative;
    }
  }
}

TEST(Fit, StandardErrorsAndPredictionIntervalOfAStraightLineMatchTheTextbook) {
  // y = a + b x: se(b) = s / sqrt(Sxx); prediction at x0: ± t(0.975, n−2) s sqrt(1 + 1/n + (x0 − x̄)²/Sxx)
  const std::vector<double> x{1, 2, 3, 4, 5, 6};
  const std::vector<double> y{2.1, 3.9, 6.2, 7.8, 10.1, 12.2};
  Eigen::MatrixXd design(6, 2);
  Eigen::VectorXd values(6);
  double mean_x = 0.0;
  for (int i = 0; i < 6; ++i) {
    design(i, 0) = 1.0;
    design(i, 1) = x[static_cast<std::size_t>(i)];
    values(i) = y[static_cast<std::size_t>(i)];
    mean_x += x[static_cast<std::size_t>(i)] / 6.0;
  }
  const LinearFit fit = fit_linear(design, values);
  double sxx = 0.0;
  for (double value : x) sxx += (value - mean_x) * (value - mean_x);
  const double s = std::sqrt(fit.rss / 4.0);
  EXPECT_NEAR(fit.standard_errors(1), s / std::sqrt(sxx), 1e-12);
  Eigen::VectorXd row(2);
  row << 1.0, 10.0;
  const Interval interval = predict_with_interval(fit, row);
  const double half = 2.7764451051977987 * s * std::sqrt(1.0 + 1.0 / 6.0 + (10.0 - mean_x) * (10.0 - mean_x) / sxx);
  EXPECT_NEAR(interval.upper - interval.value, half, 1e-9);
  EXPECT_NEAR(interval.value - interval.lower, half, 1e-9);
}

TEST(Fit, StudentQuantilesMatchTables) {
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.706204736174698, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.7764451051977987, 1e-10);
  EXPECT_NEAR(student_t_quantile(0.975, 10), 2.2281388519649385, 1e-10);
  EXPECT_NEAR(student_t_quantile(0.995, 30), 2.7499956535672259, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.025, 10), -2.2281388519649385, 1e-10);
}

TEST(Fit, NonNegativeConstantsHoldTheWrongSignedOneAtZero) {
  // y = 5 + 2x − 0.001x² would want a negative x² constant: constrained, it is 0 and the rest is
  // the plain fit of 1 and x.
  Eigen::MatrixXd design(8, 3);
  Eigen::VectorXd values(8);
  for (int i = 0; i < 8; ++i) {
    const double x = i + 1.0;
    design.row(i) << 1.0, x, x * x;
    values(i) = 5.0 + 2.0 * x - 0.05 * x * x;
  }
  const LinearFit fit = fit_linear(design, values, {false, true});
  EXPECT_EQ(fit.constants(2), 0.0);
  EXPECT_EQ(fit.free_constants, 2);
  const LinearFit plain = fit_linear(design.leftCols(2), values);
  EXPECT_NEAR(fit.constants(0), plain.constants(0), 1e-10);
  EXPECT_NEAR(fit.constants(1), plain.constants(1), 1e-10);
  EXPECT_GE(fit.constants(0), 0.0);
}

TEST(Fit, RelativeWeightingNeedsNonZeroValues) {
  Eigen::MatrixXd design = Eigen::MatrixXd::Ones(3, 1);
  Eigen::VectorXd values(3);
  values << 1.0, 0.0, 2.0;
  EXPECT_THROW((void)fit_linear(design, values, {true, false}), std::invalid_argument);
}

// Issue 15, item 15: 1/y² overflows for a subnormal y (4.9e-324), and the relative fit called the terms
// linearly dependent. Rows and columns are scaled by powers of two instead: the fit is exact, and the same
// as the fit of the values scaled up by 2^1074 (the constants scaled down by as much).
TEST(Fit, RelativeFitOfSubnormalValuesIsExact) {
  Eigen::MatrixXd design(4, 2);
  design << 1, 1, 1, 2, 1, 3, 1, 4;
  Eigen::VectorXd values(4);
  values << 4.9e-324, 9.9e-324, 1.5e-323, 2e-323;  // 1, 2, 3, 4 times the smallest subnormal
  for (const bool nonnegative : {false, true}) {
    const LinearFit fit = fit_linear(design, values, {true, nonnegative});
    EXPECT_TRUE(fit.full_rank());
    EXPECT_EQ(fit.constants(0), 0.0);
    EXPECT_EQ(fit.constants(1), 4.9e-324);
    EXPECT_EQ(fit.smape, 0.0);
  }
  Eigen::MatrixXd large(2, 2);  // a column near the largest double, another near the smallest
  large << 1e308, 1e-300, 1.5e308, 3e-300;
  Eigen::VectorXd targets(2);
  targets << 2.0, 4.0;
  const LinearFit fit = fit_linear(large, targets, {true, false});
  EXPECT_TRUE(fit.full_rank());
  EXPECT_NEAR(fit.constants(0) * 1e308 + fit.constants(1) * 1e-300, 2.0, 1e-12);
  EXPECT_NEAR(fit.constants(0) * 1.5e308 + fit.constants(1) * 3e-300, 4.0, 1e-12);
}

SearchVariable variable(const std::string& name, const std::vector<double>& values) {
  return {name, Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()))};
}

TEST(Search, FindsTheExactModelOfOneParameter) {
  std::vector<double> p{4, 8, 16, 32, 64, 128, 256};
  Eigen::VectorXd values(7);
  for (int i = 0; i < 7; ++i) values(i) = 3.0 + 0.25 * std::pow(p[static_cast<std::size_t>(i)], 1.5) * std::log2(p[static_cast<std::size_t>(i)]);
  const SearchResult result = search_model({variable("p", p)}, values);
  EXPECT_EQ(result.factors, (std::vector<std::string>{"", "p^(3/2) * log2(p)"}));
  EXPECT_NEAR(result.fit.constants(1), 0.25, 1e-9);
  EXPECT_GT(result.hypotheses, 40);
}

TEST(Search, FindsAProductOfTwoParametersAndAFallingTerm) {
  std::vector<double> p;
  std::vector<double> n;
  std::vector<double> y;
  for (double pv : {2.0, 4.0, 8.0, 16.0, 32.0}) {
    for (double nv : {100.0, 200.0, 400.0, 800.0, 1600.0}) {
      p.push_back(pv);
      n.push_back(nv);
      y.push_back(1.0 + 0.5 * nv * std::log2(pv));
    }
  }
  const Eigen::VectorXd values = Eigen::Map<Eigen::VectorXd>(y.data(), 25);
  const SearchResult result = search_model({variable("p", p), variable("n", n)}, values);
  EXPECT_EQ(result.factors, (std::vector<std::string>{"", "log2(p) * n"}));

  std::vector<double> falling;
  for (double pv : p) falling.push_back(2.0 + 100.0 / pv);
  const SearchResult strong = search_model({variable("p", p)}, Eigen::Map<Eigen::VectorXd>(falling.data(), 25));
  EXPECT_EQ(strong.factors, (std::vector<std::string>{"", "p^-1"}));
}

TEST(Segment, FindsTheChangePointAndItsConstants) {
  // Two regimes along N (e.g. in cache, out of cache): 1 + 2N below 64, 1 + 5N from 64 on.
  const std::vector<double> sizes{4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384};
  Eigen::MatrixXd design(12, 2);
  Eigen::VectorXd values(12);
  Eigen::MatrixXd parameters(12, 1);
  for (int i = 0; i < 12; ++i) {
    const double size = sizes[static_cast<std::size_t>(i)];
    design.row(i) << 1.0, size;
    values(i) = size < 64 ? 1.0 + 2.0 * size : 1.0 + 5.0 * size;
    parameters(i, 0) = size;
  }
  SegmentOptions options;
  options.segments = 0;
  const Segmentation result = segment_fit(design, values, parameters, options);
  ASSERT_EQ(result.segments.size(), 2u);
  EXPECT_EQ(result.segments[0].lower[0], 4.0);
  EXPECT_EQ(result.segments[0].upper[0], 48.0);
  EXPECT_EQ(result.segments[1].lower[0], 64.0);
  EXPECT_NEAR(result.segments[0].fit.constants(1), 2.0, 1e-9);
  EXPECT_NEAR(result.segments[1].fit.constants(1), 5.0, 1e-9);
  EXPECT_EQ(segment_for(result, {50.0}), 0u);  // nearer 48 than 64 in log scale
  EXPECT_EQ(segment_for(result, {60.0}), 1u);
  EXPECT_EQ(segment_for(result, {1e6}), 1u);

  options.segments = 1;
  EXPECT_EQ(segment_fit(design, values, parameters, options).segments.size(), 1u);
  options.segments = 7;
  EXPECT_THROW((void)segment_fit(design, values, parameters, options), std::invalid_argument);
}

TEST(Segment, ThreeRegimesAreFoundWithoutAFixedMaximumOfTwo) {
  std::vector<double> sizes;
  for (int i = 0; i < 18; ++i) sizes.push_back(std::pow(2.0, 2 + i * 0.5));
  Eigen::MatrixXd design(18, 2);
  Eigen::VectorXd values(18);
  Eigen::MatrixXd parameters(18, 1);
  for (int i = 0; i < 18; ++i) {
    const double size = sizes[static_cast<std::size_t>(i)];
    design.row(i) << 1.0, size;
    values(i) = i < 6 ? 3.0 + size : i < 12 ? 3.0 + 2.0 * size : 3.0 + 4.0 * size;
    parameters(i, 0) = size;
  }
  SegmentOptions options;
  options.segments = 0;
  const Segmentation result = segment_fit(design, values, parameters, options);
  ASSERT_EQ(result.segments.size(), 3u);
  EXPECT_NEAR(result.segments[2].fit.constants(1), 4.0, 1e-9);
}

Series fft_series() {
  Series series;
  series.region = "fft";
  series.metric = "time";
  series.parameters = {"N", "P"};
  for (double n : {1024.0, 4096.0, 16384.0, 65536.0}) {
    for (double p : {1.0, 2.0, 4.0}) {
      const double time = 1e-4 + 2e-5 * std::log2(p) + 3e-8 * (n / p) * std::log2(n / p) + 1e-9 * n * (p - 1) / p;
      series.measurements.push_back({{n, p}, {time * 0.99, time * 1.01}});
    }
  }
  return series;
}

TEST(Model, FitsAGivenFormulaAndPredictsWithAnInterval) {
  ModelOptions options;
  options.formula = "fft[0]+fft[1]*log(P)+fft[2]*(N/P)*log(N/P)+fft[3]*N*(P-1)/P";
  const SeriesModel model = build_model(fft_series(), options);
  ASSERT_EQ(model.segmentation.segments.size(), 1u);
  const LinearFit& fit = model.segmentation.segments[0].fit;
  EXPECT_NEAR(fit.constants(2), 3e-8, 1e-15);
  EXPECT_NEAR(model.smape, 0.0, 1e-6);
  EXPECT_NEAR(model.spread[0], 0.01 * std::sqrt(2.0), 1e-12);
  const Prediction prediction = predict(model, {262144.0, 8.0});
  const double truth = 1e-4 + 2e-5 * 3 + 3e-8 * 32768 * 15 + 1e-9 * 262144 * 7 / 8;
  EXPECT_NEAR(prediction.interval.value, truth, 1e-9 * truth);
}

TEST(Model, ReportsAnUnknownVariableAtItsPlace) {
  ModelOptions options;
  options.formula = "c[0] + c[1]*Q";
  try {
    (void)build_model(fft_series(), options);
    FAIL() << "no error";
  } catch (const core::InputError& error) {
    EXPECT_STREQ(error.what(), "--formula:1:13: unknown variable 'Q' (the data of fft has N, P)");
  }
  options.formula = "c[0] + c[1]*q";
  options.derived = {{"q", "N/P"}};
  EXPECT_NO_THROW((void)build_model(fft_series(), options));
}

TEST(Model, SearchesWhenNoFormulaIsGiven) {
  Series series;
  series.region = "solve";
  series.metric = "time";
  series.parameters = {"n"};
  for (double n : {16.0, 32.0, 64.0, 128.0, 256.0, 512.0}) series.measurements.push_back({{n}, {0.5 + 1e-3 * n * n}});
  const SeriesModel model = build_model(series, {});
  EXPECT_TRUE(model.searched);
  EXPECT_EQ(model.formula.text(), "c[0] + c[1] * n^2");
  EXPECT_EQ(model.formula.with_values({0.5, 1e-3}, core::ExpressionStyle::Python), "0.5 + 0.001 * n**2");
  EXPECT_THROW((void)predict(model, {1.0, 2.0}), core::InputError);
}

}  // namespace
