#include "sim/cache/cache_spec.hpp"

#include <bit>
#include <cctype>
#include <charconv>
#include <limits>

#include "augur/core/diagnostics.hpp"

namespace augur::sim::cache {
namespace {

// An option's value is named by the option ("--cache: ..."); the offset of the fault is kept for a file.
[[noreturn]] void fail(const std::string& origin, std::size_t offset, const std::string& message) {
  const bool option = origin.starts_with("--");
  throw core::InputError(core::SourceLocation{origin, option ? 0 : 1, option ? 0 : static_cast<long>(offset) + 1}, message);
}

bool parse_unsigned(std::string_view text, std::uint64_t& value) {
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

struct Seen {
  bool size = false;
  bool assoc = false;
};

void apply_key(CacheSpec& spec, Seen& seen, std::string_view key, std::string_view value, const std::string& origin,
               std::size_t offset) {
  const std::size_t value_offset = offset + key.size() + 1;
  if (key == "size") {
    if (!parse_size(value, spec.size) || spec.size == 0) fail(origin, value_offset, "size: expected a size such as 32K, 1M or 4096, found " + quoted(value));
    seen.size = true;
  } else if (key == "line") {
    if (!parse_size(value, spec.line) || !std::has_single_bit(spec.line))
      fail(origin, value_offset, "line: expected a power of two of bytes, found " + quoted(value));
  } else if (key == "assoc") {
    seen.assoc = true;
    spec.fully_associative = value == "full";
    if (!spec.fully_associative && (!parse_unsigned(value, spec.assoc) || spec.assoc == 0))
      fail(origin, value_offset, "assoc: expected a number of ways or 'full', found " + quoted(value));
  } else if (key == "policy") {
    if (value == "lru") spec.policy = ReplacementPolicy::Lru;
    else if (value == "fifo") spec.policy = ReplacementPolicy::Fifo;
    else if (value == "random") spec.policy = ReplacementPolicy::Random;
    else if (value == "plru") spec.policy = ReplacementPolicy::Plru;
    else fail(origin, value_offset, "policy: expected lru, fifo, random or plru, found " + quoted(value));
  } else if (key == "write") {
    if (value == "back") spec.write = WritePolicy::Back;
    else if (value == "through") spec.write = WritePolicy::Through;
    else fail(origin, value_offset, "write: expected back or through, found " + quoted(value));
  } else if (key == "alloc") {
    if (value == "yes") spec.allocate = true;
    else if (value == "no") spec.allocate = false;
    else fail(origin, value_offset, "alloc: expected yes or no, found " + quoted(value));
  } else if (key == "seed") {
    if (!parse_unsigned(value, spec.seed)) fail(origin, value_offset, "seed: expected a non-negative integer, found " + quoted(value));
  } else {
    fail(origin, offset, "unknown key " + quoted(key) + " (expected size, assoc, line, policy, write, alloc or seed)");
  }
}

void check_geometry(CacheSpec& spec, const std::string& origin) {
  const std::string name = "cache " + quoted(spec.name) + ": ";
  if (spec.size % spec.line != 0)
    fail(origin, 0, name + "size " + std::to_string(spec.size) + " is not a multiple of the line " + std::to_string(spec.line));
  if (spec.fully_associative) spec.assoc = spec.lines();
  if (spec.assoc > spec.lines())
    fail(origin, 0, name + "assoc " + std::to_string(spec.assoc) + " is more than the " + std::to_string(spec.lines()) + " lines of the cache");
  if (spec.size % (spec.line * spec.assoc) != 0)
    fail(origin, 0, name + "size " + std::to_string(spec.size) + " is not a multiple of line x assoc (" +
                        std::to_string(spec.line) + " x " + std::to_string(spec.assoc) + ")");
  if (spec.policy == ReplacementPolicy::Plru && !std::has_single_bit(spec.assoc))
    fail(origin, 0, name + "plru needs a power-of-two associativity, found " + std::to_string(spec.assoc));
  // Every line is held in memory (some 50 bytes each, allocated at the start): 2^24 lines is a cache of 1 GiB in
  // lines of 64 bytes and under 1 GiB of memory.
  if (spec.lines() > (std::uint64_t{1} << 24))
    fail(origin, 0, name + std::to_string(spec.lines()) + " lines: at most 2^24 (16777216) are simulated (memory)");
}

}  // namespace

const char* policy_name(ReplacementPolicy policy) {
  switch (policy) {
    case ReplacementPolicy::Lru: return "lru";
    case ReplacementPolicy::Fifo: return "fifo";
    case ReplacementPolicy::Random: return "random";
    case ReplacementPolicy::Plru: return "plru";
  }
  return "lru";
}

bool parse_size(std::string_view text, std::uint64_t& bytes) {
  if (text.empty()) return false;
  std::uint64_t multiplier = 1;
  const char unit = text.back();
  if (unit == 'K' || unit == 'k') multiplier = std::uint64_t{1} << 10;
  else if (unit == 'M' || unit == 'm') multiplier = std::uint64_t{1} << 20;
  else if (unit == 'G' || unit == 'g') multiplier = std::uint64_t{1} << 30;
  if (multiplier != 1) text.remove_suffix(1);
  std::uint64_t count = 0;
  if (!parse_unsigned(text, count)) return false;
  if (count > std::numeric_limits<std::uint64_t>::max() / multiplier) return false;
  bytes = count * multiplier;
  return true;
}

CacheSpec parse_cache_spec(std::string_view text, const std::string& origin) {
  CacheSpec spec;
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0)
    fail(origin, 0, "expected NAME:size=...,assoc=...,line=..., found " + quoted(text));
  spec.name = std::string(text.substr(0, colon));
  for (const char c : spec.name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) fail(origin, 0, "cache name: expected letters, digits, '_' or '-', found " + quoted(spec.name));
  }
  Seen seen;
  std::size_t position = colon + 1;
  while (position <= text.size()) {
    std::size_t comma = text.find(',', position);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view item = text.substr(position, comma - position);
    const std::size_t equals = item.find('=');
    if (equals == std::string_view::npos) fail(origin, position, "expected KEY=VALUE, found " + quoted(item));
    apply_key(spec, seen, item.substr(0, equals), item.substr(equals + 1), origin, position);
    position = comma + 1;
  }
  if (!seen.size) fail(origin, 0, "cache " + quoted(spec.name) + ": size= is required");
  check_geometry(spec, origin);
  return spec;
}

std::string format_cache_spec(const CacheSpec& spec) {
  std::string text = spec.name + ":size=" + std::to_string(spec.size) + ",assoc=" +
                     (spec.fully_associative ? std::string("full") : std::to_string(spec.assoc)) + ",line=" + std::to_string(spec.line) +
                     ",policy=" + policy_name(spec.policy) + ",write=" + (spec.write == WritePolicy::Back ? "back" : "through") +
                     ",alloc=" + (spec.allocate ? "yes" : "no");
  if (spec.policy == ReplacementPolicy::Random) text += ",seed=" + std::to_string(spec.seed);
  return text;
}

}  // namespace augur::sim::cache
