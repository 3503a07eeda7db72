// A job's speedup curve from the JSON of `augur speedup --json` or of a self-analysis report
// (`augur run --json`, AUGUR_REPORT): docs/formats.md, "Manager workloads".
#include <algorithm>
#include <nlohmann/json.hpp>

#include "augur/core/diagnostics.hpp"
#include "manager/workload.hpp"

namespace augur::manager {

namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& file, const std::string& message) {
  throw core::InputError({file, 0, 0}, message);
}

bool usable(double speedup) { return speedup >= min_speedup && speedup <= max_speedup; }

// `augur speedup --json`: points[] with p and the self-analyzer's sa_n, or the traditional ts.
bool read_points(const json& document, SpeedupCurve& curve) {
  if (!document.contains("points") || !document["points"].is_array()) return false;
  for (const json& point : document["points"]) {
    if (!point.is_object() || !point.contains("p") || !point["p"].is_number_integer()) continue;
    const json* value = nullptr;
    for (const char* key : {"sa_n", "ts"}) {
      if (point.contains(key) && point[key].is_number()) {
        value = &point[key];
        break;
      }
    }
    const int processors = point["p"].get<int>();
    if (value != nullptr && processors >= 1 && usable(value->get<double>())) curve.points.emplace_back(processors, value->get<double>());
  }
  return true;
}

// A self-analysis report: the first region with speedup entries in state PC (value).
bool read_report(const json& document, SpeedupCurve& curve) {
  if (!document.contains("regions") || !document["regions"].is_array()) return false;
  for (const json& region : document["regions"]) {
    if (!region.is_object() || !region.contains("speedup") || !region["speedup"].is_array()) continue;
    for (const json& entry : region["speedup"]) {
      if (!entry.is_object() || entry.value("state", std::string()) != "PC") continue;
      if (!entry.contains("p") || !entry["p"].is_number_integer() || !entry.contains("value") || !entry["value"].is_number()) continue;
      const int processors = entry["p"].get<int>();
      if (processors >= 1 && usable(entry["value"].get<double>())) curve.points.emplace_back(processors, entry["value"].get<double>());
    }
    if (!curve.points.empty()) return true;
  }
  return true;
}

}  // namespace

SpeedupCurve parse_speedup_json(std::string_view text, const std::string& file) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& error) {
    const std::size_t at = error.byte > 0 ? error.byte - 1 : 0;
    throw core::InputError(core::locate_offset(file, std::string(text), std::min(at, text.size())), "malformed JSON");
  } catch (const json::exception& error) {
    // A number beyond double's range ("[json.exception.out_of_range.406] number overflow parsing '1e999'").
    const std::string message = error.what();
    const auto words = message.find("] ");
    throw core::InputError({file, 0, 0}, "malformed JSON: " + (words == std::string::npos ? message : message.substr(words + 2)));
  }
  SpeedupCurve curve;
  curve.kind = SpeedupCurve::Kind::table;
  curve.source = file;
  if (!document.is_object() || !(read_points(document, curve) || read_report(document, curve))) {
    fail(file, "neither the JSON of augur speedup (points) nor a self-analysis report (regions)");
  }
  if (curve.points.empty()) fail(file, "no calculated speedup in it");
  std::sort(curve.points.begin(), curve.points.end());
  std::vector<std::pair<int, double>> unique;
  for (const auto& point : curve.points) {
    if (unique.empty() || unique.back().first != point.first) unique.push_back(point);
  }
  curve.points = std::move(unique);
  if (curve.points.front().first != 1) curve.points.insert(curve.points.begin(), {1, 1.0});
  return curve;
}

}  // namespace augur::manager
