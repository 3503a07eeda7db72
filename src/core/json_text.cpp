// JSON as augur writes it (core/json_text.hpp).
#include "core/json_text.hpp"

namespace augur::core {

std::string json_quoted(std::string_view text) {
  return json_text(nlohmann::json(std::string(text)));
}

std::string valid_utf8(std::string_view text) {
  // The literal json_quoted writes is valid JSON by construction: read back, it is the text repaired.
  return nlohmann::json::parse(json_quoted(text)).get<std::string>();
}

std::string describe_error(const std::exception& error) {
  const std::string message = error.what();
  if (dynamic_cast<const nlohmann::json::exception*>(&error) == nullptr) return message;
  const std::size_t tag_end = message.find("] ");  // after "[json.exception.type_error.316"
  return "JSON: " + valid_utf8(message.rfind("[json.exception.", 0) == 0 && tag_end != std::string::npos
                                   ? message.substr(tag_end + 2)
                                   : message);
}

}  // namespace augur::core
