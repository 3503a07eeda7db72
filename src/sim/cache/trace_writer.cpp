#include "sim/cache/trace_writer.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace augur::sim::cache {
namespace {

constexpr std::size_t flush_size = 1 << 16;

// The binary word's limits, kept by din too so that both formats hold the same traces.
void check(const Access& access) {
  if (access.address >= (std::uint64_t{1} << 48)) {
    throw std::invalid_argument("address " + std::to_string(access.address) + " is at or above 2^48");
  }
  if (access.size < 1 || access.size > 16383) {
    throw std::invalid_argument("access size " + std::to_string(access.size) + " is outside 1..16383");
  }
  if (static_cast<std::uint8_t>(access.kind) > 2) throw std::invalid_argument("unknown access kind");
}

}  // namespace

TraceWriter::TraceWriter(std::ostream& out, TraceFormat format) : out_(out), format_(format) {
  if (format_ != TraceFormat::Augur && format_ != TraceFormat::Din) {
    throw std::invalid_argument("traces are written in augur's format or din only");
  }
  buffer_.reserve(flush_size + 64);
  if (format_ == TraceFormat::Augur) buffer_.append(trace_magic, sizeof trace_magic);
}

void TraceWriter::write(std::span<const Access> accesses) {
  if (format_ == TraceFormat::Augur) {
    append_binary(accesses);
  } else {
    for (const Access& access : accesses) {
      check(access);
      append_din(access);
      if (buffer_.size() >= flush_size) flush();
    }
  }
  accesses_ += accesses.size();
}

// The words of access.hpp, little-endian, packed straight into the buffer.
void TraceWriter::append_binary(std::span<const Access> accesses) {
  constexpr std::size_t chunk = flush_size / 8;
  for (std::size_t start = 0; start < accesses.size(); start += chunk) {
    const std::size_t count = std::min(chunk, accesses.size() - start);
    const std::size_t offset = buffer_.size();
    buffer_.resize(offset + 8 * count);
    char* out = buffer_.data() + offset;
    for (std::size_t k = 0; k < count; ++k, out += 8) {
      const Access& access = accesses[start + k];
      check(access);
      std::uint64_t word = pack_access(access);
      if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(out, &word, 8);
      } else {
        for (int b = 0; b < 8; ++b, word >>= 8) out[b] = static_cast<char>(word & 0xffU);
      }
    }
    if (buffer_.size() >= flush_size) flush();
  }
}

void TraceWriter::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  bytes_ += buffer_.size();
  buffer_.clear();
}

// "label address size": label 0 read, 1 write, 2 instruction fetch; the address in hexadecimal without
// a prefix, as Dinero writes it; the size in decimal.
void TraceWriter::append_din(const Access& access) {
  static constexpr char digits[] = "0123456789abcdef";
  char text[48];
  std::size_t length = 0;
  text[length++] = static_cast<char>('0' + static_cast<int>(access.kind));
  text[length++] = ' ';
  char hex[16];
  std::size_t count = 0;
  std::uint64_t address = access.address;
  do {
    hex[count++] = digits[address & 0xfU];
    address >>= 4;
  } while (address != 0);
  while (count > 0) text[length++] = hex[--count];
  text[length++] = ' ';
  const std::string size = std::to_string(access.size);
  for (const char c : size) text[length++] = c;
  text[length++] = '\n';
  buffer_.append(text, length);
}

}  // namespace augur::sim::cache
