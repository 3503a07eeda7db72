// End-to-end tests of augur cache predict: the built binary on the example models, the stochastic method
// against the exact simulation of the same model's expanded trace, its outputs and its refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;  // describe, contains

using augur::core::ProcessResult;
using Json = nlohmann::json;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;
const std::string examples = std::string(AUGUR_EXAMPLES_DIR) + "/cache";

ProcessResult run(const Arguments& arguments) {
  Arguments argv{augur_exe, "cache", "predict"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

Json run_json(Arguments arguments) {
  arguments.push_back("--json");
  arguments.push_back("-q");
  const ProcessResult result = run(arguments);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  return Json::parse(result.standard_output);
}

double first_miss_rate(const Json& json) { return json.at("levels").at(0).at("miss_rate").get<double>(); }

TEST(CachePredictE2e, TheSeedsAbLoopAtTheFixedPointAndInTheSinglePass) {
  const Arguments base{examples + "/ab_arms.model", "--cache", "l1:size=1K,assoc=2,line=64"};
  // Fixed point: each value misses once (1 + 1/2 + 1/4 + ... = 2 misses in 100 iterations).
  EXPECT_NEAR(first_miss_rate(run_json(base)), 0.02, 1e-9);
  Arguments single = base;
  single.insert(single.end(), {"--loops", "single"});
  const Json seed = run_json(single);
  // The seed's reading: after the first iteration a and b are each in the cache with probability 1/2.
  EXPECT_NEAR(first_miss_rate(seed), 0.505, 1e-12);
  EXPECT_NEAR(seed.at("references").at(0).at("hit_probability").at(0).get<double>(), 0.495, 1e-12);
  // The exact simulation of the expanded trace agrees with the fixed point.
  Arguments exact = base;
  exact.insert(exact.end(), {"--method", "exact"});
  EXPECT_NEAR(first_miss_rate(run_json(exact)), 0.02, 1e-12);
}

TEST(CachePredictE2e, TheExampleModelsAreCloseToTheExactSimulation) {
  for (const std::string model : {"ab_loop", "matmul", "matmul_tiled", "stencil2d", "transpose"}) {
    for (const std::string cache : {"l1:size=4K,assoc=4,line=64", "l1:size=32K,assoc=8,line=64"}) {
      const Arguments base{examples + "/models/" + model + ".model", "--cache", cache};
      const double predicted = first_miss_rate(run_json(base));
      Arguments exact = base;
      exact.insert(exact.end(), {"--method", "exact"});
      EXPECT_NEAR(predicted, first_miss_rate(run_json(exact)), 0.01) << model << " " << cache;
    }
  }
}

TEST(CachePredictE2e, TwoLevelsAndTheirReferences) {
  const Json json = run_json({examples + "/models/stencil2d.model", "--cache", "l1d:size=32K,assoc=8,line=64", "--cache",
                              "l2:size=256K,assoc=8,line=64"});
  ASSERT_EQ(json.at("levels").size(), 2U);
  // The second level sees the first level's misses.
  EXPECT_DOUBLE_EQ(json.at("levels").at(1).at("accesses").get<double>(), json.at("levels").at(0).at("misses").get<double>());
  ASSERT_EQ(json.at("references").size(), 12U);
  EXPECT_EQ(json.at("references").at(0).at("statement").get<std::string>(), "read u[i - 1][j]");
  EXPECT_TRUE(contains(json.at("references").at(0).at("location").get<std::string>(), "stencil2d.model:11"));
}

TEST(CachePredictE2e, SizesCsvAndDefines) {
  const Json curve = run_json({examples + "/models/transpose.model", "--cache", "l1:size=32K,assoc=8", "--sizes", "4K,8K,16K",
                               "--define", "N=64"});
  ASSERT_EQ(curve.at("points").size(), 3U);
  EXPECT_EQ(curve.at("points").at(2).at("size").get<int>(), 16384);
  // The stochastic method is exact on this loop nest: the same curve as the exact simulation.
  const Json exact = run_json({examples + "/models/transpose.model", "--cache", "l1:size=32K,assoc=8", "--sizes", "4K,8K,16K",
                               "--define", "N=64", "--method", "exact"});
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_NEAR(curve.at("points").at(k).at("levels").at(0).at("miss_rate").get<double>(),
                exact.at("points").at(k).at("levels").at(0).at("miss_rate").get<double>(), 1e-12) << k;
  }
  const ProcessResult csv = run({examples + "/models/transpose.model", "--cache", "l1:size=32K,assoc=8", "--csv"});
  ASSERT_EQ(csv.exit_code, 0) << describe(csv);
  EXPECT_TRUE(starts_with(csv.standard_output, "size,level,accesses,misses,miss_rate,seconds\n32768,l1,524288,"));
}

TEST(CachePredictE2e, StatStackReportsItsSamples) {
  const Json json = run_json({examples + "/models/matmul.model", "--cache", "l1:size=32K,assoc=full", "--method", "statstack",
                              "--sample-rate", "0.01"});
  EXPECT_GT(json.at("samples").get<double>(), 1000.0);
  EXPECT_GT(first_miss_rate(json), 0.0);
  EXPECT_LT(first_miss_rate(json), 1.0);
}

TEST(CachePredictE2e, BadInputsAreLocatedErrors) {
  const std::string model = examples + "/models/matmul.model";
  const ProcessResult define = run({model, "--cache", "l1:size=32K", "--define", "M=3"});
  EXPECT_EQ(define.exit_code, 1);
  EXPECT_TRUE(starts_with(define.standard_error, "--define: unknown parameter 'M'")) << describe(define);
  const ProcessResult sizes = run({model, "--cache", "l1:size=32K,assoc=8", "--sizes", "4K,1000"});
  EXPECT_EQ(sizes.exit_code, 1);
  EXPECT_TRUE(contains(sizes.standard_error, "--sizes: expected sizes that are multiples of line x assoc (512)")) << describe(sizes);
  const ProcessResult policy = run({model, "--cache", "l1:size=32K,assoc=8,policy=plru"});
  EXPECT_EQ(policy.exit_code, 1);
  EXPECT_EQ(policy.standard_error, "--cache: the stochastic simulator models lru and random replacement, not plru\n");
  const ProcessResult missing = run({examples + "/no_such.model", "--cache", "l1:size=32K"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(missing.standard_output.empty());
  const ProcessResult index = run({examples + "/bad_index.model", "--cache", "l1:size=32K"});
  EXPECT_EQ(index.exit_code, 1);
  EXPECT_TRUE(contains(index.standard_error, "bad_index.model:")) << describe(index);
  const ProcessResult usage = run({model});
  EXPECT_EQ(usage.exit_code, 2);
  // Options before the model: one value per --cache, --sizes and --define.
  const ProcessResult before = run({"--cache", "l1:size=32K,assoc=8", "--sizes", "8K,16K", "--define", "N=16", model, "--csv"});
  EXPECT_EQ(before.exit_code, 0) << describe(before);
}

}  // namespace
