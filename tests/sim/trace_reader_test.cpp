// The trace readers (docs/formats.md, "Cache traces"): din, lackey, augur binary; detection, chunks, errors.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "sim/cache/trace_reader.hpp"

namespace augur::sim::cache {
namespace {

std::vector<Access> read_all(const std::string& text, TraceFormat format = TraceFormat::Detect, TraceFormat* detected = nullptr,
                             std::size_t batch = 7) {
  std::istringstream input(text);
  const auto reader = open_trace(input, "t", format);
  if (detected != nullptr) *detected = reader->format();
  std::vector<Access> all;
  std::vector<Access> buffer(batch);
  for (std::size_t count = 0; (count = reader->read(buffer)) > 0;) all.insert(all.end(), buffer.begin(), buffer.begin() + static_cast<long>(count));
  return all;
}

std::string error_of(const std::string& text, TraceFormat format = TraceFormat::Detect) {
  try {
    (void)read_all(text, format);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

bool same(const Access& access, std::uint64_t address, std::uint32_t size, AccessKind kind) {
  return access.address == address && access.size == size && access.kind == kind;
}

TEST(TraceReader, Din) {
  TraceFormat detected = TraceFormat::Detect;
  const auto accesses = read_all("0 7ffc1000 8\n1 0x7FFC1008 4\r\n\n  2\t401000\n3 0\n4 0\n0 ffffffffffffffff 1", TraceFormat::Detect, &detected);
  EXPECT_EQ(detected, TraceFormat::Din);
  ASSERT_EQ(accesses.size(), 4U);
  EXPECT_TRUE(same(accesses[0], 0x7ffc1000, 8, AccessKind::Read));
  EXPECT_TRUE(same(accesses[1], 0x7ffc1008, 4, AccessKind::Write));
  EXPECT_TRUE(same(accesses[2], 0x401000, 1, AccessKind::Instruction));
  EXPECT_TRUE(same(accesses[3], 0xffffffffffffffffULL, 1, AccessKind::Read));
  std::istringstream input("3 0\n4 10\n0 10\n");
  const auto reader = open_trace(input, "t");
  std::vector<Access> buffer(4);
  EXPECT_EQ(reader->read(buffer), 1U);
  EXPECT_EQ(reader->skipped(), 2U);
}

TEST(TraceReader, DinErrorsAtLineAndColumn) {
  EXPECT_EQ(error_of("0 10\n0 zz\n"), "t:2:3: expected a hexadecimal address, found 'zz'");
  EXPECT_EQ(error_of("0 10\n7 10\n"), "t:2:1: expected a label 0 (read), 1 (write), 2 (instruction fetch), 3 or 4, found '7'");
  EXPECT_EQ(error_of("0 10 0\n"), "t:1:6: expected a size in bytes (1 to 16383), found '0'");
  EXPECT_EQ(error_of("0 10 16384\n"), "t:1:6: expected a size in bytes (1 to 16383), found '16384'");
  EXPECT_EQ(read_all("0 10 16383\n").at(0).size, 16383U);
  EXPECT_EQ(error_of("0 10 4 x\n"), "t:1:8: unexpected text after the size: 'x'");
  EXPECT_EQ(error_of("0 12345678901234567\n"), "t:1:3: expected a hexadecimal address, found '12345678901234567'");
  EXPECT_EQ(error_of("1\n"), "t:1:2: expected a hexadecimal address, found ''");
}

TEST(TraceReader, Lackey) {
  const std::string text =
      "==4242== Lackey, an example Valgrind tool\n"
      "==4242== \n"
      "I  0400d7d4,8\n"
      " S 7feff7b98,8\n"
      " L 04225f50,4\n"
      " M 0422a070,4\n"
      "\n";
  TraceFormat detected = TraceFormat::Detect;
  for (std::size_t batch : {1U, 2U, 7U}) {  // M's second access crosses a batch when the batch is 1 or 2
    const auto accesses = read_all(text, TraceFormat::Detect, &detected, batch);
    EXPECT_EQ(detected, TraceFormat::Lackey);
    ASSERT_EQ(accesses.size(), 5U);
    EXPECT_TRUE(same(accesses[0], 0x0400d7d4, 8, AccessKind::Instruction));
    EXPECT_TRUE(same(accesses[1], 0x7feff7b98, 8, AccessKind::Write));
    EXPECT_TRUE(same(accesses[2], 0x04225f50, 4, AccessKind::Read));
    EXPECT_TRUE(same(accesses[3], 0x0422a070, 4, AccessKind::Read));
    EXPECT_TRUE(same(accesses[4], 0x0422a070, 4, AccessKind::Write));
  }
}

TEST(TraceReader, LackeyErrors) {
  EXPECT_EQ(error_of("I  0400d7d4,8\n X 10,4\n"), "t:2:1: expected 'I', ' L', ' S' or ' M' and ADDRESS,SIZE, found ' X 10,4'");
  EXPECT_EQ(error_of("I  0400d7d4,8\n L 10;4\n"), "t:2:4: expected a hexadecimal address and ',', found '10;4'");
  EXPECT_EQ(error_of("I  0400d7d4,8\n L 10,\n"), "t:2:7: expected a size in bytes (1 to 16383), found ''");
  EXPECT_EQ(error_of("0 10\n", TraceFormat::Lackey), "t:1:1: expected 'I', ' L', ' S' or ' M' and ADDRESS,SIZE, found '0 10'");
}

TEST(TraceReader, AugurBinaryRoundTrip) {
  std::string text;
  append_binary_header(text);
  const std::vector<Access> written = {{0x1000, 8, AccessKind::Read}, {0xffffffffffffULL, 16383, AccessKind::Write}, {0x40, 1, AccessKind::Instruction}};
  for (const Access& access : written) append_binary_access(text, access);
  TraceFormat detected = TraceFormat::Detect;
  const auto accesses = read_all(text, TraceFormat::Detect, &detected, 2);
  EXPECT_EQ(detected, TraceFormat::Augur);
  ASSERT_EQ(accesses.size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(same(accesses[i], written[i].address, written[i].size, written[i].kind)) << i;
  EXPECT_THROW(append_binary_access(text, {std::uint64_t{1} << 48, 1, AccessKind::Read}), std::invalid_argument);
  EXPECT_THROW(append_binary_access(text, {0, 0, AccessKind::Read}), std::invalid_argument);
}

TEST(TraceReader, AugurBinaryErrors) {
  std::string text;
  append_binary_header(text);
  append_binary_access(text, {0x1000, 8, AccessKind::Read});
  EXPECT_EQ(error_of(text + "abc"), "t: record 2: truncated (3 of 8 bytes)");
  std::string kind3 = text + std::string("\x01\0\0\0\0\0\x01\xc0", 8);
  EXPECT_EQ(error_of(kind3), "t: record 2: kind 3 is not an access kind (0 read, 1 write, 2 instruction)");
  EXPECT_EQ(error_of(text + std::string(8, '\0')), "t: record 2: size 0");
  EXPECT_EQ(error_of("0 10\n", TraceFormat::Augur), "t: not an augur binary trace: the first 8 bytes are not \"AUGURTR1\"");
}

TEST(TraceReader, StreamsAcrossChunks) {
  // 300000 lines (about 3 MB) cross the megabyte chunks; every access and the line of a late error survive.
  std::string text;
  for (int i = 0; i < 300000; ++i) text += "0 " + std::to_string(1000000 + i) + " 4\n";
  const auto accesses = read_all(text, TraceFormat::Detect, nullptr, 4096);
  ASSERT_EQ(accesses.size(), 300000U);
  EXPECT_EQ(accesses[123456].address, 0x1123456U);
  EXPECT_EQ(error_of(text + "0 10 4\n9 10\n"), "t:300002:1: expected a label 0 (read), 1 (write), 2 (instruction fetch), 3 or 4, found '9'");
  EXPECT_EQ(error_of(std::string(2 << 20, '0')), "t:1:1: a line longer than 1 MiB");
}

TEST(TraceReader, FormatNames) {
  TraceFormat format = TraceFormat::Detect;
  EXPECT_TRUE(parse_trace_format("lackey", format));
  EXPECT_EQ(format, TraceFormat::Lackey);
  EXPECT_FALSE(parse_trace_format("pin", format));
  EXPECT_STREQ(trace_format_name(TraceFormat::Augur), "augur");
}

}  // namespace
}  // namespace augur::sim::cache
