#include "sim/cache/trace_writer.hpp"

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
  if (format_ == TraceFormat::Augur) append_binary_header(buffer_);
}

void TraceWriter::write(std::span<const Access> accesses) {
  for (const Access& access : accesses) {
    if (format_ == TraceFormat::Augur) {
      append_binary_access(buffer_, access);
    } else {
      check(access);
      append_din(access);
    }
    if (buffer_.size() >= flush_size) flush();
  }
  accesses_ += accesses.size();
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
