// The tool channel AUGUR_TOOL_OPTIONS written back: regressions found by fuzz/options_fuzz.cpp.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/options.hpp"

namespace {

using augur::runtime::parse_tool_options;
using augur::runtime::tool_options;

// An escaped ';' or '\' in a key was written back unescaped, and the text no longer parsed.
TEST(ToolChannel, WhatParsesIsWrittenBackAndParsesTheSame) {
  for (const std::string channel : {"report\\;x=a\\;b;summary=yes", "a\\\\b=1", "k\\=v=w", "x=\\;"}) {
    const auto pairs = parse_tool_options(channel);
    ASSERT_TRUE(pairs.has_value()) << channel;
    const std::string written = tool_options(*pairs);
    EXPECT_EQ(parse_tool_options(written), pairs) << channel << " written as " << written;
  }
  const std::vector<std::pair<std::string, std::string>> key_with_separator{{"a;b", "c"}};
  EXPECT_EQ(tool_options(key_with_separator), "a\\;b=c");
}

}  // namespace
