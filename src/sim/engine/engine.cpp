#include "augur/sim/engine.hpp"

#include <cmath>
#include <utility>

namespace augur::sim {

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t stream) {
  std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                         static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32), 0x61756775u};
  generator_.seed(sequence);
}

double RandomStream::uniform() {
  // 53 random bits, shifted off zero: (0, 1).
  return (static_cast<double>(generator_() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

double RandomStream::exponential(double mean) { return mean <= 0.0 ? 0.0 : -mean * std::log(uniform()); }

void Engine::schedule(double delay, Action action) {
  queue_.push(Event{now_ + (delay > 0.0 ? delay : 0.0), order_++, std::move(action)});
}

std::uint64_t Engine::run() {
  std::uint64_t count = 0;
  while (!queue_.empty()) {
    Event event = queue_.top();
    queue_.pop();
    now_ = event.time;
    event.action();
    ++count;
  }
  events_ += count;
  return count;
}

}  // namespace augur::sim
