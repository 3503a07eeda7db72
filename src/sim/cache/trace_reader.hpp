// Readers of memory-access traces (docs/formats.md, "Cache traces"): Dinero's din text, valgrind lackey's
// --trace-mem=yes output, and augur's binary format (access.hpp). They stream: the input is read in chunks
// of a megabyte, never whole, and parsed by hand (no iostream per line). Errors are core::InputError at
// the file and line of the fault (the record number for the binary format), with the text found.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

#include "sim/cache/access.hpp"

namespace augur::sim::cache {

enum class TraceFormat : std::uint8_t { Detect, Din, Lackey, Augur };

// "din", "lackey", "augur" or "detect"; false for another word.
[[nodiscard]] bool parse_trace_format(std::string_view word, TraceFormat& format);
[[nodiscard]] const char* trace_format_name(TraceFormat format);

class TraceReader : public AccessSource {
public:
  // Records skipped on purpose: Dinero's labels 3 (escape) and 4 (flush), which the simulator does not model.
  [[nodiscard]] virtual std::uint64_t skipped() const = 0;
  [[nodiscard]] virtual TraceFormat format() const = 0;
};

// A reader of `input` (kept by reference, read from its current position), named `name` in messages.
// TraceFormat::Detect looks at the first bytes: "AUGURTR1" is augur's format; a first line (after lackey's
// "==pid==" lines) that starts with "I", " L", " S" or " M" is lackey's; anything else is din.
[[nodiscard]] std::unique_ptr<TraceReader> open_trace(std::istream& input, const std::string& name,
                                                      TraceFormat format = TraceFormat::Detect);

// Writes accesses in augur's binary format (the magic, then one word per access); throws std::invalid_argument
// for an address at or above 2^48 or a size outside 1..16383.
void append_binary_access(std::string& out, const Access& access);
void append_binary_header(std::string& out);

}  // namespace augur::sim::cache
