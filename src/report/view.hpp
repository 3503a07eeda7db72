// A read-only view of a JSON value with its path ("regions[0].speedup[1].value") and file, for the page
// builders: a required field that is missing, or of the wrong type, is a core::InputError naming the path.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace augur::report {

class View {
 public:
  View(const nlohmann::ordered_json& value, const std::string& file, std::string path = "")
      : value_(&value), file_(&file), path_(std::move(path)) {}

  [[nodiscard]] View operator[](std::string_view key) const;   // required member of an object
  [[nodiscard]] View operator[](std::size_t index) const;      // element of an array
  [[nodiscard]] std::optional<View> find(std::string_view key) const;  // member, if present and not null
  [[nodiscard]] bool has(std::string_view key) const;
  [[nodiscard]] std::size_t size() const;  // of an array (required to be one)
  [[nodiscard]] bool is_null() const { return value_->is_null(); }
  [[nodiscard]] bool is_object() const { return value_->is_object(); }
  [[nodiscard]] bool is_array() const { return value_->is_array(); }
  [[nodiscard]] bool is_number() const { return value_->is_number(); }

  [[nodiscard]] double number() const;                 // required number
  [[nodiscard]] std::optional<double> maybe() const;   // number, or null (nullopt)
  [[nodiscard]] std::string text() const;              // required string
  [[nodiscard]] bool boolean() const;
  // Number of a member that may be absent or null.
  [[nodiscard]] std::optional<double> maybe(std::string_view key) const;
  // Text of a member that may be absent (numbers written as numbers, null as "-").
  [[nodiscard]] std::string text_or(std::string_view key, std::string fallback) const;

  [[nodiscard]] const nlohmann::ordered_json& json() const { return *value_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& message) const;

 private:
  const nlohmann::ordered_json* value_;
  const std::string* file_;
  std::string path_;
};

// A scalar JSON value as text ("-" for null; numbers with format_number; objects and arrays compact).
[[nodiscard]] std::string scalar_text(const nlohmann::ordered_json& value);

}  // namespace augur::report
