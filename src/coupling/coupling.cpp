// Coupling values and predictors (seed 002, equations 1-4) and isocoupling: include/augur/coupling.hpp.
#include "augur/coupling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace augur::coupling {

std::string Machine::machine_class() const {
  const auto bytes = [](std::int64_t value) { return value > 0 ? std::to_string(value) : std::string("?"); };
  return (cpu_model.empty() ? std::string("unknown CPU") : cpu_model) + " / L1d " + bytes(l1d_bytes) + " / L2 " +
         bytes(l2_bytes) + " / L3 " + bytes(l3_bytes);
}

std::int64_t Run::invocations(int kernel) const {
  return iterations * kernels.at(static_cast<std::size_t>(kernel)).calls;
}

const Timing* Run::find(const std::vector<int>& chain) const {
  for (const auto& [measured, timing] : chains) {
    if (measured == chain) return &timing;
  }
  return nullptr;
}

double Run::alone(int kernel) const {
  const Timing* timing = find({kernel});
  if (timing == nullptr) {
    throw std::invalid_argument("kernel '" + kernels.at(static_cast<std::size_t>(kernel)).name +
                                "' was not measured alone");
  }
  return timing->seconds;
}

std::vector<int> Run::complete_lengths() const {
  std::vector<int> lengths;
  const int n = static_cast<int>(kernels.size());
  for (int kernel = 0; kernel < n; ++kernel) {  // C_W needs every kernel alone, and alone in some time
    const Timing* alone = find({kernel});
    if (alone == nullptr || !(alone->seconds > 0)) return lengths;
  }
  for (int length = 2; length < n; ++length) {
    bool complete = true;
    for (int first = 0; first < n && complete; ++first) complete = find(cyclic_chain(first, length, n)) != nullptr;
    if (complete) lengths.push_back(length);
  }
  return lengths;
}

std::optional<std::vector<int>> chain_lengths(const std::string& option, int kernels) {
  int low = 2;
  int high = kernels - 1;
  if (option == "none") return std::vector<int>{};
  if (option != "all") {
    const auto digits = [](const std::string& text) {
      return !text.empty() && text.size() < 6 && std::all_of(text.begin(), text.end(), ::isdigit);
    };
    const auto dash = option.find('-');
    const std::string first = option.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : option.substr(dash + 1);
    if (!digits(first) || !digits(last)) return std::nullopt;
    low = std::stoi(first);
    high = std::stoi(last);
  }
  std::vector<int> lengths;
  for (int length = std::max(2, low); length <= std::min(high, kernels - 1); ++length) lengths.push_back(length);
  return lengths;
}

std::vector<int> cyclic_chain(int first, int length, int kernels) {
  std::vector<int> chain;
  chain.reserve(static_cast<std::size_t>(length));
  for (int offset = 0; offset < length; ++offset) chain.push_back((first + offset) % kernels);
  return chain;
}

std::string chain_name(const Run& run, const std::vector<int>& chain) {
  std::string name;
  for (const int kernel : chain) {
    if (!name.empty()) name += "→";
    name += kernel >= 0 && kernel < static_cast<int>(run.kernels.size())
                ? run.kernels[static_cast<std::size_t>(kernel)].name
                : "#" + std::to_string(kernel);
  }
  return name;
}

