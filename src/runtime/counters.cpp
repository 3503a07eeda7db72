// Hardware counters for the CALL experiments, through PAPI loaded with dlopen: programs that link
// libaugur do not load PAPI unless the option `counters` names events, and libaugur runs where PAPI
// is not installed. When PAPI is missing, cannot initialise, or cannot count an event (no counters on
// this machine, a virtual machine, perf_event_paranoid), one notice says so and counting stays off.
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "internal.hpp"

#if defined(AUGUR_HAVE_PAPI_H)
#include <papi.h>
#endif

namespace augur::runtime {
namespace {

#if defined(AUGUR_HAVE_PAPI_H)
struct PapiFunctions {
  decltype(&PAPI_library_init) library_init = nullptr;
  decltype(&PAPI_thread_init) thread_init = nullptr;
  decltype(&PAPI_create_eventset) create_eventset = nullptr;
  decltype(&PAPI_event_name_to_code) event_name_to_code = nullptr;
  decltype(&PAPI_add_event) add_event = nullptr;
  decltype(&PAPI_start) start = nullptr;
  decltype(&PAPI_read) read = nullptr;
  decltype(&PAPI_strerror) strerror = nullptr;
};

template <typename Function>
bool load_symbol(void* library, const char* name, Function& target) {
  target = reinterpret_cast<Function>(dlsym(library, name));
  return target != nullptr;
}

unsigned long current_thread_id() { return static_cast<unsigned long>(pthread_self()); }
#endif

struct CounterState {
  std::once_flag once;
  std::atomic<bool> ready{false};  // set after the initialisation: the fast path skips std::call_once
  bool enabled = false;
  std::vector<std::string> names;
  std::vector<int> codes;
#if defined(AUGUR_HAVE_PAPI_H)
  PapiFunctions papi;
#endif
};

CounterState& counter_state() {
  static CounterState* state = new CounterState;  // never destroyed: read by the exit handler that writes records
  return *state;
}

thread_local int thread_event_set = -1;  // PAPI_NULL
thread_local bool thread_tried = false;

void notice(const std::string& why) {
  warn("counters: " + why + "; experiments are recorded without counters (reported once)");
}

void initialise(CounterState& state) {
  const Settings& options = settings();
  if (options.counters.empty()) return;
#if !defined(AUGUR_HAVE_PAPI_H)
  notice("libaugur was built without PAPI (papi.h was not found at configure time)");
#else
  void* library = nullptr;
  for (const char* name : {"libpapi.so.7", "libpapi.so", "libpapi.so.6", "libpapi.so.5"}) {
    library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr) break;
  }
  if (library == nullptr) {
    notice("PAPI is not installed (libpapi.so could not be loaded)");
    return;
  }
  PapiFunctions& papi = state.papi;
  if (!load_symbol(library, "PAPI_library_init", papi.library_init) || !load_symbol(library, "PAPI_thread_init", papi.thread_init) ||
      !load_symbol(library, "PAPI_create_eventset", papi.create_eventset) ||
      !load_symbol(library, "PAPI_event_name_to_code", papi.event_name_to_code) ||
      !load_symbol(library, "PAPI_add_event", papi.add_event) || !load_symbol(library, "PAPI_start", papi.start) ||
      !load_symbol(library, "PAPI_read", papi.read) || !load_symbol(library, "PAPI_strerror", papi.strerror)) {
    notice("the PAPI library found lacks functions libaugur needs");
    return;
  }
  const int version = papi.library_init(PAPI_VER_CURRENT);
  if (version != PAPI_VER_CURRENT) {
    notice("PAPI_library_init failed (" + std::string(version > 0 ? "version mismatch" : papi.strerror(version)) + ")");
    return;
  }
  if (const int status = papi.thread_init(current_thread_id); status != PAPI_OK) {
    notice(std::string("PAPI_thread_init failed (") + papi.strerror(status) + ")");
    return;
  }
  for (const std::string& name : options.counters) {
    int code = 0;
    if (const int status = papi.event_name_to_code(const_cast<char*>(name.c_str()), &code); status != PAPI_OK) {
      notice("PAPI does not know the event " + name + " (" + papi.strerror(status) + ")");
      return;
    }
    state.codes.push_back(code);
    state.names.push_back(name);
  }
  // Try the events on this thread now, so that a machine without counters is told at once.
  int event_set = PAPI_NULL;
  if (const int status = papi.create_eventset(&event_set); status != PAPI_OK) {
    notice(std::string("PAPI_create_eventset failed (") + papi.strerror(status) + ")");
    return;
  }
  for (std::size_t index = 0; index < state.codes.size(); ++index) {
    if (const int status = papi.add_event(event_set, state.codes[index]); status != PAPI_OK) {
      notice("PAPI cannot count " + state.names[index] + " on this machine (" + papi.strerror(status) +
             "); PAPI's papi_avail lists the events that can be counted here");
      return;
    }
  }
  if (const int status = papi.start(event_set); status != PAPI_OK) {
    notice(std::string("PAPI_start failed (") + papi.strerror(status) + ")");
    return;
  }
  thread_event_set = event_set;
  thread_tried = true;
  state.enabled = true;
#endif
}

// Initialises once, from whichever thread comes first; afterwards one acquire load (std::call_once
// costs tens of nanoseconds a call in libstdc++, on the path of every experiment instance).
void initialise_once(CounterState& state) {
  if (state.ready.load(std::memory_order_acquire)) return;
  std::call_once(state.once, [&] {
    initialise(state);
    state.ready.store(true, std::memory_order_release);
  });
}

}  // namespace

bool CounterSet::start_on_this_thread() {
  CounterState& state = counter_state();
  initialise_once(state);
  if (!state.enabled) return false;
  if (thread_tried) return thread_event_set >= 0;
  thread_tried = true;
#if defined(AUGUR_HAVE_PAPI_H)
  int event_set = PAPI_NULL;
  if (state.papi.create_eventset(&event_set) != PAPI_OK) return false;
  for (int code : state.codes) {
    if (state.papi.add_event(event_set, code) != PAPI_OK) return false;
  }
  if (state.papi.start(event_set) != PAPI_OK) return false;
  thread_event_set = event_set;
  return true;
#else
  return false;
#endif
}

int CounterSet::event_count() {
  CounterState& state = counter_state();
  initialise_once(state);  // read after the initialisation, on any thread
  return state.enabled ? static_cast<int>(state.names.size()) : 0;
}

const std::string& CounterSet::event_name(int index) { return counter_state().names[static_cast<std::size_t>(index)]; }

bool CounterSet::read(long long* values) {
#if defined(AUGUR_HAVE_PAPI_H)
  if (thread_event_set < 0) return false;
  return counter_state().papi.read(thread_event_set, values) == PAPI_OK;
#else
  (void)values;
  return false;
#endif
}

}  // namespace augur::runtime
