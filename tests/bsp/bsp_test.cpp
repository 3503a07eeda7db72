// The BSP / OBSP* engine: the trace reader (its every error: bsp_trace_errors_test.cpp), OBSP* (seed 001 eqs.
// 2, 4, 6) and the classical BSP over hand-computed traces (the seed's Figure 1, a 4-process FFT-like program
// with partitions), and g and L from an h-relation benchmark.
#include "bsp/bsp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bsp_test_support.hpp"
#include "core/files.hpp"

namespace {

using namespace augur;
using namespace augur::bsp;
using namespace augur::bsp::test;  // data_dir, header2, record

const std::string figure1_path = std::string(AUGUR_EXAMPLES_DIR) + "/bsp/figure1.jsonl";

// ---- Figure 1 ----------------------------------------------------------------------------------

TEST(Figure1, ReadsTheReconstructedExample) {
  const Trace trace = read_trace(figure1_path);
  EXPECT_EQ(trace.file, figure1_path);
  EXPECT_EQ(trace.label, "seed 001 Figure 1: oblivious supersteps");
  EXPECT_EQ(trace.ranks, 2);
  ASSERT_EQ(trace.machines.size(), 1u);
  const Machine& top = trace.machines[0];
  EXPECT_EQ(top.id, "/");
  EXPECT_FALSE(top.parent);
  EXPECT_EQ(top.ranks, (std::vector<int>{0, 1}));
  ASSERT_EQ(top.superstep_count(), 2);
  EXPECT_EQ(top.supersteps[0][0].work, 2.0);
  EXPECT_EQ(top.supersteps[0][1].work, 4.0);
  EXPECT_EQ(top.supersteps[0][0].partners, std::vector<int>{});
  EXPECT_EQ(top.supersteps[0][1].partners, std::vector<int>{0});
  EXPECT_EQ(top.supersteps[0][0].outgoing_bytes, 1048576.0);
  EXPECT_EQ(top.supersteps[1][1].synchronization, Synchronization::Oblivious);
  EXPECT_EQ(top.supersteps[1][1].location.line, 11);
}

TEST(Figure1, ObspPredictsTheActualTenSecondsAndBspTwelve) {
  const Trace trace = read_trace(figure1_path);
  const CostParameters parameters{0.0, 2.0, Combine::Sum};  // g·h + L = 2 s for every communication
  const ObspPrediction obsp = predict_obsp(trace, parameters);
  // Superstep 1: P0 does not wait (W_{1,0} = {0}): 2 + 2 = 4; P1 waits for P0: max(2, 4) + 2 = 6.
  EXPECT_EQ(obsp.machines[0].finish[0], (std::vector<double>{4.0, 6.0}));
  // Superstep 2: ready 4 + 4 = 8 and 6 + 2 = 8; the exchange: max(8, 8) + 2 = 10.
  EXPECT_EQ(obsp.machines[0].finish[1], (std::vector<double>{10.0, 10.0}));
  EXPECT_EQ(obsp.rank_finish, (std::vector<double>{10.0, 10.0}));
  EXPECT_EQ(obsp.program, 10.0);

  const BspPrediction bsp = predict_bsp(trace, parameters);
  ASSERT_TRUE(bsp.applicable) << bsp.reason;
  EXPECT_EQ(bsp.flattened_supersteps, (std::vector<int>{2, 2}));
  ASSERT_EQ(bsp.supersteps.size(), 2u);
  EXPECT_EQ(bsp.supersteps[0].max_work, 4.0);
  EXPECT_EQ(bsp.supersteps[0].cost, 6.0);
  EXPECT_EQ(bsp.supersteps[1].cost, 6.0);
  EXPECT_EQ(bsp.program, 12.0);  // (4 + 2) + (4 + 2)
  EXPECT_EQ(bsp.rank_finish, (std::vector<double>{12.0, 12.0}));

  EXPECT_EQ(measured_rank_times(trace), (std::vector<double>{10.0, 10.0}));
}

TEST(Figure1, TheHRelationCombinesInAndOutBySumOrMax) {
  const Trace trace = read_trace(figure1_path);
  const double b = 1048576.0;
  const double g = 1.0 / b;  // 1 s per MiB
  const ObspPrediction sum = predict_obsp(trace, {g, 0.0, Combine::Sum});
  // h_{1,0} = in_0 + out_0 = b; h_{1,1} = max(b, b) = b; superstep 2: h = b + b for both.
  EXPECT_EQ(sum.machines[0].h[0], (std::vector<double>{b, b}));
  EXPECT_EQ(sum.machines[0].h[1], (std::vector<double>{2 * b, 2 * b}));
  EXPECT_DOUBLE_EQ(sum.machines[0].finish[0][0], 3.0);
  EXPECT_DOUBLE_EQ(sum.machines[0].finish[0][1], 5.0);  // max(2, 4) + 1
  EXPECT_DOUBLE_EQ(sum.program, 9.0);                   // max(3 + 4, 5 + 2) + 2
  const ObspPrediction max = predict_obsp(trace, {g, 0.0, Combine::Max});
  EXPECT_EQ(max.machines[0].h[1], (std::vector<double>{b, b}));
  EXPECT_DOUBLE_EQ(max.program, 8.0);  // max(3 + 4, 5 + 2) + 1
  const BspPrediction bsp = predict_bsp(trace, {g, 0.0, Combine::Max});
  EXPECT_DOUBLE_EQ(bsp.program, (4.0 + 1.0) + (4.0 + 1.0));
}

// ---- Partitions --------------------------------------------------------------------------------

// tests/bsp/data/fft4.jsonl with g = 2^-10 s/byte (1 s per KiB) and L = 0.5 s; the times by hand:
//   half '/1:0/' (ranks 0, 1) starts at x' = F_{0} + w* = (0 + 1, 0 + 2) = (1, 2);
//     its superstep 1: singles start at (1 + 0.5, 2 + 1) = (1.5, 3), end at (1.5 + 3, 3 + 1) = (4.5, 4);
//     ready (4.5 + 0, 4 + 1) = (4.5, 5); h = 512 + 512: F = 5 + 1 + 0.5 = 6.5 for both;
//     superstep 2 (barrier, h = 0): max(6.5 + 1, 6.5 + 0.5) + 0.5 = 8.
//   half '/1:1/' (ranks 2, 3) starts at (0.5, 0); singles start at (1.5, 0), end at (3.5, 4);
//     ready (3.5 + 2, 4 + 0.5) = (5.5, 4.5); F = 5.5 + 1.5 = 7; superstep 2: max(7.25, 8.5) + 0.5 = 9.
//   '/' superstep 1: ready = C + (W − w*) = (8 + 1, 8 + 0, 9 + 2, 9 + 1) = (9, 8, 11, 10); partners pid XOR 2,
//     h = 1024 + 1024 (g·h = 2): F = (11, 10, 11, 10) + 2.5 = (13.5, 12.5, 13.5, 12.5);
//     superstep 2 (none): (14, 13.5, 13.5, 12.75).
TEST(Partitions, ObspFollowsTheHierarchyOfTheFftLikeTrace) {
  const Trace trace = read_trace(data_dir + "/fft4.jsonl");
  ASSERT_EQ(trace.machines.size(), 7u);
  std::vector<std::string> ids;
  for (const Machine& machine : trace.machines) ids.push_back(machine.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"/", "/1:0/", "/1:0/1:0/", "/1:0/1:1/", "/1:1/", "/1:1/1:0/", "/1:1/1:1/"}));
  EXPECT_EQ(trace.machines[1].parent, 0u);
  EXPECT_EQ(trace.machines[1].parent_superstep, 1);
  EXPECT_EQ(trace.machines[4].group, 1);
  EXPECT_EQ(trace.machines[4].ranks, (std::vector<int>{2, 3}));
  EXPECT_EQ(trace.machines[6].parent, 4u);
  EXPECT_EQ(trace.machines[0].supersteps[0][2].child, 4u);
  EXPECT_EQ(trace.machines[0].supersteps[0][2].before_child, 0.5);

  const double g = 1.0 / 1024.0;
  const ObspPrediction obsp = predict_obsp(trace, {g, 0.5, Combine::Sum});
  EXPECT_EQ(obsp.machines[1].start, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(obsp.machines[2].start, std::vector<double>{1.5});
  EXPECT_EQ(obsp.machines[3].finish[0], std::vector<double>{4.0});
  EXPECT_EQ(obsp.machines[1].finish[0], (std::vector<double>{6.5, 6.5}));
  EXPECT_EQ(obsp.machines[1].h[0], (std::vector<double>{1024.0, 1024.0}));
  EXPECT_EQ(obsp.machines[1].finish[1], (std::vector<double>{8.0, 8.0}));
  EXPECT_EQ(obsp.machines[1].h[1], (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(obsp.machines[4].start, (std::vector<double>{0.5, 0.0}));
  EXPECT_EQ(obsp.machines[5].finish[0], std::vector<double>{3.5});
  EXPECT_EQ(obsp.machines[4].finish[0], (std::vector<double>{7.0, 7.0}));
  EXPECT_EQ(obsp.machines[4].finish[1], (std::vector<double>{9.0, 9.0}));
  EXPECT_EQ(obsp.machines[0].finish[0], (std::vector<double>{13.5, 12.5, 13.5, 12.5}));
  EXPECT_EQ(obsp.machines[0].h[0], (std::vector<double>{2048.0, 2048.0, 2048.0, 2048.0}));
  EXPECT_EQ(obsp.machines[0].finish[1], (std::vector<double>{14.0, 13.5, 13.5, 12.75}));
  EXPECT_EQ(obsp.rank_finish, (std::vector<double>{14.0, 13.5, 13.5, 12.75}));
  EXPECT_EQ(obsp.program, 14.0);
  EXPECT_EQ(measured_rank_times(trace), (std::vector<double>{14.2, 13.6, 13.5, 12.9}));
}

// The same trace flattened, per rank in execution order (w* of '/', w* of the half, the single, the rest
// of the half's superstep 1 | the half's superstep 2 | the rest of '/' superstep 1 | '/' superstep 2):
//   rank 0: 1 + 0.5 + 3 + 0 = 4.5 | 1    | 1 | 0.5 (trailing)
//   rank 1: 2 + 1 + 1 + 1   = 5   | 0.5  | 0 | 1
//   rank 2: 0.5 + 1 + 2 + 2 = 5.5 | 0.25 | 2 | 0
//   rank 3: 0 + 0 + 4 + 0.5 = 4.5 | 1.5  | 1 | 0.25
// T_BSP = (5.5 + 1 + 0.5) + (1.5 + 0 + 0.5) + (2 + 2 + 0.5) + 1 = 7 + 2 + 4.5 + 1 = 14.5.
TEST(Partitions, BspFlattensTheHierarchyIntoGloballySynchronisedSupersteps) {
  const Trace trace = read_trace(data_dir + "/fft4.jsonl");
  const BspPrediction bsp = predict_bsp(trace, {1.0 / 1024.0, 0.5, Combine::Sum});
  ASSERT_TRUE(bsp.applicable) << bsp.reason;
  EXPECT_EQ(bsp.flattened_supersteps, (std::vector<int>{4, 4, 4, 4}));
  ASSERT_EQ(bsp.supersteps.size(), 4u);
  EXPECT_EQ(bsp.supersteps[0].max_work, 5.5);
  EXPECT_EQ(bsp.supersteps[0].max_h, 1024.0);
  EXPECT_TRUE(bsp.supersteps[0].communicates);
  EXPECT_EQ(bsp.supersteps[0].cost, 7.0);
  EXPECT_EQ(bsp.supersteps[1].cost, 2.0);
  EXPECT_EQ(bsp.supersteps[2].max_h, 2048.0);
  EXPECT_EQ(bsp.supersteps[2].cost, 4.5);
  EXPECT_FALSE(bsp.supersteps[3].communicates);
  EXPECT_EQ(bsp.supersteps[3].cost, 1.0);
  EXPECT_EQ(bsp.program, 14.5);
  // The trailing superstep: each rank ends at 13.5 + its own work.
  EXPECT_EQ(bsp.rank_finish, (std::vector<double>{14.0, 14.5, 13.5, 13.75}));
}

TEST(Partitions, BspIsNotApplicableWhenTheRanksHaveDifferentSupersteps) {
  // Rank 1 synchronises once more than rank 0 inside its own single-process sub-machine.
  const std::string text =
      header2 + "\n" +
      R"({"rank":0,"machine":"/","pid":0,"nprocs":2,"superstep":1,"work":1,"in":0,"out":0,"partners":[],"sync":"barrier","end":3,"child":"/1:0/"})"
      "\n"
      R"({"rank":1,"machine":"/","pid":1,"nprocs":2,"superstep":1,"work":1,"in":0,"out":0,"partners":[],"sync":"barrier","end":3,"child":"/1:1/"})"
      "\n"
      R"({"rank":0,"machine":"/1:0/","pid":0,"nprocs":1,"superstep":1,"work":1,"in":0,"out":0,"partners":[],"sync":"none","end":2})"
      "\n"
      R"({"rank":1,"machine":"/1:1/","pid":0,"nprocs":1,"superstep":1,"work":1,"in":0,"out":0,"partners":[],"sync":"oblivious","end":1.5})"
      "\n"
      R"({"rank":1,"machine":"/1:1/","pid":0,"nprocs":1,"superstep":2,"work":0.5,"in":0,"out":0,"partners":[],"sync":"none","end":2})"
      "\n";
  const Trace trace = parse_trace("t.jsonl", text);
  const BspPrediction bsp = predict_bsp(trace, {0.0, 0.25, Combine::Sum});
  EXPECT_FALSE(bsp.applicable);
  EXPECT_EQ(bsp.flattened_supersteps, (std::vector<int>{1, 2}));
  EXPECT_EQ(bsp.reason,
            "the ranks have different numbers of supersteps once the partitions are flattened (rank 0: 1, "
            "rank 1: 2): no global barrier can separate them");
  // OBSP* still applies: rank 0: 0 + 1 (child) + 1 = 2; rank 1: child 1 + 0.25, then 0.5: 1.75, + 1 = 2.75;
  // the barrier: max(2, 2.75) + 0.25 = 3.
  const ObspPrediction obsp = predict_obsp(trace, {0.0, 0.25, Combine::Sum});
  EXPECT_EQ(obsp.machines[2].finish, (std::vector<std::vector<double>>{{1.25}, {1.75}}));
  EXPECT_EQ(obsp.rank_finish, (std::vector<double>{3.0, 3.0}));
}

TEST(Supersteps, ABarrierWaitsForTheWholeMachineAndTakesTheLargestHOfAll) {
  const std::string text =
      R"({"augur":"bsp","version":1,"ranks":3})"
      "\n"
      R"({"rank":0,"machine":"/","pid":0,"nprocs":3,"superstep":1,"work":1,"in":10,"out":0,"partners":[],"sync":"barrier","end":0})"
      "\n"
      R"({"rank":1,"machine":"/","pid":1,"nprocs":3,"superstep":1,"work":5,"in":0,"out":30,"partners":[],"sync":"barrier","end":0})"
      "\n"
      R"({"rank":2,"machine":"/","pid":2,"nprocs":3,"superstep":1,"work":2,"in":20,"out":20,"partners":[],"sync":"barrier","end":0})"
      "\n";
  const Trace trace = parse_trace("t.jsonl", text);
  const ObspPrediction sum = predict_obsp(trace, {0.1, 1.0, Combine::Sum});
  EXPECT_EQ(sum.machines[0].h[0], (std::vector<double>{40.0, 40.0, 40.0}));
  EXPECT_DOUBLE_EQ(sum.program, 5.0 + 4.0 + 1.0);
  const ObspPrediction max = predict_obsp(trace, {0.1, 1.0, Combine::Max});
  EXPECT_EQ(max.machines[0].h[0], (std::vector<double>{30.0, 30.0, 30.0}));
  // Oblivious with the same data: each waits for itself only.
  std::string oblivious = text;
  for (std::size_t at = oblivious.find("barrier"); at != std::string::npos; at = oblivious.find("barrier")) {
    oblivious.replace(at, 7, "oblivious");
  }
  const ObspPrediction alone = predict_obsp(parse_trace("t.jsonl", oblivious), {0.1, 1.0, Combine::Sum});
  EXPECT_DOUBLE_EQ(alone.machines[0].finish[0][0], 1.0 + 1.0 + 1.0);
  EXPECT_DOUBLE_EQ(alone.machines[0].finish[0][2], 2.0 + 4.0 + 1.0);
}

TEST(Supersteps, ASelfPartnerAndRecordsInAnyOrderAreAccepted) {
  const std::string text =
      "# comment\n\n" + header2 + "\n" + record(1, 2, "none") + "\n" + record(0, 1, "oblivious", "") + "\n" +
      record(0, 2, "none") + "\r\n" +
      R"({"rank":1,"machine":"/","pid":1,"nprocs":2,"superstep":1,"work":3,"in":8,"out":8,"partners":[1,0],"sync":"oblivious","end":1})"
      "\n";
  const Trace trace = parse_trace("t.jsonl", text);
  EXPECT_EQ(trace.machines[0].supersteps[0][1].partners, (std::vector<int>{1, 0}));
  const ObspPrediction obsp = predict_obsp(trace, {0.5, 0.0, Combine::Sum});
  EXPECT_EQ(obsp.machines[0].finish[0], (std::vector<double>{1.0, 3.0 + 8.0}));
  EXPECT_EQ(obsp.rank_finish, (std::vector<double>{2.0, 12.0}));
}

// ---- g and L from an h-relation benchmark ------------------------------------------------------

// The ordinary least-squares line through (x_i, y_i): intercept, slope.
std::pair<double, double> least_squares_line(const std::vector<double>& x, const std::vector<double>& y) {
  const auto n = static_cast<double>(x.size());
  double sx = 0, sy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sx += x[i], sy += y[i];
  const double mx = sx / n, my = sy / n;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
  const double slope = sxy / sxx;
  return {my - slope * mx, slope};
}

TEST(HRelation, FitsLatencyAndPerByteCostThroughTheModelingEngine) {
  const model::Dataset dataset = model::read_dataset(data_dir + "/hrelation.jsonl");
  const model::Series* series = nullptr;
  for (const model::Series& candidate : dataset.series) {
    if (candidate.region == "hrelation" && candidate.metric == "time") series = &candidate;
  }
  ASSERT_NE(series, nullptr);
  std::vector<double> x, y;
  for (const model::Measurement& measurement : series->measurements) {
    x.push_back(measurement.point[0]);
    y.push_back((measurement.values[0] + measurement.values[1]) / 2);
  }
  const auto [intercept, slope] = least_squares_line(x, y);

  const HRelationFit sum = fit_hrelation(*series, Combine::Sum);
  EXPECT_EQ(sum.constant_name, "hrelation");
  EXPECT_EQ(sum.formula, "hrelation[0] + hrelation[1] * h");
  EXPECT_EQ(sum.points, 6);
  EXPECT_FALSE(sum.constrained);
  EXPECT_NEAR(sum.parameters.L, intercept, 1e-12);
  EXPECT_NEAR(sum.parameters.g, slope / 2, 1e-18);  // h = in + out = 2b
  EXPECT_NEAR(sum.parameters.g, 1e-9, 1e-11);
  EXPECT_NEAR(sum.parameters.L, 5e-5, 1e-6);
  EXPECT_GT(sum.g_standard_error, 0.0);
  EXPECT_GT(sum.L_standard_error, 0.0);
  EXPECT_EQ(sum.parameters.combine, Combine::Sum);

  const HRelationFit max = fit_hrelation(*series, Combine::Max);
  EXPECT_NEAR(max.parameters.g, slope, 1e-18);  // h = max(in, out) = b
  EXPECT_DOUBLE_EQ(max.parameters.L, sum.parameters.L);
  EXPECT_DOUBLE_EQ(max.g_standard_error, 2 * sum.g_standard_error);
}

TEST(HRelation, ANegativeConstantIsRefittedWithNonNegativeConstants) {
  const model::Dataset dataset = model::read_dataset(data_dir + "/hrelation_negative.jsonl");
  const HRelationFit fit = fit_hrelation(dataset.series.front(), Combine::Sum);
  EXPECT_EQ(fit.constant_name, "exchange");
  EXPECT_TRUE(fit.constrained);
  EXPECT_LT(fit.unconstrained_L, 0.0);
  EXPECT_EQ(fit.parameters.L, 0.0);
  EXPECT_EQ(fit.L_standard_error, 0.0);  // held at 0
  // Through the origin: slope = Σ x y / Σ x².
  double xy = 0, xx = 0;
  for (const model::Measurement& measurement : dataset.series.front().measurements) {
    xy += measurement.point[0] * measurement.values[0];
    xx += measurement.point[0] * measurement.point[0];
  }
  EXPECT_NEAR(fit.parameters.g, xy / xx / 2, 1e-18);
}

TEST(HRelation, NeedsTheVariableH) {
  const model::Dataset dataset = model::read_dataset(data_dir + "/hrelation.jsonl");
  const model::Series& barrier = dataset.series.back();
  ASSERT_EQ(barrier.region, "barrier");
  try {
    (void)fit_hrelation(barrier, Combine::Sum);
    FAIL() << "no error";
  } catch (const core::InputError& error) {
    EXPECT_EQ(std::string(error.what()),
              data_dir + "/hrelation.jsonl:16:1: experiment 'barrier' has no variable 'h' (its variables: P)");
  }
}

TEST(HRelation, OnePointCannotDetermineTwoConstants) {
  const model::Dataset dataset =
      model::parse_dataset("one.jsonl", R"({"experiment":"x","variables":{"h":8},"time":1})");
  EXPECT_THROW((void)fit_hrelation(dataset.series.front(), Combine::Sum), std::invalid_argument);
}

TEST(Comparison, BothModelsAgainstTheMeasuredTimes) {
  const Trace trace = read_trace(figure1_path);
  const Comparison comparison = compare(trace, {0.0, 2.0, Combine::Sum});
  EXPECT_EQ(comparison.obsp.program, 10.0);
  EXPECT_EQ(comparison.bsp.program, 12.0);
  EXPECT_EQ(comparison.measured, (std::vector<double>{10.0, 10.0}));
  EXPECT_EQ(comparison.measured_program, 10.0);
  EXPECT_DOUBLE_EQ(error_percent(12.0, 10.0), -20.0);  // (measured − predicted) / measured
  EXPECT_DOUBLE_EQ(error_percent(8.0, 10.0), 20.0);
  EXPECT_TRUE(std::isnan(error_percent(std::nan(""), 10.0)));
  EXPECT_TRUE(std::isnan(error_percent(1.0, 0.0)));
}

TEST(HRelation, TheExperimentIsChosenFromTheRecords) {
  const std::string records = data_dir + "/hrelation.jsonl";
  const model::Dataset dataset = model::read_dataset(records);
  const HRelationFit fit = fit_hrelation_records(dataset, records, "hrelation", Combine::Max);
  EXPECT_EQ(fit.constant_name, "hrelation");
  EXPECT_EQ(fit.parameters.combine, Combine::Max);
  try {
    (void)fit_hrelation_records(dataset, records, "missing", Combine::Sum);
    FAIL() << "no error";
  } catch (const core::InputError& error) {
    EXPECT_EQ(std::string(error.what()),
              records + ": no experiment 'missing' with times in the records (found: hrelation, barrier)");
  }
  const model::Dataset one = model::parse_dataset("one.jsonl", R"({"experiment":"x","variables":{"h":8},"time":1})");
  try {
    (void)fit_hrelation_records(one, "one.jsonl", "x", Combine::Sum);
    FAIL() << "no error";
  } catch (const core::InputError&) {
    FAIL() << "not an input error";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()).rfind("cannot fit g and L to experiment 'x' of one.jsonl: ", 0), 0u) << error.what();
  }
}

}  // namespace