namespace {

void check_length(const Run& run, int length) {
  const int n = static_cast<int>(run.kernels.size());
  if (n < 3) {
    throw std::invalid_argument("coupling needs at least 3 kernels in the loop (chains of 2 .. n−1); '" +
                                run.application + "' has " + std::to_string(n));
  }
  if (length < 2 || length >= n) {
    throw std::invalid_argument("chain length " + std::to_string(length) + " is outside 2 .. " +
                                std::to_string(n - 1) + " (n = " + std::to_string(n) + " kernels)");
  }
}

std::optional<double> relative_error(const Run& run, double predicted) {
  if (!run.loop || run.loop->seconds <= 0) return std::nullopt;
  return (predicted - run.loop->seconds) / run.loop->seconds;
}

// Equations 4 and 3 from the chains' couplings and times.
Prediction combine(const Run& run, const std::vector<ChainCoupling>& chains, int length, const std::string& method) {
  const std::size_t n = run.kernels.size();
  std::vector<double> weighted(n, 0.0);
  std::vector<double> weights(n, 0.0);
  for (const ChainCoupling& chain : chains) {
    for (const int kernel : chain.chain) {
      weighted[static_cast<std::size_t>(kernel)] += chain.value * chain.time;
      weights[static_cast<std::size_t>(kernel)] += chain.time;
    }
  }
  Prediction prediction{method, length, 0.0, std::vector<double>(n, 1.0), std::nullopt};
  for (std::size_t i = 0; i < n; ++i) {
    if (weights[i] > 0) prediction.alpha[i] = weighted[i] / weights[i];
    prediction.seconds += prediction.alpha[i] * static_cast<double>(run.invocations(static_cast<int>(i))) *
                          run.alone(static_cast<int>(i));
  }
  prediction.error = relative_error(run, prediction.seconds);
  return prediction;
}

double sum_alone(const Run& run, const std::vector<int>& chain) {
  double sum = 0;
  for (const int kernel : chain) sum += run.alone(kernel);
  return sum;
}

}  // namespace

std::vector<ChainCoupling> couplings(const Run& run, int length) {
  check_length(run, length);
  const int n = static_cast<int>(run.kernels.size());
  std::vector<ChainCoupling> result;
  for (int first = 0; first < n; ++first) {
    std::vector<int> chain = cyclic_chain(first, length, n);
    const Timing* timing = run.find(chain);
    if (timing == nullptr) {
      throw std::invalid_argument("chain " + chain_name(run, chain) + " of '" + run.application +
                                  "' was not measured (measure chains of length " + std::to_string(length) + ")");
    }
    const double alone = sum_alone(run, chain);
    if (alone <= 0) throw std::invalid_argument("the kernels of chain " + chain_name(run, chain) + " took no time");
    result.push_back({chain, timing->seconds, alone, timing->seconds / alone});
  }
  return result;
}

Prediction summation(const Run& run) {
  Prediction prediction{"summation", 1, 0.0, std::vector<double>(run.kernels.size(), 1.0), std::nullopt};
  for (std::size_t i = 0; i < run.kernels.size(); ++i) {
    prediction.seconds +=
        static_cast<double>(run.invocations(static_cast<int>(i))) * run.alone(static_cast<int>(i));
  }
  prediction.error = relative_error(run, prediction.seconds);
  return prediction;
}

Prediction predict(const Run& run, int length) { return combine(run, couplings(run, length), length, "coupling"); }

Prediction predict_reusing(const Run& target, const std::vector<ChainCoupling>& source, int length) {
  check_length(target, length);
  std::vector<ChainCoupling> estimated;
  estimated.reserve(source.size());
  for (const ChainCoupling& chain : source) {
    if (static_cast<int>(chain.chain.size()) != length) {
      throw std::invalid_argument("a reused chain has length " + std::to_string(chain.chain.size()) + ", not " +
                                  std::to_string(length));
    }
    for (const int kernel : chain.chain) {
      if (kernel < 0 || kernel >= static_cast<int>(target.kernels.size())) {
        throw std::invalid_argument("a reused chain names kernel #" + std::to_string(kernel) + ", which '" +
                                    target.application + "' does not have");
      }
    }
    const double alone = sum_alone(target, chain.chain);
    estimated.push_back({chain.chain, chain.value * alone, alone, chain.value});
  }
  if (estimated.size() != target.kernels.size()) {
    throw std::invalid_argument("reuse needs the " + std::to_string(target.kernels.size()) + " chains of length " +
                                std::to_string(length) + "; " + std::to_string(estimated.size()) + " given");
  }
  return combine(target, estimated, length, "reuse");
}

namespace {

bool same_kernels(const Run& a, const Run& b) {
  if (a.kernels.size() != b.kernels.size()) return false;
  for (std::size_t i = 0; i < a.kernels.size(); ++i) {
    if (a.kernels[i].name != b.kernels[i].name) return false;
  }
  return true;
}

double size_per_processor(const Run& run) {
  return run.problem_size / static_cast<double>(std::max(1, run.processors()));
}

bool same_run(const Run& a, const Run& b) {
  return a.application == b.application && a.started == b.started && a.problem_size == b.problem_size &&
         a.threads == b.threads && a.ranks == b.ranks && a.machine.hostname == b.machine.hostname &&
         a.dataset == b.dataset;
}

}  // namespace

