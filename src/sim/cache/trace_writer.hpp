// Writers of address traces to a stream: augur's binary trace (access.hpp, docs/formats.md "Cache traces")
// and Dinero's din text format, so that every method and outside tools read the same accesses. (The readers'
// append_binary_access writes one access into a string; this writer packs whole batches: 130-165 rather than
// 50-60 million accesses a second through bench_cache_model_speed.)
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "sim/cache/access.hpp"
#include "sim/cache/trace_reader.hpp"

namespace augur::sim::cache {

// Writes accesses as they come, in TraceFormat::Augur or TraceFormat::Din (another format is refused with
// std::invalid_argument). An address at or above 2^48 or a size outside 1..16383 is refused with
// std::invalid_argument (the binary word cannot hold it; din keeps the same limits so both formats hold the
// same traces). The stream's own errors are the caller's to check.
class TraceWriter {
 public:
  TraceWriter(std::ostream& out, TraceFormat format);
  void write(std::span<const Access> accesses);
  // Writes out what is buffered (also done by write() when its buffer fills).
  void flush();
  [[nodiscard]] std::uint64_t accesses() const { return accesses_; }
  [[nodiscard]] std::uint64_t bytes() const { return bytes_; }  // bytes handed to the stream, magic included

 private:
  void append_binary(std::span<const Access> accesses);
  void append_din(const Access& access);

  std::ostream& out_;
  TraceFormat format_;
  std::string buffer_;
  std::uint64_t accesses_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace augur::sim::cache
