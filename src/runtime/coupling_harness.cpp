// The kernel coupling harness (include/augur/coupling.h; seed 002; docs/coupling.md): the C API that
// declares an application (its kernels, hooks, problem, options and communicator) and measures it
// (coupling_measure.cpp times the kernels and chains and writes the measurement file). Nothing throws
// across the C ABI.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>

#include "augur/coupling.h"
#include "core/json_text.hpp"
#include "coupling_app.hpp"
#include "internal.hpp"
#include "options.hpp"

namespace {

using augur::runtime::KernelEntry;
using augur::runtime::warn;

// Empty when `value` is valid for the option with API key `key`, else why not (the registry's check).
std::string check_option(const std::string& key, const std::string& value) {
  augur::runtime::OptionValues probe(augur::runtime::coupling_option_set());
  return probe.set_value(key, value).value_or("");
}

bool valid_name(const char* name) { return name != nullptr && name[0] != '\0' && std::strchr(name, '\n') == nullptr; }

// The application's lock; not held (with a message) in the unlikely case the system refuses it.
std::unique_lock<std::recursive_mutex> lock_application(augur_coupling_app& app) noexcept {
  try {
    return std::unique_lock(app.mutex);
  } catch (...) {
    std::fputs("augur: coupling: cannot lock the application; call ignored\n", stderr);
    return {};
  }
}

}  // namespace

extern "C" {

augur_coupling_app* augur_coupling_create(const char* name, long iterations) {
  if (!valid_name(name) || iterations < 1) {
    warn(std::string("augur_coupling_create(): ") + (!valid_name(name) ? "the name must be a non-empty line" :
                                                                         "iterations must be at least 1 (got " + std::to_string(iterations) + ")"));
    return nullptr;
  }
  try {
    auto* app = new augur_coupling_app;
    app->name = name;
    app->iterations = iterations;
    return app;
  } catch (const std::exception& error) {
    warn(std::string("augur_coupling_create(): ") + error.what());
    return nullptr;
  }
}

int augur_coupling_add_kernel(augur_coupling_app* app, const char* name, augur_kernel_fn kernel, void* data,
                              int calls) {
  if (app == nullptr) {
    warn("augur_coupling_add_kernel(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  if (!valid_name(name) || kernel == nullptr || calls < 1) {
    warn(std::string("augur_coupling_add_kernel(): ") +
         (!valid_name(name) ? "the name must be a non-empty line"
                            : kernel == nullptr ? "kernel '" + std::string(name) + "' has no function"
                                                : "kernel '" + std::string(name) + "': calls must be at least 1"));
    return AUGUR_ERROR;
  }
  for (const KernelEntry& other : app->kernels) {
    if (other.name == name) {
      warn("augur_coupling_add_kernel(): kernel '" + std::string(name) + "' is already declared");
      return AUGUR_ERROR;
    }
  }
  try {
    app->kernels.push_back({name, kernel, data, calls});
  } catch (const std::exception& error) {
    warn(std::string("augur_coupling_add_kernel(): ") + error.what());
    return AUGUR_ERROR;
  }
  return static_cast<int>(app->kernels.size()) - 1;
}

int augur_coupling_set_hooks(augur_coupling_app* app, augur_kernel_fn setup, augur_kernel_fn reset, void* data) {
  if (app == nullptr) {
    warn("augur_coupling_set_hooks(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  app->setup = setup;
  app->reset = reset;
  app->hook_data = data;
  return AUGUR_OK;
}

int augur_coupling_set_problem(augur_coupling_app* app, const char* dataset, double size, double footprint_bytes) {
  if (app == nullptr) {
    warn("augur_coupling_set_problem(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  if (!(size > 0) || !std::isfinite(size) || !(footprint_bytes >= 0) || !std::isfinite(footprint_bytes) ||
      (dataset != nullptr && std::strchr(dataset, '\n') != nullptr)) {
    warn("augur_coupling_set_problem(): the size must be positive and finite, the footprint non-negative, the "
         "label one line");
    return AUGUR_ERROR;
  }
  try {
    app->dataset = dataset == nullptr ? "" : dataset;
  } catch (const std::exception&) {
    return AUGUR_ERROR;
  }
  app->size = size;
  app->footprint = footprint_bytes;
  return AUGUR_OK;
}

int augur_coupling_set_option(augur_coupling_app* app, const char* key, const char* value) {
  if (app == nullptr || key == nullptr || value == nullptr) {
    warn(app == nullptr ? "augur_coupling_set_option(): no application (augur_coupling_create failed?)"
                        : "augur_coupling_set_option(): the key and the value must not be NULL");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  try {
    const std::string why = check_option(key, value);
    if (!why.empty()) {
      warn(std::string("augur_coupling_set_option(\"") + key + "\"): " + why);
      return AUGUR_ERROR;
    }
    app->options[key] = value;
  } catch (const std::exception& error) {
    warn(std::string("augur_coupling_set_option(): ") + error.what());
    return AUGUR_ERROR;
  }
  return AUGUR_OK;
}

int augur_coupling_set_communicator(augur_coupling_app* app, int rank, int ranks, augur_barrier_fn barrier,
                                    augur_max_fn maximum, void* context) {
  if (app == nullptr) {
    warn("augur_coupling_set_communicator(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  if (ranks < 1 || rank < 0 || rank >= ranks || barrier == nullptr || maximum == nullptr) {
    warn("augur_coupling_set_communicator(): need 0 <= rank < ranks, a barrier and a maximum");
    return AUGUR_ERROR;
  }
  app->rank = rank;
  app->ranks = ranks;
  app->barrier = barrier;
  app->maximum = maximum;
  app->context = context;
  return AUGUR_OK;
}

int augur_coupling_measure(augur_coupling_app* app) {
  if (app == nullptr) {
    warn("augur_coupling_measure(): no application (augur_coupling_create failed?)");
    return AUGUR_ERROR;
  }
  const auto lock = lock_application(*app);
  if (!lock) return AUGUR_ERROR;
  try {
    return augur::runtime::measure_coupling(*app);
  } catch (const std::exception& error) {
    warn("augur_coupling_measure(): " + augur::core::describe_error(error));
  } catch (...) {
    warn("augur_coupling_measure(): a kernel or hook threw an exception; nothing written");
  }
  return AUGUR_ERROR;
}

void augur_coupling_destroy(augur_coupling_app* app) { delete app; }

}  // extern "C"
