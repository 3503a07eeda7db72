#include "exact_chain.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace augur::tspp::exact {
namespace {

class Builder {
public:
  Builder(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states)
      : stepper_(system, options), index_(chain_, max_states, "the exact method") {
    chain_.tasks = stepper_.tasks();
    chain_.resources = stepper_.resources();
    chain_.width = stepper_.width();
    chain_.phases = stepper_.phases();
    chain_.arrival_found.assign(chain_.tasks * chain_.resources, 0.0);
  }

  Chain build() {
    std::vector<std::uint16_t> state;
    std::vector<Arrival> arrivals;
    stepper_.start(state, arrivals);
    index_.intern(state);
    chain_.reach[0] = 1.0;
    for (const Arrival& arrival : arrivals) {
      chain_.arrival_found[static_cast<std::size_t>(arrival.task) * chain_.resources + static_cast<std::size_t>(arrival.resource)] +=
          arrival.found;
    }
    chain_.first.push_back(0);
    std::vector<std::uint16_t> current(chain_.width);
    for (std::size_t s = 0; s < chain_.exit_rate.size(); ++s) {
      std::copy_n(chain_.state(s), chain_.width, current.begin());
      expand(s, current);
    }
    return std::move(chain_);
  }

private:
  Stepper stepper_;
  Chain chain_;
  StateIndex index_;
  struct Successor {
    std::uint32_t target;
    double rate;
    std::size_t arrivals_begin, arrivals_end;
  };
  std::vector<Successor> successors_;
  std::vector<Arrival> successor_arrivals_;

  void expand(std::size_t s, const std::vector<std::uint16_t>& current) {
    successors_.clear();
    successor_arrivals_.clear();
    const double total = stepper_.successors(current, [this](const std::vector<std::uint16_t>& next, double rate, const std::vector<Arrival>& arrivals) {
      const std::size_t begin_arrivals = successor_arrivals_.size();
      successor_arrivals_.insert(successor_arrivals_.end(), arrivals.begin(), arrivals.end());
      successors_.push_back({index_.intern(next), rate, begin_arrivals, successor_arrivals_.size()});
    });
    chain_.exit_rate[s] = total;
    const double reach = chain_.reach[s];
    for (const Successor& successor : successors_) {
      const double probability = successor.rate / total;
      chain_.target.push_back(successor.target);
      chain_.probability.push_back(probability);
      chain_.reach[successor.target] += reach * probability;
      for (std::size_t a = successor.arrivals_begin; a < successor.arrivals_end; ++a) {
        const Arrival& arrival = successor_arrivals_[a];
        chain_.arrival_found[static_cast<std::size_t>(arrival.task) * chain_.resources + static_cast<std::size_t>(arrival.resource)] +=
            reach * probability * arrival.found;
      }
    }
    chain_.first.push_back(static_cast<std::uint32_t>(chain_.target.size()));
  }
};

}  // namespace

StateIndex::StateIndex(Chain& chain, std::size_t max_states, std::string method)
    : chain_(chain), max_states_(max_states), method_(std::move(method)), slots_(1024, empty_slot) {}

std::uint64_t StateIndex::hash(const std::uint16_t* words) const { return hash_state(words, chain_.width); }

std::uint32_t StateIndex::intern(const std::vector<std::uint16_t>& state) {
  if (2 * (chain_.states() + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = hash(state.data()) & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t number = slots_[slot];
    if (number == empty_slot) {
      if (chain_.states() >= max_states_) {
        throw std::invalid_argument(method_ + " handles at most " + std::to_string(max_states_) +
                                    " states of the Markov chain, and this system has more (use another method)");
      }
      slots_[slot] = static_cast<std::uint32_t>(chain_.states());
      chain_.words.insert(chain_.words.end(), state.begin(), state.end());
      chain_.exit_rate.push_back(0.0);
      chain_.reach.push_back(0.0);
      return slots_[slot];
    }
    if (std::equal(state.begin(), state.end(), chain_.state(number))) return number;
  }
}

void StateIndex::grow() {
  slots_.assign(slots_.size() * 2, empty_slot);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t s = 0; s < chain_.states(); ++s) {
    std::size_t slot = hash(chain_.state(s)) & mask;
    while (slots_[slot] != empty_slot) slot = (slot + 1) & mask;
    slots_[slot] = static_cast<std::uint32_t>(s);
  }
}

Chain build_chain(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states) {
  return Builder(system, options, max_states).build();
}

}  // namespace augur::tspp::exact
