// The definition of a runtime function after the tool's own (dlsym RTLD_NEXT), looked up once and cached: what
// libaugur_ompt's wrappers of libomp's __kmpc_dispatch_next_* call (ompt_tool.cpp).
#pragma once

#include <dlfcn.h>

#include <atomic>
#include <string>

#include "interpose/session.hpp"

namespace augur::interpose {

template <typename Function>
Function next_definition(std::atomic<Function>& cache, const char* name) {
  Function function = cache.load(std::memory_order_acquire);
  if (function == nullptr) {
    function = reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
    static std::atomic_flag warned = ATOMIC_FLAG_INIT;
    if (function == nullptr && !warned.test_and_set()) {
      // Not reached: the program that calls it is linked to the runtime that defines it.
      warn(std::string("libaugur_ompt: ") + name + " has no definition after the tool's; its loops run no chunk");
    }
    cache.store(function, std::memory_order_release);
  }
  return function;
}

}  // namespace augur::interpose
