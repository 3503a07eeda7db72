// bench_outer_region's command line (outer_region_accuracy.cpp): its settings, their parser (`--help` prints the
// usage and exits 0, a bad option or value exits 2 before any run) and the programs they choose: the
// repository's outer-region examples and, under AUGUR_NPB_DIR, NPB-CPP's SP, BT, LU, CG and MG.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "bench_arguments.hpp"
#include "outer_region_runs.hpp"

namespace augur::bench {

inline constexpr const char* outer_region_usage =
    "usage: bench_outer_region [--runs K] [--rounds R] [--disturbed D] [--only TEXT] [--env KEY=VALUE]... [--split] [--quick]";

struct Settings {
  int runs = 20;
  int rounds = 5;
  int disturbed = 5;
  std::string only;
  bool quick = false;
  bool split = false;  // --split: the accuracy rounds' runs traced, and the first estimate's error split
  // --env KEY=VALUE: set for every run, under augur run and alone alike (a protocol such as pinning,
  // OMP_PROC_BIND=true OMP_PLACES=cores, tried on both sides of the comparison).
  std::vector<std::pair<std::string, std::string>> environment;
};

// The repository's examples (gcc, and clang where built) and the NPB programs under AUGUR_NPB_DIR.
inline std::vector<Program> programs(const Settings& settings) {
  const fs::path bin = AUGUR_BIN_DIR;
  // The examples' time steps are their last argument.
  std::vector<std::pair<std::string, std::vector<std::string>>> examples{{"outer_region", {"200000", "2000"}},
                                                                         {"adi_sweep", {"40", "200"}},
                                                                         {"cg_steps", {"192", "60"}},
                                                                         {"outer_race", {"16384", "4000"}}};
  if (settings.quick) examples = {{"outer_region", {"200000", "300"}}};
  // NPB-CPP's time steps (its class tables): SP.W 400, BT.W 200, LU.W 300, CG.A 15 (of 25 CG iterations), MG.B 20.
  const std::map<std::string, long> npb_steps{{"sp.W", 400}, {"bt.W", 200}, {"lu.W", 300}, {"cg.A", 15}, {"mg.B", 20},
                                              {"sp.A", 400}, {"bt.A", 200}, {"lu.A", 250}, {"cg.W", 15}, {"mg.W", 40}};
  std::vector<Program> list;
  for (const auto& [name, arguments] : examples) {
    for (const std::string compiler : {"gcc", "clang"}) {
      const fs::path program = bin / (compiler == "gcc" ? name : name + "-clang");
      if (!fs::exists(program)) continue;
      std::vector<std::string> argv{program.string()};
      argv.insert(argv.end(), arguments.begin(), arguments.end());
      list.push_back({compiler + " " + name, argv, std::stol(arguments.back()), {}});
    }
  }
  const char* npb = std::getenv("AUGUR_NPB_DIR");
  if (npb != nullptr && *npb != '\0' && !settings.quick) {
    const std::regex name("(sp|bt|lu|cg|mg)\\.[SWABC]");
    for (const std::string folder : {"gcc/bin", "clang/bin", "bin", ""}) {
      const fs::path where = fs::path(npb) / folder;
      if (!fs::is_directory(where)) continue;
      std::vector<fs::path> found;
      for (const auto& entry : fs::directory_iterator(where)) {
        if (entry.is_regular_file() && std::regex_match(entry.path().filename().string(), name))
          found.push_back(entry.path());
      }
      std::sort(found.begin(), found.end());
      const std::string compiler = folder.empty() || folder == "bin" ? "npb" : folder.substr(0, folder.find('/'));
      for (const fs::path& path : found) {
        const auto steps = npb_steps.find(path.filename().string());
        list.push_back({compiler + " NPB " + path.filename().string(), {path.string()}, steps == npb_steps.end() ? 0 : steps->second, {}, true});
      }
    }
  }
  std::vector<Program> chosen;
  for (const Program& program : list) {
    if (program.label.find(settings.only) != std::string::npos) chosen.push_back(program);
  }
  for (Program& program : chosen) {
    program.environment = settings.environment;
  }
  return chosen;
}

inline int parse(const char* value, const char* name, int low) {
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (end == value || *end != '\0' || parsed < low || parsed > 10000) {
    std::fprintf(stderr, "bench_outer_region: %s must be an integer between %d and 10000, got '%s'\n", name, low,
                 value);
    std::exit(2);
  }
  return static_cast<int>(parsed);
}

inline Settings parse_options(int argc, char** argv) {
  check_arguments(argc, argv, outer_region_usage,
                  {"--runs K", "--rounds R", "--disturbed D", "--only TEXT", "--env KEY=VALUE", "--split", "--quick"});
  Settings settings;
  for (int index = 1; index < argc; ++index) {
    const std::string option = argv[index];
    if (option == "--quick") {
      settings.quick = true;
      settings.runs = 2;
      settings.rounds = 1;
      settings.disturbed = 1;
      continue;
    }
    if (option == "--split") {
      settings.split = true;
      continue;
    }
    if (index + 1 >= argc ||
        (option != "--runs" && option != "--rounds" && option != "--disturbed" && option != "--only" && option != "--env")) {
      std::fprintf(stderr, "bench_outer_region: unknown option or missing value: '%s'\n%s\n", option.c_str(), outer_region_usage);
      std::exit(2);
    }
    const char* value = argv[++index];
    if (option == "--runs") settings.runs = parse(value, "--runs", 1);
    if (option == "--rounds") settings.rounds = parse(value, "--rounds", 1);
    if (option == "--disturbed") settings.disturbed = parse(value, "--disturbed", 0);
    if (option == "--only") settings.only = value;
    if (option == "--env") {
      const std::string pair = value;
      const std::size_t equals = pair.find('=');
      if (equals == 0 || equals == std::string::npos) {
        std::fprintf(stderr, "bench_outer_region: --env takes KEY=VALUE, got '%s'\n", value);
        std::exit(2);
      }
      settings.environment.emplace_back(pair.substr(0, equals), pair.substr(equals + 1));
    }
  }
  return settings;
}

}  // namespace augur::bench
