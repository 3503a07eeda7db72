#include "view.hpp"

#include "augur/core/diagnostics.hpp"
#include "core/json_text.hpp"
#include "report/svg.hpp"

namespace augur::report {
namespace {

std::string where(const std::string& path) {
  return path.empty() ? "the top level" : path;
}

}  // namespace

void View::fail(const std::string& message) const {
  throw core::InputError({*file_, 0, 0}, message);
}

View View::operator[](std::string_view key) const {
  const std::string path = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  if (!value_->is_object()) fail(where(path_) + ": expected an object");
  const auto found = value_->find(key);
  if (found == value_->end()) fail("missing field " + path);
  return View(*found, *file_, path);
}

View View::operator[](std::size_t index) const {
  const std::string path = path_ + "[" + std::to_string(index) + "]";
  if (!value_->is_array()) fail(where(path_) + ": expected an array");
  if (index >= value_->size()) fail("missing field " + path);
  return View((*value_)[index], *file_, path);
}

std::optional<View> View::find(std::string_view key) const {
  if (!value_->is_object()) return std::nullopt;
  const auto found = value_->find(key);
  if (found == value_->end() || found->is_null()) return std::nullopt;
  return View(*found, *file_, path_.empty() ? std::string(key) : path_ + "." + std::string(key));
}

bool View::has(std::string_view key) const {
  return value_->is_object() && value_->contains(key);
}

std::size_t View::size() const {
  if (!value_->is_array()) fail(where(path_) + ": expected an array");
  return value_->size();
}

double View::number() const {
  if (!value_->is_number()) fail(where(path_) + ": expected a number");
  return value_->get<double>();
}

std::optional<double> View::maybe() const {
  if (value_->is_null()) return std::nullopt;
  return number();
}

std::string View::text() const {
  if (!value_->is_string()) fail(where(path_) + ": expected a string");
  return value_->get<std::string>();
}

bool View::boolean() const {
  if (!value_->is_boolean()) fail(where(path_) + ": expected true or false");
  return value_->get<bool>();
}

std::optional<double> View::maybe(std::string_view key) const {
  const auto member = find(key);
  if (!member) return std::nullopt;
  return member->number();
}

std::string View::text_or(std::string_view key, std::string fallback) const {
  if (!value_->is_object() || !value_->contains(key)) return fallback;
  return scalar_text(value_->at(std::string(key)));
}

std::string scalar_text(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number()) return format_number(value.get<double>());
  return core::json_text(value);
}

}  // namespace augur::report
