#include "sim/cache/trace_reader.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "augur/core/diagnostics.hpp"

namespace augur::sim::cache {
namespace {

constexpr std::size_t chunk_bytes = std::size_t{1} << 20;  // read a megabyte at a time; a line may not be longer
constexpr std::uint64_t largest_size = 16383;  // as in augur's binary format (14 bits): no access touches more

// The input in chunks: whole lines (or bytes) out of a buffer refilled from the stream.
class ChunkedInput {
public:
  ChunkedInput(std::istream& input, std::string name)
      : input_(input), name_(std::move(name)), buffer_(new char[chunk_bytes]) {}  // not zeroed: filled by reads

  // Makes at least `count` bytes available when the input has them; returns what is buffered.
  std::string_view fill(std::size_t count) {
    while (end_ - begin_ < count && !eof_) refill();
    return {buffer_.get() + begin_, end_ - begin_};
  }
  void consume(std::size_t count) { begin_ += count; }

  // The next line without its end ("\n" or "\r\n"); false at the end of the input.
  bool next_line(std::string_view& line) {
    for (;;) {
      const char* start = buffer_.get() + begin_;
      const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
      if (newline != nullptr) {
        line = {start, static_cast<std::size_t>(newline - start)};
        begin_ += line.size() + 1;
        break;
      }
      if (eof_) {
        if (begin_ == end_) return false;
        line = {start, end_ - begin_};
        begin_ = end_;
        break;
      }
      if (begin_ == 0 && end_ == chunk_bytes) fail(line_ + 1, 1, "a line longer than 1 MiB");
      refill();
    }
    ++line_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
  }

