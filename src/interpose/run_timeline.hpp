// The timeline of `augur run --trace FILE` (option `trace`, AUGUR_TRACE; docs/run.md#timelines) in
// libaugur_preload and libaugur_ompt: on the owner thread the regions and iterations the periodicity
// detector found (the session's AnalyzerListener, analysis_trace.hpp) and every parallel region the program
// ran; on every thread of such a region's team the work between the ends of its worksharing constructs
// and the waits in their barriers (libgomp: the wrappers of the construct ends; libomp: the OMPT tool's work
// and sync_region_wait callbacks). When the option is
// empty each hook costs one branch (`session.trace == nullptr`). Nothing here throws to the caller.
#pragma once

#include <cstdint>

#include "interpose/session.hpp"

namespace augur::interpose {

// Makes the recorder when the option names a file (start_session calls it).
void start_timeline(Session& session);
// Writes the file (finish_session calls it); one warning when it cannot.
void write_timeline(Session& session);

// The owner thread: a parallel region of `function` begins (after the engine's before_region) / ends
// (before its after_region).
void timeline_region_begin(Session& session, std::uint64_t function, double now);
void timeline_region_end(Session& session, double now);
// Any thread of the team of a traced region, at a worksharing construct's end: returns the arrival
// time to hand to timeline_construct_left after the real call when the construct ends in a barrier
// (negative: nothing to record).
double timeline_construct_end(Session& session, ConstructEnd kind, bool barrier, double now);
void timeline_construct_left(Session& session, double arrived, double now);
// libomp (OMPT) reports a construct's end (ompt_callback_work, endpoint end) apart from the wait in the
// barrier that follows it (ompt_callback_sync_region_wait): at the wait's begin, the arrival time to hand
// to timeline_construct_left at its end (negative: nothing to record), with the thread's work up to it as
// a `work` slice unless a construct's end just recorded it (`after_construct`).
double timeline_barrier_arrive(Session& session, bool after_construct, double now);

}  // namespace augur::interpose
