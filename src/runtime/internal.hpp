// What the parts of libaugur share: the one warning channel, the settings, the clock, paths (internal.cpp).
// Private to src/runtime. Every function here may be called from any thread.
#pragma once

#include <string>

#include "options.hpp"

namespace augur::runtime {

// One line on stderr, prefixed "augur: ".
void warn(const std::string& message);

// The settings from the defaults, the environment and augur_set_option, loaded at the first call
// (warnings for bad values printed then), from whichever thread comes first (internal.cpp).
const Settings& settings();

// At the first call in the process: one warning per AUGUR_* variable that no option set knows (with
// the closest known name), and per unknown key of the tool channel. Called by the self-analysis's
// settings and by the coupling harness, whichever comes first.
void check_environment_once();

// Seconds of CLOCK_MONOTONIC.
double monotonic_seconds();

// "%p" becomes the process id, "%n" the program's name.
std::string expand_path(const std::string& pattern);

// Hardware counters through PAPI, loaded at run time when present (counters.cpp). The events are the
// option `counters`; when PAPI or the events are missing, one notice is printed and counting is off.
class CounterSet {
public:
  static constexpr int max_events = 8;
  // Starts counting on the calling thread (once per thread); false when counting is off.
  static bool start_on_this_thread();
  // The number of events counted (0 when off) and their names.
  static int event_count();
  static const std::string& event_name(int index);
  // Reads the current values of the calling thread's counters into values[0 .. event_count()).
  static bool read(long long* values);
};

}  // namespace augur::runtime
