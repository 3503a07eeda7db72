// augur speedup on an unmodified OpenMP program (speedup_dynamic.hpp). Guide: docs/speedup.md.
#include "speedup_dynamic.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "core/files.hpp"

namespace augur::cli {

namespace fs = std::filesystem;

// The report's regions are read in the order of its "regions" array.
std::string region_kind(const std::string& text, const selfanalysis::Report& report, const SpeedupOptions& options) {
  const selfanalysis::ReportRegion* region = options.region ? report.region(*options.region) : report.main_region();
  if (region == nullptr) return "";
  const auto index = static_cast<std::size_t>(region - report.regions.data());
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (!document.is_object() || !document.contains("regions") || !document["regions"].is_array() ||
      document["regions"].size() != report.regions.size())
    return "loops";
  const nlohmann::json& entry = document["regions"][index];
  return entry.is_object() && entry.contains("kind") && entry["kind"].is_string() ? entry["kind"].get<std::string>()
                                                                                 : "loops";
}

namespace {

// A hexadecimal address or offset of the interposition file ("0x2a30"), or nothing.
std::optional<std::uint64_t> hexadecimal(const nlohmann::json& value) {
  if (!value.is_string()) return std::nullopt;
  const std::string text = value.get<std::string>();
  char* end = nullptr;
  const unsigned long long number = std::strtoull(text.c_str(), &end, 16);
  if (end == text.c_str() || *end != '\0') return std::nullopt;
  return static_cast<std::uint64_t>(number);
}

// The offset of the code at `place` ({"address", "offset", ...}) when its address is `id`.
std::optional<std::uint64_t> offset_of(const nlohmann::json& place, std::uint64_t id) {
  if (!place.is_object() || hexadecimal(place.value("address", nlohmann::json())) != id) return std::nullopt;
  return hexadecimal(place.value("offset", nlohmann::json()));
}

}  // namespace

void stable_region_ids(selfanalysis::Report& report, const fs::path& info) {
  const nlohmann::json document = nlohmann::json::parse(core::read_file(info.string()), nullptr, false);
  if (!document.is_object()) return;
  for (selfanalysis::ReportRegion& region : report.regions) {
    std::optional<std::uint64_t> offset;
    // A parallel-for region: the address of its first loop; an outer region: that of its parallel region.
    if (document.contains("regions") && document["regions"].is_array()) {
      for (const nlohmann::json& entry : document["regions"]) {
        if (offset || !entry.is_object() || !entry.contains("loops") || !entry["loops"].is_array() || entry["loops"].empty())
          continue;
        offset = offset_of(entry["loops"][0], region.id);
      }
    }
    if (!offset && document.contains("worksharing") && document["worksharing"].is_object())
      offset = offset_of(document["worksharing"].value("region", nlohmann::json()), region.id);
    if (offset) region.id = *offset;
  }
}

bool add_timed_outer_region(selfanalysis::Report& report, const fs::path& info) {
  if (!report.regions.empty()) return false;
  const nlohmann::json document = nlohmann::json::parse(core::read_file(info.string()), nullptr, false);
  if (!document.is_object() || !document.contains("worksharing") || !document["worksharing"].is_object()) return false;
  const nlohmann::json& worksharing = document["worksharing"];
  const std::optional<std::uint64_t> offset =
      hexadecimal(worksharing.value("region", nlohmann::json::object()).value("offset", nlohmann::json()));
  const nlohmann::json iterations = worksharing.value("iterations", nlohmann::json());
  const nlohmann::json median = worksharing.value("iteration_time_median_s", nlohmann::json());
  const nlohmann::json length = worksharing.value("length", nlohmann::json());
  if (!worksharing.value("found", false) || !offset || !iterations.is_number_integer() || !median.is_number() ||
      !length.is_number_integer() || iterations.get<long>() <= 0 || !(median.get<double>() > 0.0))
    return false;
  selfanalysis::ReportRegion region;
  region.id = *offset;
  region.length = length.get<int>();
  region.iterations = iterations.get<long>();
  region.elapsed = median.get<double>() * static_cast<double>(region.iterations);
  report.regions.push_back(std::move(region));
  return true;
}

int choose_instrumentation(const std::string& program, std::optional<Interposition>& tool, std::string& note) {
  if (program.empty() || ::access(program.c_str(), X_OK) != 0) return 0;  // run_process says why
  const Linkage linkage = inspect_linkage(program);
  if (linkage.libaugur) {
    note = "instrumentation: static (the program is linked with libaugur)";
    return 0;
  }
  if (linkage.runtime != OpenMpRuntime::Gomp && linkage.runtime != OpenMpRuntime::LlvmOmp) return 0;
  Interposition chosen;
  if (const int refused = choose_interposition("augur speedup", program, linkage.runtime, linkage.detail, "", false, chosen);
      refused != 0)
    return refused;
  note = "instrumentation: dynamic (" + chosen.name() + ", " + chosen.runtime_name() +
         "): the program is not linked with libaugur; a region's id is the offset in its module of its first loop "
         "(of its parallel region for an outer region)";
  tool = std::move(chosen);
  return 0;
}

}  // namespace augur::cli
