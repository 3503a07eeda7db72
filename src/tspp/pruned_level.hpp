// One level of the pruned method's pass (pruned.hpp): its states' words and, per state, a fixed number of
// numbers, found by their words. Private to augur_tspp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace augur::tspp::pruned {

class Level {
public:
  static constexpr std::uint32_t absent = 0xFFFFFFFFU;

  Level(std::size_t width, std::size_t values) : width_(width), values_(values), slots_(1024, absent) {}

  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] const std::uint16_t* state(std::size_t s) const { return words_.data() + s * width_; }
  [[nodiscard]] double* values(std::size_t s) { return numbers_.data() + s * values_; }
  [[nodiscard]] const double* values(std::size_t s) const { return numbers_.data() + s * values_; }

  // The number of the state, added with its numbers 0 when new.
  std::uint32_t intern(const std::uint16_t* state);
  // The number of the state, or absent.
  [[nodiscard]] std::uint32_t find(const std::uint16_t* state) const;
  void clear();

private:
  std::size_t width_;
  std::size_t values_;
  std::size_t count_ = 0;
  std::vector<std::uint16_t> words_;
  std::vector<double> numbers_;
  std::vector<std::uint32_t> slots_;  // open addressing: state numbers, or absent

  void grow();
};

}  // namespace augur::tspp::pruned
