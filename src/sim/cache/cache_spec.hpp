// The specification of one cache level (issue 17, docs/formats.md "Cache specifications"):
//   NAME:size=32K,assoc=8,line=64,policy=lru|fifo|random|plru,write=back|through,alloc=yes|no[,seed=N]
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace augur::sim::cache {

enum class ReplacementPolicy : std::uint8_t { Lru, Fifo, Random, Plru };
enum class WritePolicy : std::uint8_t { Back, Through };

struct CacheSpec {
  std::string name;                  // "l1d", "l2", ...; "l1i" and "l1d" together make a split first level
  std::uint64_t size = 0;            // bytes
  std::uint64_t line = 64;           // bytes, a power of two
  std::uint64_t assoc = 8;           // ways; equal to size / line when fully associative
  bool fully_associative = false;    // assoc=full
  ReplacementPolicy policy = ReplacementPolicy::Lru;
  WritePolicy write = WritePolicy::Back;
  bool allocate = true;              // write-allocate: a write miss fetches the line
  std::uint64_t seed = 1;            // the random policy's stream

  [[nodiscard]] std::uint64_t lines() const { return size / line; }
  [[nodiscard]] std::uint64_t sets() const { return size / (line * assoc); }
};

[[nodiscard]] const char* policy_name(ReplacementPolicy policy);

// Parses one specification. Errors are core::InputError located at `origin` (an option name such as
// "--cache", or a file), with the column of the faulty key: unknown key, size not a multiple of line x assoc,
// line not a power of two, plru with an associativity not a power of two, missing size, ...
[[nodiscard]] CacheSpec parse_cache_spec(std::string_view text, const std::string& origin);

// "32K", "1M", "1024", "2G" -> bytes; false when it is not such a size.
[[nodiscard]] bool parse_size(std::string_view text, std::uint64_t& bytes);

// The spec written back in the form parse_cache_spec reads (for messages and the table's header).
[[nodiscard]] std::string format_cache_spec(const CacheSpec& spec);

}  // namespace augur::sim::cache
