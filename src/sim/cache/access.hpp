// One memory access of a trace, and the streaming interface every cache method reads accesses through
// (issue 17, seed 004 §2.2). Traces are never loaded whole: a reader fills a caller's buffer in batches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace augur::sim::cache {

enum class AccessKind : std::uint8_t { Read = 0, Write = 1, Instruction = 2 };  // Dinero's labels 0, 1, 2

struct Access {
  std::uint64_t address = 0;  // byte address
  std::uint32_t size = 1;     // bytes touched from `address` (an access may straddle two lines)
  AccessKind kind = AccessKind::Read;
};

// A stream of accesses: read() fills up to buffer.size() accesses and returns how many it wrote; 0 means the
// stream has ended. Errors in the input are core::InputError at the file and line of the fault.
class AccessSource {
public:
  virtual ~AccessSource() = default;
  virtual std::size_t read(std::span<Access> buffer) = 0;
};

// augur's own binary trace format (docs/formats.md, "Cache traces"): the 8 bytes "AUGURTR1", then one
// little-endian 64-bit word per access: bits 0-47 the address, bits 48-61 the size in bytes (1..16383),
// bits 62-63 the kind (AccessKind; 3 is an error). Writers refuse an address at or above 2^48 or a size outside 1..16383.
inline constexpr char trace_magic[8] = {'A', 'U', 'G', 'U', 'R', 'T', 'R', '1'};

[[nodiscard]] constexpr std::uint64_t pack_access(const Access& access) {
  return (access.address & ((std::uint64_t{1} << 48) - 1)) | (std::uint64_t{access.size & 0x3fffU} << 48) |
         (std::uint64_t{static_cast<std::uint8_t>(access.kind)} << 62);
}

[[nodiscard]] constexpr Access unpack_access(std::uint64_t word) {
  return Access{word & ((std::uint64_t{1} << 48) - 1), static_cast<std::uint32_t>((word >> 48) & 0x3fffU),
                static_cast<AccessKind>(word >> 62)};
}

}  // namespace augur::sim::cache
