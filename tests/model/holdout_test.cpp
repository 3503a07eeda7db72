// Hold-out (--exclude): measurements left out of the fit and compared with the model there; and the
// piecewise Python text of a segmented model.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "augur/core/expression.hpp"
#include "model/holdout.hpp"
#include "model/model.hpp"

namespace {

using namespace augur;
using namespace augur::model;

Series grid_series() {
  Series series;
  series.region = "main";
  series.metric = "time";
  series.parameters = {"N", "P"};
  for (double n : {1024.0, 4096.0}) {
    for (double p : {1.0, 2.0, 4.0}) series.measurements.push_back({{n, p}, {n / p, n / p + 2.0}});
  }
  return series;
}

Exclusion exclusion(std::map<std::string, double> values, const std::string& origin) {
  return {std::move(values), origin};
}

TEST(ModelHoldOut, LeavesOutThePointsWithEveryValueOfAnExclusion) {
  const Series series = grid_series();
  const HeldOutSplit split = hold_out(
      series, {exclusion({{"P", 4.0}}, "--exclude P=4"), exclusion({{"N", 1024.0}, {"P", 2.0}}, "--exclude N=1024,P=2"),
               exclusion({{"P", 3.0}}, "--exclude P=3")});
  ASSERT_EQ(split.held_out.size(), 3u);
  EXPECT_EQ(split.held_out[0].point, (std::vector<double>{1024.0, 2.0}));
  EXPECT_EQ(split.held_out[1].point, (std::vector<double>{1024.0, 4.0}));
  EXPECT_EQ(split.held_out[2].point, (std::vector<double>{4096.0, 4.0}));
  ASSERT_EQ(split.kept.measurements.size(), 3u);
  EXPECT_EQ(split.kept.measurements[0].point, (std::vector<double>{1024.0, 1.0}));
  EXPECT_EQ(split.kept.measurements[1].point, (std::vector<double>{4096.0, 1.0}));
  EXPECT_EQ(split.kept.measurements[2].point, (std::vector<double>{4096.0, 2.0}));
  EXPECT_EQ(split.kept.region, "main");
  EXPECT_EQ(split.matched, (std::vector<bool>{true, true, false}));

  const HeldOutSplit none = hold_out(series, {});
  EXPECT_TRUE(none.held_out.empty());
  EXPECT_EQ(none.kept.measurements.size(), series.measurements.size());
}

TEST(ModelHoldOut, AnExclusionOfAnUnknownParameterIsAnError) {
  try {
    (void)hold_out(grid_series(), {exclusion({{"P", 2.0}, {"n", 16384.0}}, "--exclude n=16384,P=2")});
    FAIL() << "no error";
  } catch (const core::InputError& error) {
    EXPECT_STREQ(error.what(), "--exclude n=16384,P=2: 'n' is not a parameter of main (it has N, P)");
  }
}

TEST(ModelHoldOut, MeasuredAtFindsFittedAndHeldOutPoints) {
  const Series series = grid_series();
  const HeldOutSplit split = hold_out(series, {exclusion({{"P", 4.0}}, "--exclude P=4")});
  ModelOptions options;
  options.formula = "c[0] + c[1]*N/P";
  const SeriesModel model = build_model(split.kept, options);
  EXPECT_EQ(measured_at(model, split.held_out, {4096.0, 2.0}, Aggregate::Mean), 2049.0);  // fitted: the model's mean
  EXPECT_EQ(measured_at(model, split.held_out, {4096.0, 4.0}, Aggregate::Mean), 1025.0);  // held out, aggregated here
  EXPECT_EQ(measured_at(model, split.held_out, {4096.0, 4.0}, Aggregate::Maximum), 1026.0);
  EXPECT_TRUE(std::isnan(measured_at(model, split.held_out, {8192.0, 4.0}, Aggregate::Mean)));
}

TEST(ModelHoldOut, FitDatasetModelsTheSelectedSeriesEachWithItsHoldOut) {
  Dataset dataset;
  dataset.series.push_back(grid_series());
  Series few = grid_series();  // two points left: too few for three constants
  few.region = "halo";
  few.measurements.resize(2);
  dataset.series.push_back(few);
  Series other = grid_series();
  other.metric = "bytes";
  dataset.series.push_back(other);
  ModelOptions options;
  options.formula = "c[0] + c[1]*N + c[2]*P";
  const std::vector<Exclusion> exclusions{exclusion({{"P", 4.0}}, "--exclude P=4"),
                                          exclusion({{"P", 8.0}}, "--exclude P=8")};
  const DatasetFit fit = fit_dataset(dataset, "", "time", exclusions, options);
  ASSERT_EQ(fit.series.size(), 2u);  // the "bytes" series is not selected
  EXPECT_EQ(fit.series[0].region, "main");
  EXPECT_EQ(fit.series[0].error, "");
  EXPECT_EQ(fit.series[0].model.points.size(), 4u);
  EXPECT_EQ(fit.series[0].held_out.size(), 2u);
  EXPECT_EQ(fit.series[1].region, "halo");
  EXPECT_NE(fit.series[1].error, "");  // this series only: the others are still modeled
  EXPECT_EQ(fit.matched, (std::vector<bool>{true, false}));
  EXPECT_EQ(fit_dataset(dataset, "halo", "", {}, options).series.size(), 1u);
}

TEST(ModelHoldOut, PiecewisePythonChoosesTheSegmentWhereSegmentForWould) {
  // 1 + 2n below 64, 1 + 5n from 64 on: the cut is halfway in log scale between 48 and 64, sqrt(48 * 64).
  Series series;
  series.region = "r";
  series.metric = "time";
  series.parameters = {"n"};
  for (double n : {4.0, 8.0, 16.0, 24.0, 32.0, 48.0, 64.0, 96.0, 128.0, 192.0, 256.0, 384.0}) {
    series.measurements.push_back({{n}, {n < 64 ? 1.0 + 2.0 * n : 1.0 + 5.0 * n}});
  }
  ModelOptions options;
  options.formula = "c[0] + c[1]*n";
  options.segments = 2;
  const SeriesModel model = build_model(series, options);
  ASSERT_EQ(model.segmentation.segments.size(), 2u);
  const std::string python = piecewise_python_text(model);
  const std::string cut = core::format_shortest(std::sqrt(48.0 * 64.0));
  const auto constants = [&](std::size_t index) {
    const auto& values = model.segmentation.segments[index].fit.constants;
    return std::vector<double>(values.data(), values.data() + values.size());
  };
  EXPECT_EQ(python, "(" + python_text(model, constants(0)) + ") if n < " + cut + " else (" +
                        python_text(model, constants(1)) + ")");
  EXPECT_EQ(segment_for(model.segmentation, {std::sqrt(48.0 * 64.0) * 0.999}), 0u);
  EXPECT_EQ(segment_for(model.segmentation, {std::sqrt(48.0 * 64.0) * 1.001}), 1u);

  options.segments = 1;
  const SeriesModel single = build_model(series, options);
  const auto& single_constants = single.segmentation.segments[0].fit.constants;
  EXPECT_EQ(piecewise_python_text(single),
            python_text(single, std::vector<double>(single_constants.data(),
                                                    single_constants.data() + single_constants.size())));
}

// Ctrl-C in a search over many series: the interruption is called before each hypothesis, and what it
// throws stops the whole fit as itself, never as one series' error message.
TEST(ModelHoldOut, AnInterruptionStopsTheSearchAndIsPassedOnAsItIs) {
  struct Stop : std::runtime_error {
    Stop() : std::runtime_error("stop") {}
  };
  Dataset dataset;
  for (const char* region : {"a", "b", "c"}) {
    Series series = grid_series();
    series.region = region;
    dataset.series.push_back(series);
  }
  ModelOptions options;  // no formula: the search
  int hypotheses = 0;
  options.search.interruption = [&hypotheses] { ++hypotheses; };
  const DatasetFit searched = fit_dataset(dataset, "", "", {}, options);
  ASSERT_EQ(searched.series.size(), 3u);
  EXPECT_EQ(hypotheses, searched.series[0].model.hypotheses * 3);  // once per hypothesis fitted, in every series
  EXPECT_GT(hypotheses, 3);

  int calls = 0;
  std::vector<int> progress;
  options.search.interruption = [&calls, hypotheses] {
    if (++calls > hypotheses / 3 + 1) throw Stop();  // in the second series
  };
  EXPECT_THROW((void)fit_dataset(dataset, "", "", {}, options, [&](int done, int) { progress.push_back(done); }), Stop);
  EXPECT_EQ(progress, (std::vector<int>{0, 1}));  // the first series finished, the second stopped
}

}  // namespace
