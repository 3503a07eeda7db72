// augur cache predict (cache_predict.cpp): its options and results, shared with its printing
// (cache_predict_print.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "augur/core/expression.hpp"
#include "sim/cache/cache_spec.hpp"
#include "sim/cache/model.hpp"
#include "sim/cache/stochastic.hpp"

namespace augur::cli {

struct CachePredictOptions {
  std::string model;
  std::vector<std::string> caches;
  std::string method = "stochastic";
  std::string loops = "fixed";
  std::vector<std::string> sizes;
  std::vector<std::string> defines;
  std::uint64_t seed = 1;
  double sample_rate = 0.001;
  bool json = false;
  bool csv = false;
  bool quiet = false;
};

// One cache configuration's prediction.
struct PredictPoint {
  std::vector<sim::cache::CacheSpec> levels;
  std::vector<std::pair<double, double>> counts;                // per level: accesses, misses
  std::optional<sim::cache::StochasticResult> stochastic;       // per reference (the stochastic method)
  std::uint64_t samples = 0;                                    // statstack's samples
  double seconds = 0.0;
};

struct CachePredictReport {
  const CachePredictOptions& options;
  const core::SourceText& source;
  const sim::cache::Model& model;
  std::vector<PredictPoint> points;  // one, or one per --sizes
};

[[nodiscard]] std::string render_predict_table(const CachePredictReport& report);
[[nodiscard]] std::string render_predict_json(const CachePredictReport& report);
[[nodiscard]] std::string render_predict_csv(const CachePredictReport& report);

}  // namespace augur::cli
