// C++ face of the coupling harness (augur/coupling.h): kernels as callables.
//
//     augur::CouplingApplication app("sp", 400);
//     app.kernel("copy_faces", [&] { copy_faces(grid); });
//     ...
//     app.hooks([&] { setup(grid); }, [&] { reset(grid); });
//     app.problem("W", 36.0 * 36 * 36, bytes);
//     if (!app.measure()) return 1;
//
// Header-only over the C API, so that it works whatever C++ standard library the program uses.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "augur/coupling.h"

namespace augur {

class CouplingApplication {
public:
  CouplingApplication(const std::string& name, long iterations)
      : app_(augur_coupling_create(name.c_str(), iterations)) {}
  ~CouplingApplication() { augur_coupling_destroy(app_); }
  CouplingApplication(const CouplingApplication&) = delete;
  CouplingApplication& operator=(const CouplingApplication&) = delete;

  // False when the application could not be created (the library said why on stderr).
  [[nodiscard]] bool valid() const { return app_ != nullptr; }

  // Appends a kernel to the loop body; its index, or -1.
  int kernel(const std::string& name, std::function<void()> body, int calls = 1) {
    callables_.push_back(std::make_unique<std::function<void()>>(std::move(body)));
    return augur_coupling_add_kernel(app_, name.c_str(), &CouplingApplication::call, callables_.back().get(), calls);
  }
  bool hooks(std::function<void()> setup, std::function<void()> reset) {
    hooks_ = std::make_unique<Hooks>(Hooks{std::move(setup), std::move(reset)});
    return augur_coupling_set_hooks(app_, hooks_->setup ? &CouplingApplication::setup : nullptr,
                                    hooks_->reset ? &CouplingApplication::reset : nullptr, hooks_.get()) == AUGUR_OK;
  }
  bool problem(const std::string& dataset, double size, double footprint_bytes = 0) {
    return augur_coupling_set_problem(app_, dataset.c_str(), size, footprint_bytes) == AUGUR_OK;
  }
  bool option(const std::string& key, const std::string& value) {
    return augur_coupling_set_option(app_, key.c_str(), value.c_str()) == AUGUR_OK;
  }
  // Measures and writes the measurement file; false on failure (the library said why on stderr).
  bool measure() { return augur_coupling_measure(app_) == AUGUR_OK; }
  [[nodiscard]] augur_coupling_app* handle() const { return app_; }

private:
  struct Hooks {
    std::function<void()> setup;
    std::function<void()> reset;
  };
  static void call(void* data) { (*static_cast<std::function<void()>*>(data))(); }
  static void setup(void* data) { static_cast<Hooks*>(data)->setup(); }
  static void reset(void* data) { static_cast<Hooks*>(data)->reset(); }

  augur_coupling_app* app_;
  std::vector<std::unique_ptr<std::function<void()>>> callables_;
  std::unique_ptr<Hooks> hooks_;
};

}  // namespace augur
