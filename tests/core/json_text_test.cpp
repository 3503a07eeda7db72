// Issue 15, item 12: JSON is written with U+FFFD in place of bytes that are not UTF-8, by one helper that
// every writer uses, and nlohmann's own exception text never reaches a user.
#include "core/json_text.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace augur::core {
namespace {

const std::string replacement = "\xef\xbf\xbd";  // U+FFFD in UTF-8

TEST(JsonText, ReplacesBytesThatAreNotUtf8) {
  const nlohmann::json value = {{"program", "/tmp/caf\xe9/a.out"}};
  EXPECT_THROW((void)value.dump(), nlohmann::json::type_error) << "what the default does";
  EXPECT_EQ(json_text(value), "{\"program\":\"/tmp/caf" + replacement + "/a.out\"}");
  nlohmann::ordered_json ordered;
  ordered["b"] = "\xff";
  ordered["a"] = "ok \xe2\x82\xac";  // valid UTF-8 (the euro sign) is kept
  EXPECT_EQ(json_text(ordered, 1), "{\n \"b\": \"" + replacement + "\",\n \"a\": \"ok \xe2\x82\xac\"\n}");
  EXPECT_EQ(json_quoted("q\"\\\n\x01\xc3"), "\"q\\\"\\\\\\n\\u0001" + replacement + "\"");
  EXPECT_EQ(valid_utf8("a\xff\tb\xe2\x82\xac"), "a" + replacement + "\tb\xe2\x82\xac");
  EXPECT_EQ(valid_utf8(""), "");
}

TEST(JsonText, DescribesLibraryErrorsWithoutTheirTag) {
  try {
    (void)nlohmann::json("\xff").dump();
    FAIL() << "dump() accepted invalid UTF-8";
  } catch (const std::exception& error) {
    const std::string message = describe_error(error);
    EXPECT_EQ(message.rfind("JSON: ", 0), 0U) << message;
    EXPECT_EQ(message.find("[json.exception"), std::string::npos) << message;
    EXPECT_EQ(json_quoted(message).find(replacement), std::string::npos) << "the message is valid UTF-8";
  }
  EXPECT_EQ(describe_error(std::runtime_error("data.csv:1:2: bad")), "data.csv:1:2: bad");
}

// Every JSON writer goes through json_text: no nlohmann dump() in the sources but the helper's own.
TEST(JsonText, EveryWriterOfTheSourcesUsesTheHelper) {
  const std::filesystem::path sources = std::filesystem::path(AUGUR_SOURCE_DIR) / "src";
  std::string offenders;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(sources)) {
    if (!entry.is_regular_file() || entry.path().filename() == "json_text.hpp") continue;
    const std::string extension = entry.path().extension().string();
    if (extension != ".cpp" && extension != ".hpp" && extension != ".h") continue;
    std::ifstream stream(entry.path());
    const std::string text{std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
    if (text.find(".dump(") != std::string::npos) offenders += " " + entry.path().lexically_relative(sources).string();
  }
  EXPECT_EQ(offenders, "") << "use core::json_text (src/core/json_text.hpp) instead of dump()";
}

}  // namespace
}  // namespace augur::core