std::vector<Candidate> reusable_runs(const Run& target, const std::vector<Run>& runs, int length) {
  std::vector<Candidate> candidates;
  const std::string target_class = target.machine.machine_class();
  for (std::size_t index = 0; index < runs.size(); ++index) {
    const Run& run = runs[index];
    if (run.application != target.application || !same_kernels(run, target) || same_run(run, target)) continue;
    // Another measurement of the very configuration is a repeat, not a reuse.
    if (run.machine.machine_class() == target_class && run.problem_size == target.problem_size &&
        run.threads == target.threads && run.ranks == target.ranks) {
      continue;
    }
    const auto lengths = run.complete_lengths();
    if (std::find(lengths.begin(), lengths.end(), length) == lengths.end()) continue;
    if (run.problem_size <= 0 || target.problem_size <= 0) continue;
    Candidate candidate;
    candidate.index = index;
    candidate.same_class = run.machine.machine_class() == target_class;
    candidate.distance = std::abs(std::log(size_per_processor(run) / size_per_processor(target)));
    candidate.processor_distance =
        std::abs(std::log(static_cast<double>(std::max(1, run.processors())) /
                          static_cast<double>(std::max(1, target.processors()))));
    candidates.push_back(candidate);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return std::make_tuple(!a.same_class, a.processor_distance, a.distance) <
           std::make_tuple(!b.same_class, b.processor_distance, b.distance);
  });
  return candidates;
}

std::vector<Transition> transitions(const std::vector<Run>& runs, int length, double threshold) {
  // The runs with every chain of length k, grouped by application, machine class, threads and ranks,
  // each group ordered by problem size; consecutive sizes are compared.
  const auto has_length = [&](const Run& run) {
    const auto lengths = run.complete_lengths();
    return std::find(lengths.begin(), lengths.end(), length) != lengths.end();
  };
  std::vector<std::size_t> order;
  for (std::size_t index = 0; index < runs.size(); ++index) {
    if (has_length(runs[index])) order.push_back(index);
  }
  const auto key = [&](std::size_t index) {
    const Run& run = runs[index];
    return std::make_tuple(run.application, run.machine.machine_class(), run.threads, run.ranks);
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_tuple(key(a), runs[a].problem_size) < std::make_tuple(key(b), runs[b].problem_size);
  });
  std::vector<Transition> found;
  for (std::size_t position = 1; position < order.size(); ++position) {
    const std::size_t before = order[position - 1];
    const std::size_t after = order[position];
    if (key(before) != key(after) || runs[before].problem_size == runs[after].problem_size) continue;
    if (!same_kernels(runs[before], runs[after])) continue;
    const auto first = couplings(runs[before], length);
    const auto second = couplings(runs[after], length);
    double change = 0;
    double absolute = 0;
    for (std::size_t chain = 0; chain < first.size(); ++chain) {
      change += second[chain].value - first[chain].value;
      absolute += std::abs(second[chain].value - first[chain].value);
    }
    change /= static_cast<double>(first.size());
    absolute /= static_cast<double>(first.size());
    if (absolute <= threshold) continue;
    Transition transition{before, after, change, absolute, "", 0};
    // L1d and L2 are private to a core: the data per processor; L3 is shared by a rank's threads (one
    // socket assumed): the data per rank.
    const Run& small = runs[before];
    const Run& large = runs[after];
    const auto per = [](const Run& run, int share) { return run.footprint_bytes / std::max(1, share); };
    const struct {
      const char* name;
      std::int64_t bytes;
      double small, large;
    } levels[] = {
        {"L1d", large.machine.l1d_bytes, per(small, small.processors()), per(large, large.processors())},
        {"L2", large.machine.l2_bytes, per(small, small.processors()), per(large, large.processors())},
        {"L3", large.machine.l3_bytes, per(small, small.ranks), per(large, large.ranks)}};
    for (const auto& level : levels) {
      const auto capacity = static_cast<double>(level.bytes);
      if (level.bytes > 0 && level.small > 0 && level.small <= capacity && capacity < level.large) {
        transition.level = level.name;
        transition.level_bytes = level.bytes;
        break;
      }
    }
    found.push_back(transition);
  }
  return found;
}

}  // namespace augur::coupling
