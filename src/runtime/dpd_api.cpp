// The C API of the Dynamic Periodicity Detector (augur.h, "Dynamic periodicity detection"; thesis
// Table 4.2): augur_DPD and augur_DPDWindowSize over one process-wide augur::dpd::Detector.
// Any thread may call them: a mutex serialises the samples of all threads into the one detector. Nothing
// here throws across the C ABI; failures are reported once on stderr ("augur: ...") and leave the
// detector as it was (or off, when it cannot be built).
#include <exception>
#include <memory>
#include <mutex>
#include <string>

#include "augur/augur.h"
#include "augur/dpd.hpp"
#include "internal.hpp"

namespace augur::runtime {
namespace {

using dpd::Detector;

struct DetectorState {
  std::mutex mutex;                    // everything below
  std::unique_ptr<Detector> detector;  // built at the first call (the window set before it, or 128)
  int window = Detector::default_window;
  bool unavailable = false;  // could not be built: augur_DPD answers 0 from then on
  bool warned_window = false;
  bool warned_failure = false;
};

DetectorState& detector_state() {
  static DetectorState* state = new DetectorState;  // never destroyed: threads may sample while the program exits
  return *state;
}

void warn_failure_once(DetectorState& state, const std::string& message) {
  if (state.warned_failure) return;
  state.warned_failure = true;
  warn(message + " (warned once)");
}

// The process-wide detector, built on first use; nullptr when it could not be built.
Detector* process_detector(DetectorState& state) {
  if (state.detector || state.unavailable) return state.detector.get();
  try {
    state.detector = std::make_unique<Detector>(state.window);
  } catch (const std::exception& error) {
    state.unavailable = true;
    warn_failure_once(state, std::string("augur_DPD(): cannot build the periodicity detector: ") + error.what() +
                                 "; no period will be reported");
  }
  return state.detector.get();
}

}  // namespace
}  // namespace augur::runtime

extern "C" {

int augur_DPD(long sample, int* period) {
  using namespace augur::runtime;
  int current = 0;
  int start = 0;
  try {
    DetectorState& state = detector_state();
    std::lock_guard lock(state.mutex);
    try {
      if (augur::dpd::Detector* detector = process_detector(state)) start = detector->push(sample, current) ? 1 : 0;
    } catch (...) {  // push never throws; this guards the C ABI all the same
      warn_failure_once(state, "augur_DPD(): unexpected failure; no period reported");
    }
  } catch (...) {  // the lock could not be taken: no sample
  }
  if (period != nullptr) *period = current;
  return start;
}

void augur_DPDWindowSize(int size) {
  using namespace augur::runtime;
  using augur::dpd::Detector;
  try {
    DetectorState& state = detector_state();
    std::lock_guard lock(state.mutex);
    if (size < Detector::min_window || size > Detector::max_window) {
      const int clamped = size < Detector::min_window ? Detector::min_window : Detector::max_window;
      if (!state.warned_window) {
        state.warned_window = true;
        warn("augur_DPDWindowSize(" + std::to_string(size) + "): the window must be within [" +
             std::to_string(Detector::min_window) + ", " + std::to_string(Detector::max_window) + "] samples; using " +
             std::to_string(clamped) + " (warned once)");
      }
      size = clamped;
    }
    if (!state.detector) {  // not built yet: it will be built with this window
      state.window = size;
      return;
    }
    try {
      state.detector->set_window(size);  // unchanged when memory runs out
      state.window = size;
    } catch (const std::exception& error) {
      warn_failure_once(state, "augur_DPDWindowSize(" + std::to_string(size) + "): " + error.what() +
                                   "; the window stays " + std::to_string(state.detector->window()));
    }
  } catch (...) {  // std::to_string or the warning itself failed: nothing more can be done safely
  }
}

}  // extern "C"
