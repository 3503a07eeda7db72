#include "cache_machine.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "augur/core/diagnostics.hpp"

namespace augur::cli {
namespace {

std::string read_word(const std::filesystem::path& file) {
  std::ifstream input(file);
  std::string word;
  if (!(input >> word)) throw std::runtime_error(file.string() + ": cannot read");
  return word;
}

struct SysfsLevel {
  int level = 0;
  std::string type;
  std::string spec;
};

}  // namespace

std::vector<sim::cache::CacheSpec> machine_cache_levels(const std::string& folder) {
  std::vector<SysfsLevel> found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("index")) continue;
    SysfsLevel level;
    level.level = std::stoi(read_word(entry.path() / "level"));
    level.type = read_word(entry.path() / "type");
    const std::string ways = read_word(entry.path() / "ways_of_associativity");
    std::string label = "l" + std::to_string(level.level);
    if (level.type == "Data") label += "d";
    else if (level.type == "Instruction") label += "i";
    level.spec = label + ":size=" + read_word(entry.path() / "size") + ",assoc=" + (ways == "0" ? std::string("full") : ways) +
                 ",line=" + read_word(entry.path() / "coherency_line_size");
    found.push_back(level);
  }
  if (error || found.empty()) throw std::runtime_error(folder + ": no cache description (--machine needs Linux's sysfs)");
  // Instruction before data at level 1, then the levels in order.
  std::sort(found.begin(), found.end(), [](const SysfsLevel& a, const SysfsLevel& b) {
    return a.level != b.level ? a.level < b.level : a.type == "Instruction" && b.type != "Instruction";
  });
  std::vector<sim::cache::CacheSpec> levels;
  for (const SysfsLevel& level : found) levels.push_back(sim::cache::parse_cache_spec(level.spec, folder));
  return levels;
}

}  // namespace augur::cli
