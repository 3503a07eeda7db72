// The application of the kernel coupling harness (include/augur/coupling.h), shared by its C API
// (coupling_harness.cpp) and the measurement (coupling_measure.cpp). Private to src/runtime.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "augur/coupling.h"
#include "internal.hpp"
#include "options.hpp"

namespace augur::runtime {

struct KernelEntry {
  std::string name;
  augur_kernel_fn function = nullptr;
  void* data = nullptr;
  int calls = 1;
};

}  // namespace augur::runtime

struct augur_coupling_app {
  // Every entry point but create and destroy holds it: an application used by several threads at once is
  // used by one at a time (recursive: a kernel may call the API on its own application).
  std::recursive_mutex mutex;
  std::string name;
  long iterations = 1;
  std::vector<augur::runtime::KernelEntry> kernels;
  augur_kernel_fn setup = nullptr;
  augur_kernel_fn reset = nullptr;
  void* hook_data = nullptr;
  std::string dataset;
  double size = 0;
  double footprint = 0;
  std::map<std::string, std::string> options;
  int rank = 0;
  int ranks = 1;
  augur_barrier_fn barrier = nullptr;
  augur_max_fn maximum = nullptr;
  void* context = nullptr;

  void sync() const {
    if (barrier != nullptr) barrier(context);
  }
  double max_over_ranks(double value) const { return maximum != nullptr ? maximum(value, context) : value; }
  void reset_data() const {
    if (reset != nullptr) reset(hook_data);
  }
  void run_chain(const std::vector<int>& chain) const {
    for (const int index : chain) {
      const augur::runtime::KernelEntry& kernel = kernels[static_cast<std::size_t>(index)];
      kernel.function(kernel.data);
    }
  }
  // The options in force, by the rule of every option set: default < environment (AUGUR_COUPLING_<KEY>) <
  // the program's (augur_coupling_set_option) < the tool channel (AUGUR_TOOL_OPTIONS, which `augur couple
  // measure` sets). Bad values are warned about (on rank 0) and ignored.
  augur::runtime::OptionValues effective_options() const;  // coupling_measure.cpp
  mutable bool options_warned = false;  // the options' warnings are said once per application
};

namespace augur::runtime {

// Times each kernel alone, each chain of the lengths asked for and the whole loop, and writes the
// measurement file (rank 0); AUGUR_OK or AUGUR_ERROR, the same on every rank (coupling_measure.cpp).
int measure_coupling(augur_coupling_app& app);

}  // namespace augur::runtime
