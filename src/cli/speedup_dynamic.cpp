// augur speedup on an unmodified OpenMP program (speedup_dynamic.hpp). Guide: docs/speedup.md.
#include "speedup_dynamic.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
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

void stable_region_ids(selfanalysis::Report& report, const fs::path& info) {
  const nlohmann::json document = nlohmann::json::parse(core::read_file(info.string()), nullptr, false);
  if (!document.is_object() || !document.contains("regions") || !document["regions"].is_array()) return;
  for (selfanalysis::ReportRegion& region : report.regions) {
    for (const nlohmann::json& entry : document["regions"]) {
      if (!entry.is_object() || entry.value("id", std::uint64_t{0}) != region.id || !entry.contains("loops") ||
          !entry["loops"].is_array() || entry["loops"].empty() || !entry["loops"][0].value("offset", nlohmann::json()).is_string())
        continue;
      const std::string offset = entry["loops"][0]["offset"].get<std::string>();
      char* end = nullptr;
      const unsigned long long value = std::strtoull(offset.c_str(), &end, 16);  // "0x2a30"
      if (end != offset.c_str() && *end == '\0') region.id = value;
      break;
    }
  }
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
         "): the program is not linked with libaugur; a region's id is the offset of its first loop in its module";
  tool = std::move(chosen);
  return 0;
}

}  // namespace augur::cli
