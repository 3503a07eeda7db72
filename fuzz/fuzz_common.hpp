// What every fuzz target shares (docs/fuzzing.md). A target parses its input, and where cheap writes it
// back and parses it again or evaluates it, catching only the exceptions its parser documents for bad
// input (core::InputError). Any other exception escapes LLVMFuzzerTestOneInput, which libFuzzer reports
// as a crash ("uncaught exception" → abort), as it does a sanitizer report or a failed expectation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace augur::fuzz {

// The input as text (any bytes, NUL included).
inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A property of our own that does not hold: a finding. Prints what and aborts (libFuzzer saves the input).
[[noreturn]] inline void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "augur fuzz: %s\n%s\n", what, detail.c_str());
  std::abort();
}

inline void expect(bool holds, const char* what, const std::string& detail = "") {
  if (!holds) fail(what, detail);
}

// Inputs longer than this are skipped: the parsers are linear, and long inputs only slow the search down.
inline constexpr std::size_t max_input = 64 * 1024;

}  // namespace augur::fuzz
