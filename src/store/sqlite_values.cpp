// The values of the SQLite performance store (sqlite_store_internal.hpp): chains, samples and options in
// their stored text forms and back (a malformed one is a Corrupt database), the machine of a row, the
// parameters of a RunFilter.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/json_text.hpp"
#include "sqlite_store_internal.hpp"

namespace augur::store::sqlite {

using Json = nlohmann::json;

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

std::string chain_text(const std::vector<int>& chain) {
  std::string text;
  for (const int kernel : chain) text += (text.empty() ? "" : ",") + std::to_string(kernel);
  return text;
}

std::vector<int> parse_chain(const std::string& text, const std::string& path) {
  std::vector<int> chain;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    try {
      std::size_t used = 0;
      const int value = std::stoi(part, &used);
      if (used != part.size() || value < 0) throw std::invalid_argument(part);
      chain.push_back(value);
    } catch (const std::exception&) {
      throw StoreError(ErrorKind::Corrupt, path + ": the database holds a malformed chain '" + text + "'");
    }
    start = comma + 1;
  }
  return chain;
}

std::string samples_text(const std::vector<double>& samples) {
  return core::json_text(Json(samples));
}

std::vector<double> parse_samples(const std::string& text, const std::string& path) {
  std::vector<double> samples;
  try {
    const Json json = Json::parse(text);
    for (const Json& value : json) samples.push_back(value.is_null() ? std::nan("") : value.get<double>());
  } catch (const std::exception&) {
    throw StoreError(ErrorKind::Corrupt, path + ": the database holds malformed samples '" + text + "'");
  }
  return samples;
}

std::string options_text(const std::map<std::string, std::string>& options) {
  return core::json_text(Json(options));
}

std::map<std::string, std::string> parse_options(const std::string& text, const std::string& path) {
  try {
    return Json::parse(text).get<std::map<std::string, std::string>>();
  } catch (const std::exception&) {
    throw StoreError(ErrorKind::Corrupt, path + ": the database holds malformed options '" + text + "'");
  }
}

std::string kernel_list(const std::vector<coupling::Kernel>& kernels) {
  std::string text;
  for (const coupling::Kernel& kernel : kernels) {
    text += (text.empty() ? "" : ", ") + kernel.name;
    if (kernel.calls != 1) text += " ×" + std::to_string(kernel.calls);
  }
  return text;
}

coupling::Machine read_machine(const Statement& select, int first) {
  coupling::Machine machine;
  machine.hostname = select.text(first);
  machine.cpu_model = select.text(first + 1);
  machine.cores = static_cast<int>(select.integer(first + 2));
  machine.l1d_bytes = select.integer(first + 3);
  machine.l2_bytes = select.integer(first + 4);
  machine.l3_bytes = select.integer(first + 5);
  machine.memory_bytes = select.integer(first + 6);
  return machine;
}

void bind_filter(Statement& statement, const RunFilter& filter) {
  const auto text = [&](int index, const std::string& value) {
    if (value.empty()) {
      statement.bind_null(index);
    } else {
      statement.bind(index, value);
    }
  };
  text(1, filter.application);
  text(2, filter.machine_class);
  text(3, filter.dataset);
  if (filter.processors) {
    statement.bind(4, *filter.processors);
  } else {
    statement.bind_null(4);
  }
}

}  // namespace augur::store::sqlite
