#include "interpose/run_timeline.hpp"

#include <unistd.h>

#include <cerrno>
#include <exception>

#include "core/files.hpp"
#include "core/json_text.hpp"
#include "runtime/system_clock.hpp"

namespace augur::interpose {
namespace {

// The work of this thread in the traced region `region` began at `since` (its last departure from a
// barrier or construct end; the region's start before the first).
struct ThreadMark {
  std::uint64_t region = 0;
  double since = 0.0;
};
thread_local ThreadMark mark;

const char* work_name(ConstructEnd kind) {
  switch (kind) {
    case ConstructEnd::LoopEnd:
    case ConstructEnd::LoopEndNowait:
    case ConstructEnd::Loop:
      return "loop";
    case ConstructEnd::SectionsEnd:
    case ConstructEnd::SectionsEndNowait:
    case ConstructEnd::Sections:
      return "sections";
    case ConstructEnd::Single:
      return "single";
    case ConstructEnd::Barrier:
      break;
  }
  return "work";  // up to a barrier: a static loop's end, an explicit barrier, a single's
}

}  // namespace

void start_timeline(Session& session) {
  if (session.settings.trace.empty() || session.engine == nullptr) return;
  try {
    session.trace = std::make_unique<runtime::TraceRecorder>();
    session.trace_origin = runtime::read_clock(CLOCK_MONOTONIC);
    session.listener->trace_to(session.trace.get(), &session.settings.engine);
  } catch (const std::exception& error) {
    session.trace.reset();
    warn(std::string(session.library) + ": AUGUR_TRACE: " + core::describe_error(error) + "; no timeline");
  }
}

void write_timeline(Session& session) {
  if (session.trace == nullptr) return;
  try {
    session.listener->trace_to(nullptr, nullptr);
    std::string pattern = session.settings.trace;  // "%n": the program's name, as in libaugur
    for (auto at = pattern.find("%n"); at != std::string::npos; at = pattern.find("%n", at)) {
      pattern.replace(at, 2, program_invocation_short_name);
    }
    runtime::write_trace_file(*session.trace, expand_path(pattern), session.trace_origin,
                              runtime::read_clock(CLOCK_MONOTONIC), static_cast<long>(::getpid()), program_invocation_short_name);
  } catch (const std::exception& error) {
    warn("AUGUR_TRACE: " + core::describe_error(error) + "; no timeline written");
  }
}

void timeline_region_begin(Session& session, std::uint64_t function, double now) {
  if (session.trace == nullptr) return;
  session.trace->begin("parallel region", "parallel", now, function, runtime::TraceNumber::Hex);
  session.traced_region_start.store(now, std::memory_order_relaxed);
  session.traced_region.fetch_add(1, std::memory_order_release);
  session.in_traced_region.store(true, std::memory_order_release);
}

void timeline_region_end(Session& session, double now) {
  if (session.trace == nullptr || !session.in_traced_region.load(std::memory_order_relaxed)) return;
  session.in_traced_region.store(false, std::memory_order_release);
  session.trace->end(now);
}

double timeline_construct_end(Session& session, ConstructEnd kind, bool barrier, double now) {
  if (session.trace == nullptr || !session.in_traced_region.load(std::memory_order_acquire)) return -1.0;
  const std::uint64_t region = session.traced_region.load(std::memory_order_acquire);
  if (mark.region != region) mark = {region, session.traced_region_start.load(std::memory_order_relaxed)};
  if (now > mark.since) session.trace->slice(work_name(kind), "worksharing", mark.since, now);
  mark.since = now;
  return barrier ? now : -1.0;
}

double timeline_barrier_arrive(Session& session, bool after_construct, double now) {
  if (!after_construct) return timeline_construct_end(session, ConstructEnd::Barrier, true, now);
  if (session.trace == nullptr || !session.in_traced_region.load(std::memory_order_acquire)) return -1.0;
  mark.since = now;  // the few instructions from the construct's end to the barrier: part of the wait
  return now;
}

void timeline_construct_left(Session& session, double arrived, double now) {
  if (arrived < 0.0 || session.trace == nullptr) return;
  session.trace->slice("barrier", "wait", arrived, now);
  mark.since = now;
}

}  // namespace augur::interpose
