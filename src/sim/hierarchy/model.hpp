// Stochastic program behaviour models (docs/formats.md, "Program behaviour models"; seed 004 §4.3, Figure
// 18): per program level the distributions of N_size (tasks of a function graph, and its space units in
// the CS), N_df (tasks made executable per dataflow firing) and, at the ground level, T_et (the execution
// time of an elementary function); the dependency pattern (random or structured); the number of levels
// (or the machine's). The four presets UU20, XU11, XP11 and XU20 are augur's reading of the seed's names.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "augur/sim/engine.hpp"

namespace augur::sim::hierarchy {

struct Distribution {
  enum class Kind { Deterministic, Uniform, Exponential, Poisson, Empirical };
  Kind kind = Kind::Deterministic;
  double shift = 0.0;                                 // "K + ..." adds K to every draw
  double a = 1.0;                                     // the value; uniform's low end; the mean
  double b = 1.0;                                     // uniform's high end
  std::vector<std::pair<double, double>> empirical;   // (value, weight), weights summing to 1

  // One draw. Counts (whole = true) round a continuous draw to the nearest whole number.
  [[nodiscard]] double draw(RandomStream& random, bool whole) const;
  [[nodiscard]] double mean() const;
  [[nodiscard]] double minimum() const;  // the least value a draw can take
  [[nodiscard]] std::string describe() const;
};

enum class Pattern { Random, Structured };

struct ProgramModel {
  std::string name;
  int levels = 0;                       // 0: the machine's
  // Per level (index l − 1), filled up to `levels` by the reader or for_levels(): N_size and N_df.
  std::vector<Distribution> size;
  std::vector<Distribution> firing;
  Distribution execution_time;          // T_et of the elementary functions (ground level)
  Pattern pattern = Pattern::Random;

  // The model with `levels` levels: per-level distributions given for all levels are repeated.
  [[nodiscard]] ProgramModel for_levels(int levels) const;
};

// Parses a model file; impossible parameters (a negative time, a count that can be 0, uniform a > b ...) are
// InputErrors at file:line:col.
[[nodiscard]] ProgramModel parse_model(const std::string& text, const std::string& file);

// The presets UU20, XU11, XP11, XU20 (docs/hierarchy.md says how the names are read) as model text; empty
// for another name.
[[nodiscard]] std::string preset_model_text(const std::string& name);
[[nodiscard]] std::vector<std::string> preset_names();

}  // namespace augur::sim::hierarchy
