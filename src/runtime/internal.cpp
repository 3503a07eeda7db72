// What the parts of libaugur share (internal.hpp): the warning channel, the clock, paths, and the settings
// with augur_set_option. Every function here may be called from any thread.
#include "internal.hpp"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "augur/augur.h"
#include "options.hpp"
#include "run_trace.hpp"

extern char** environ;

namespace augur::runtime {

// One fprintf per message: stdio locks the stream, so lines of several threads never mix.
void warn(const std::string& message) {
  std::fprintf(stderr, "augur: %s\n", message.c_str());
}

double monotonic_seconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

std::string expand_path(const std::string& pattern) {
  std::string path;
  for (std::size_t index = 0; index < pattern.size(); ++index) {
    const char next = index + 1 < pattern.size() ? pattern[index + 1] : '\0';
    if (pattern[index] == '%' && next == 'p') {
      path += std::to_string(::getpid());
      ++index;
    } else if (pattern[index] == '%' && next == 'n') {
      path += program_invocation_short_name;
      ++index;
    } else {
      path += pattern[index];
    }
  }
  return path;
}

namespace {

// The settings and the options given through augur_set_option before them, under `mutex`. Never
// destroyed: threads may still ask for the settings while the program exits.
struct SettingsStore {
  std::mutex mutex;
  std::vector<std::pair<std::string, std::string>> api_options;
  Settings settings;
  bool loaded = false;
};

SettingsStore& settings_store() {
  static SettingsStore* store = new SettingsStore;
  return *store;
}

const char* tool_channel() {
  return std::getenv(std::string(tool_channel_variable).c_str());
}

}  // namespace

void check_environment_once() {
  static std::mutex mutex;
  static bool checked = false;
  std::lock_guard lock(mutex);
  if (checked) return;
  checked = true;
  std::vector<std::string> warnings;
  check_variables(variable_names(environ), tool_channel(), warnings);
  for (const std::string& warning : warnings) warn(warning);
}

const Settings& settings() {
  SettingsStore& store = settings_store();
  std::lock_guard lock(store.mutex);  // the first use may come from any thread
  if (store.loaded) return store.settings;
  store.loaded = true;
  check_environment_once();
  OptionSources sources;
  sources.environment = [](const char* name) -> const char* { return std::getenv(name); };
  sources.api = store.api_options;
  sources.tool_channel = tool_channel();
  std::vector<std::string> warnings;
  store.settings = settings_from(resolve_options(runtime_option_set(), sources, warnings));
  for (const std::string& warning : warnings) warn(warning);
  start_run_trace(store.settings.trace);
  return store.settings;
}

}  // namespace augur::runtime

extern "C" int augur_set_option(const char* key, const char* value) {
  using namespace augur::runtime;
  try {
    if (key == nullptr || value == nullptr) {
      warn("augur_set_option(): key and value must not be NULL; ignored");
      return AUGUR_ERROR;
    }
    SettingsStore& store = settings_store();
    std::lock_guard lock(store.mutex);
    if (store.loaded) {
      warn(std::string("augur_set_option(") + key +
           "): options take effect at augur's first use (a region, an "
           "experiment instance, a report or a trace), and it has happened; ignored");
      return AUGUR_ERROR;
    }
    Settings probe;
    if (auto error = apply_option(probe, key, value)) {
      warn(std::string("augur_set_option(") + key + "): " + *error + "; ignored");
      return AUGUR_ERROR;
    }
    store.api_options.emplace_back(key, value);
    return AUGUR_OK;
  } catch (const std::exception& error) {
    warn(std::string("augur_set_option(): ") + error.what());
    return AUGUR_ERROR;
  }
}