  [[noreturn]] void fail(long line, long column, const std::string& message) const {
    throw core::InputError(core::SourceLocation{name_, line, column}, message);
  }
  [[nodiscard]] long line() const { return line_; }
  [[nodiscard]] const std::string& name() const { return name_; }

private:
  void refill() {
    if (begin_ > 0) {
      std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    input_.read(buffer_.get() + end_, static_cast<std::streamsize>(chunk_bytes - end_));
    const auto got = static_cast<std::size_t>(input_.gcount());
    if (input_.bad()) fail(0, 0, "cannot read the trace");
    end_ += got;
    if (got == 0 || input_.eof()) eof_ = true;
  }

  std::istream& input_;
  std::string name_;
  std::unique_ptr<char[]> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  long line_ = 0;
};

std::string shown(std::string_view text) {
  if (text.size() > 40) return "'" + std::string(text.substr(0, 40)) + "...'";
  return "'" + std::string(text) + "'";
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A cursor over one line, with the parsers of its fields.
struct Cursor {
  std::string_view line;
  std::size_t position = 0;

  void skip_spaces() {
    while (position < line.size() && is_space(line[position])) ++position;
  }
  [[nodiscard]] bool at_end() const { return position >= line.size(); }
  [[nodiscard]] long column() const { return static_cast<long>(position) + 1; }
  [[nodiscard]] std::string_view token() const {
    std::size_t end = position;
    while (end < line.size() && !is_space(line[end]) && line[end] != ',') ++end;
    return line.substr(position, end - position);
  }
  // Hexadecimal digits, "0x" allowed; false when there are none or more than 16.
  bool hex(std::uint64_t& value) {
    if (line.substr(position, 2) == "0x" || line.substr(position, 2) == "0X") position += 2;
    const std::size_t start = position;
    value = 0;
    for (int digit = 0; position < line.size() && (digit = hex_digit(line[position])) >= 0; ++position) {
      value = (value << 4) | static_cast<std::uint64_t>(digit);
    }
    return position > start && position - start <= 16;
  }
  // A decimal count in 1..largest_size.
  bool count(std::uint64_t& value) {
    const std::size_t start = position;
    value = 0;
    for (; position < line.size() && line[position] >= '0' && line[position] <= '9'; ++position) {
      if (value > largest_size) return false;
      value = value * 10 + static_cast<std::uint64_t>(line[position] - '0');
    }
    return position > start && value >= 1 && value <= largest_size;
  }
};

class TextReader : public TraceReader {
public:
  explicit TextReader(ChunkedInput input) : input_(std::move(input)) {}
  std::size_t read(std::span<Access> buffer) override {
    std::size_t count = 0;
    if (pending_ && !buffer.empty()) {
      buffer[count++] = *pending_;
      pending_.reset();
    }
    std::string_view line;
    while (count < buffer.size() && input_.next_line(line)) parse(line, buffer, count);
    return count;
  }
  [[nodiscard]] std::uint64_t skipped() const override { return skipped_; }

protected:
  // Appends the accesses of one line to buffer[count...] (one, or two for lackey's M; a second that does not
  // fit waits in pending_).
  virtual void parse(std::string_view line, std::span<Access> buffer, std::size_t& count) = 0;
  void push(const Access& access, std::span<Access> buffer, std::size_t& count) {
    if (count < buffer.size()) buffer[count++] = access; else pending_ = access;
  }
  [[noreturn]] void fail(const Cursor& cursor, const std::string& message) const {
    input_.fail(input_.line(), cursor.column(), message);
  }

  ChunkedInput input_;
  std::optional<Access> pending_;
  std::uint64_t skipped_ = 0;
};

// Dinero's din: "LABEL ADDRESS [SIZE]" (label 0 read, 1 write, 2 instruction fetch, 3 escape and 4 flush
// skipped; address hexadecimal; size decimal bytes, 1 when absent). Blank lines are skipped.
class DinReader final : public TextReader {
public:
  using TextReader::TextReader;
  [[nodiscard]] TraceFormat format() const override { return TraceFormat::Din; }

private:
  void parse(std::string_view line, std::span<Access> buffer, std::size_t& count) override {
    Cursor cursor{line};
    cursor.skip_spaces();
    if (cursor.at_end()) return;
    const std::string_view label = cursor.token();
    if (label.size() != 1 || label[0] < '0' || label[0] > '4')
      fail(cursor, "expected a label 0 (read), 1 (write), 2 (instruction fetch), 3 or 4, found " + shown(label));
    ++cursor.position;
    if (label[0] == '3' || label[0] == '4') {
      ++skipped_;
      return;
    }
    Access access;
    access.kind = static_cast<AccessKind>(label[0] - '0');
    cursor.skip_spaces();
    const std::size_t address_start = cursor.position;
    if (!cursor.hex(access.address) || (!cursor.at_end() && !is_space(line[cursor.position]))) {
      cursor.position = address_start;
      fail(cursor, "expected a hexadecimal address, found " + shown(cursor.token()));
    }
    cursor.skip_spaces();
    if (!cursor.at_end()) {
      std::uint64_t size = 0;
      const std::size_t size_start = cursor.position;
      if (!cursor.count(size) || (!cursor.at_end() && !is_space(line[cursor.position]))) {
        cursor.position = size_start;
        fail(cursor, "expected a size in bytes (1 to 16383), found " + shown(cursor.token()));
      }
      access.size = static_cast<std::uint32_t>(size);
      cursor.skip_spaces();
      if (!cursor.at_end()) fail(cursor, "unexpected text after the size: " + shown(line.substr(cursor.position)));
    }
    push(access, buffer, count);
  }
};

// valgrind --tool=lackey --trace-mem=yes: "I  ADDRESS,SIZE", " L ADDRESS,SIZE", " S ...", " M ..." (a load
// then a store); valgrind's own "==PID==" lines and blank lines are skipped.
class LackeyReader final : public TextReader {
public:
  using TextReader::TextReader;
  [[nodiscard]] TraceFormat format() const override { return TraceFormat::Lackey; }

private:
  void parse(std::string_view line, std::span<Access> buffer, std::size_t& count) override {
    if (line.starts_with("==") || line.find_first_not_of(" \t") == std::string_view::npos) return;
    Cursor cursor{line};
    char kind = 0;
    if (line[0] == 'I') {
      kind = 'I';
    } else if (line.size() >= 2 && line[0] == ' ' && (line[1] == 'L' || line[1] == 'S' || line[1] == 'M')) {
      kind = line[1];
      cursor.position = 1;
    } else {
      fail(cursor, "expected 'I', ' L', ' S' or ' M' and ADDRESS,SIZE, found " + shown(line));
    }
    ++cursor.position;
    cursor.skip_spaces();
    Access access;
    const std::size_t address_start = cursor.position;
    if (!cursor.hex(access.address) || cursor.at_end() || line[cursor.position] != ',') {
      cursor.position = address_start;
      fail(cursor, "expected a hexadecimal address and ',', found " + shown(line.substr(address_start)));
    }
    ++cursor.position;
    std::uint64_t size = 0;
    const std::size_t size_start = cursor.position;
    if (!cursor.count(size)) {
      cursor.position = size_start;
      fail(cursor, "expected a size in bytes (1 to 16383), found " + shown(cursor.token()));
    }
    cursor.skip_spaces();
    if (!cursor.at_end()) fail(cursor, "unexpected text after the size: " + shown(line.substr(cursor.position)));
    access.size = static_cast<std::uint32_t>(size);
    if (kind == 'I') {
      access.kind = AccessKind::Instruction;
      push(access, buffer, count);
    } else if (kind == 'L') {
      push(access, buffer, count);
    } else if (kind == 'S') {
      access.kind = AccessKind::Write;
      push(access, buffer, count);
    } else {
      push(access, buffer, count);  // M: a load, then a store of the same bytes
      access.kind = AccessKind::Write;
      push(access, buffer, count);
    }
  }
};

// augur's binary format: the magic (already consumed), then little-endian 64-bit words.
class BinaryReader final : public TraceReader {
public:
  explicit BinaryReader(ChunkedInput input) : input_(std::move(input)) {}
  [[nodiscard]] TraceFormat format() const override { return TraceFormat::Augur; }
  [[nodiscard]] std::uint64_t skipped() const override { return 0; }

  std::size_t read(std::span<Access> buffer) override {
    std::size_t count = 0;
    while (count < buffer.size()) {
      const std::string_view bytes = input_.fill(8);
      if (bytes.empty()) break;
      if (bytes.size() < 8)
        input_.fail(0, 0, "record " + std::to_string(record_ + 1) + ": truncated (" + std::to_string(bytes.size()) + " of 8 bytes)");
      const std::size_t words = std::min(bytes.size() / 8, buffer.size() - count);
      const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
      for (std::size_t w = 0; w < words; ++w, data += 8) {
        std::uint64_t word = 0;
        for (int b = 7; b >= 0; --b) word = (word << 8) | data[b];
        ++record_;
        const Access access = unpack_access(word);
        if (word >> 62 == 3) input_.fail(0, 0, "record " + std::to_string(record_) + ": kind 3 is not an access kind (0 read, 1 write, 2 instruction)");
        if (access.size == 0) input_.fail(0, 0, "record " + std::to_string(record_) + ": size 0");
        buffer[count++] = access;
      }
      input_.consume(words * 8);
    }
    return count;
  }

private:
  ChunkedInput input_;
  std::uint64_t record_ = 0;
};

TraceFormat detect(ChunkedInput& input) {
  const std::string_view head = input.fill(sizeof trace_magic);
  if (head.substr(0, sizeof trace_magic) == std::string_view(trace_magic, sizeof trace_magic)) return TraceFormat::Augur;
  // The first line that is not valgrind's "==PID==" banner, from the first chunk.
  std::string_view text = input.fill(chunk_bytes);
  while (text.starts_with("==")) {
    const std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) return TraceFormat::Lackey;
    text.remove_prefix(newline + 1);
  }
  if (text.starts_with("I ") || text.starts_with(" L") || text.starts_with(" S") || text.starts_with(" M")) return TraceFormat::Lackey;
  return TraceFormat::Din;
}

}  // namespace

bool parse_trace_format(std::string_view word, TraceFormat& format) {
  if (word == "din") format = TraceFormat::Din;
  else if (word == "lackey") format = TraceFormat::Lackey;
  else if (word == "augur") format = TraceFormat::Augur;
  else if (word == "detect") format = TraceFormat::Detect;
  else return false;
  return true;
}

const char* trace_format_name(TraceFormat format) {
  switch (format) {
    case TraceFormat::Din: return "din";
    case TraceFormat::Lackey: return "lackey";
    case TraceFormat::Augur: return "augur";
    case TraceFormat::Detect: return "detect";
  }
  return "detect";
}

std::unique_ptr<TraceReader> open_trace(std::istream& input, const std::string& name, TraceFormat format) {
  ChunkedInput chunks(input, name);
  if (format == TraceFormat::Detect) format = detect(chunks);
  switch (format) {
    case TraceFormat::Augur: {
      const std::string_view head = chunks.fill(sizeof trace_magic);
      if (head.substr(0, sizeof trace_magic) != std::string_view(trace_magic, sizeof trace_magic))
        chunks.fail(0, 0, "not an augur binary trace: the first 8 bytes are not \"AUGURTR1\"");
      chunks.consume(sizeof trace_magic);
      return std::make_unique<BinaryReader>(std::move(chunks));
    }
    case TraceFormat::Lackey: return std::make_unique<LackeyReader>(std::move(chunks));
    case TraceFormat::Din:
    case TraceFormat::Detect: break;
  }
  return std::make_unique<DinReader>(std::move(chunks));
}

void append_binary_header(std::string& out) { out.append(trace_magic, sizeof trace_magic); }

void append_binary_access(std::string& out, const Access& access) {
  if (access.address >= (std::uint64_t{1} << 48)) throw std::invalid_argument("address at or above 2^48");
  if (access.size == 0 || access.size > 16383) throw std::invalid_argument("size outside 1..16383");
  std::uint64_t word = pack_access(access);
  for (int b = 0; b < 8; ++b, word >>= 8) out.push_back(static_cast<char>(word & 0xff));
}

}  // namespace augur::sim::cache
