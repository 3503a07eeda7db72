// An append-only log in fixed-size chunks: appending never moves what is stored (no reallocation, no
// memmove of the records so far, no page faults on copies), and chunks are allocated as the log grows,
// one at a time. After `retain` (a report taking the records) the chunks stay for the next records, up to
// as many as the log used since the previous `retain`: a steady program reuses its chunks without
// allocating, and memory after a burst goes back at the next report. Private to src/runtime.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <memory>
#include <vector>

namespace augur::runtime {

template <class T, std::size_t ChunkSize>
class ChunkedLog {
  static_assert(std::has_single_bit(ChunkSize), "a power of two: the index is a shift and a mask");

 public:
  void push_back(const T& value) {
    if (size_ == chunks_.size() * ChunkSize) chunks_.push_back(std::make_unique<T[]>(ChunkSize));
    chunks_[size_ / ChunkSize][size_ % ChunkSize] = value;
    ++size_;
    used_ = std::max(used_, size_);
  }

  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] const T& operator[](std::size_t index) const { return chunks_[index / ChunkSize][index % ChunkSize]; }
  [[nodiscard]] T& operator[](std::size_t index) { return chunks_[index / ChunkSize][index % ChunkSize]; }
  // The chunks allocated (in use or kept for reuse).
  [[nodiscard]] std::size_t chunks() const { return chunks_.size(); }

  // Keeps the elements for which keep(element) is true, in their order; `keep` must not throw. Frees the
  // chunks beyond what the log used since the previous retain.
  template <class Keep>
  void retain(Keep keep) {
    std::size_t kept = 0;
    for (std::size_t index = 0; index < size_; ++index) {
      if (!keep((*this)[index])) continue;
      if (kept != index) (*this)[kept] = (*this)[index];
      ++kept;
    }
    size_ = kept;
    const std::size_t wanted = (used_ + ChunkSize - 1) / ChunkSize;
    if (chunks_.size() > wanted) chunks_.resize(wanted);
    used_ = size_;
  }

  void clear() {
    retain([](const T&) { return false; });
  }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
  std::size_t used_ = 0;  // the most elements held since the previous retain
};

}  // namespace augur::runtime
