// The slots of the manager's segment: an application's connection and reports, the manager's reading and
// decisions (protocol.hpp). Lock-free: a slot is claimed by a compare-and-swap of its word; a report is
// written between two increments of the slot's sequence (odd while it is written), which the manager reads
// before and after its copy.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>

#include "manager/protocol.hpp"

namespace augur::manager {

namespace {

constexpr std::uint64_t state_mask = 0xffffffffULL;

SlotState state_of(std::uint64_t word) {
  return static_cast<SlotState>(word & state_mask);
}

std::uint64_t with_state(std::uint64_t word, SlotState state) {
  return (word & ~state_mask) | static_cast<std::uint64_t>(state);
}

// Frees every slot whose process has died (Claimed or Active); the number freed.
int reclaim_dead_slots(Segment& segment) noexcept {
  int freed = 0;
  for (int index = 0; index < segment.slot_count(); ++index) {
    Slot& slot = segment.slot(index);
    std::uint64_t word = slot.word.load(std::memory_order_acquire);
    if (state_of(word) == SlotState::Free) continue;
    const pid_t pid = slot.pid.load(std::memory_order_relaxed);
    if (pid == 0 || process_alive(pid, slot.start_time.load(std::memory_order_relaxed))) continue;
    if (slot.word.compare_exchange_strong(word, with_state(word, SlotState::Free), std::memory_order_acq_rel)) ++freed;
  }
  return freed;
}

// Claims a Free slot: its index, or -1 when every slot is taken.
int claim_free_slot(Segment& segment, std::uint64_t& claimed) noexcept {
  for (int index = 0; index < segment.slot_count(); ++index) {
    Slot& slot = segment.slot(index);
    std::uint64_t word = slot.word.load(std::memory_order_acquire);
    if (state_of(word) != SlotState::Free) continue;
    const std::uint64_t next = with_state(word + (1ULL << 32), SlotState::Claimed);
    if (slot.word.compare_exchange_strong(word, next, std::memory_order_acq_rel)) {
      claimed = next;
      return index;
    }
  }
  return -1;
}

}  // namespace

Connection::Connection(std::unique_ptr<Segment> segment, int index)
    : segment_(std::move(segment)), slot_(&segment_->slot(index)), index_(index), word_(0) {}

Connection::~Connection() {
  disconnect();
}

Connection::Result Connection::connect(std::string_view name, pid_t pid, std::string_view program, int requested) {
  Result result;
  try {
    Segment::Opened opened = Segment::open(name);
    if (opened.segment == nullptr) {
      result.failure = opened.failure;
      result.error = std::move(opened.error);
      return result;
    }
    std::uint64_t word = 0;
    int index = claim_free_slot(*opened.segment, word);
    if (index < 0 && reclaim_dead_slots(*opened.segment) > 0) index = claim_free_slot(*opened.segment, word);
    if (index < 0) {
      result.failure = OpenFailure::Full;
      result.error = "the manager '" + std::string(name) + "' has no free slot (" +
                     std::to_string(opened.segment->slot_count()) + " applications connected)";
      return result;
    }
    Slot& slot = opened.segment->slot(index);
    slot.pid.store(pid, std::memory_order_relaxed);
    slot.start_time.store(process_start_time(pid), std::memory_order_relaxed);
    std::snprintf(slot.name, sizeof slot.name, "%.*s", static_cast<int>(std::min<std::size_t>(program.size(), name_capacity - 1)),
                  program.data());
    slot.report_sequence.store(0, std::memory_order_relaxed);
    slot.heartbeat_ns.store(monotonic_ns(), std::memory_order_relaxed);
    slot.iterations.store(0, std::memory_order_relaxed);
    slot.processors.store(requested, std::memory_order_relaxed);
    slot.requested.store(requested, std::memory_order_relaxed);
    slot.baseline.store(0, std::memory_order_relaxed);
    slot.reference_time.store(0.0, std::memory_order_relaxed);
    for (int p = 0; p <= max_processors; ++p) {
      slot.speedup[p].store(0.0, std::memory_order_relaxed);
      slot.predicted_time[p].store(-1.0, std::memory_order_relaxed);
      slot.calculated[p].store(0, std::memory_order_relaxed);
    }
    slot.allocation.store(0, std::memory_order_relaxed);
    slot.allocation_sequence.store(0, std::memory_order_relaxed);
    slot.allocated_at_ns.store(0, std::memory_order_relaxed);
    const std::uint64_t active = with_state(word, SlotState::Active);
    slot.word.store(active, std::memory_order_release);
    result.connection.reset(new Connection(std::move(opened.segment), index));
    result.connection->word_ = active;
  } catch (const std::bad_alloc&) {
    result.failure = OpenFailure::System;
    result.error = "out of memory";
  }
  return result;
}

void Connection::begin_report() noexcept {
  slot_->report_sequence.store(slot_->report_sequence.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
}

void Connection::end_report() noexcept {
  slot_->report_sequence.store(slot_->report_sequence.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

void Connection::report_iteration(std::uint64_t now_ns, long iterations, int processors) noexcept {
  begin_report();
  slot_->heartbeat_ns.store(now_ns, std::memory_order_relaxed);
  slot_->iterations.store(iterations, std::memory_order_relaxed);
  slot_->processors.store(processors, std::memory_order_relaxed);
  end_report();
}

void Connection::report_speedup(int processors, double speedup, double predicted_seconds) noexcept {
  if (processors < 1 || processors > max_processors) return;
  begin_report();
  slot_->speedup[processors].store(speedup, std::memory_order_relaxed);
  slot_->predicted_time[processors].store(predicted_seconds, std::memory_order_relaxed);
  slot_->calculated[processors].store(1, std::memory_order_relaxed);
  end_report();
}

void Connection::report_reference(double seconds, int baseline) noexcept {
  begin_report();
  slot_->reference_time.store(seconds, std::memory_order_relaxed);
  slot_->baseline.store(baseline, std::memory_order_relaxed);
  end_report();
}

void Connection::disconnect() noexcept {
  if (!connected_) return;
  connected_ = false;
  std::uint64_t word = word_;
  slot_->word.compare_exchange_strong(word, with_state(word, SlotState::Free), std::memory_order_acq_rel);
}

namespace {

// One consistent copy of an Active slot's report; false when the slot is not Active.
bool copy_slot(const Slot& slot, Application& application) {
  application.word = slot.word.load(std::memory_order_acquire);
  if (state_of(application.word) != SlotState::Active) return false;
  application.pid = slot.pid.load(std::memory_order_relaxed);
  application.start_time = slot.start_time.load(std::memory_order_relaxed);
  application.name.assign(slot.name, strnlen(slot.name, sizeof slot.name));
  // A writer that died in the middle of a report leaves the sequence odd: after a few tries the copy is taken as it is.
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::uint64_t before = slot.report_sequence.load(std::memory_order_acquire);
    if (before % 2 == 1 && attempt + 1 < 64) continue;
    application.heartbeat_ns = slot.heartbeat_ns.load(std::memory_order_relaxed);
    application.iterations = static_cast<long>(slot.iterations.load(std::memory_order_relaxed));
    application.processors = slot.processors.load(std::memory_order_relaxed);
    application.requested = slot.requested.load(std::memory_order_relaxed);
    application.baseline = slot.baseline.load(std::memory_order_relaxed);
    application.reference_time = slot.reference_time.load(std::memory_order_relaxed);
    application.calculated.clear();
    for (int p = 1; p <= max_processors; ++p) {
      if (slot.calculated[p].load(std::memory_order_relaxed) == 0) continue;
      application.calculated.push_back(
          {p, slot.speedup[p].load(std::memory_order_relaxed), slot.predicted_time[p].load(std::memory_order_relaxed)});
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    if (slot.report_sequence.load(std::memory_order_relaxed) == before) break;
  }
  application.allocation = slot.allocation.load(std::memory_order_relaxed);
  application.allocation_sequence = slot.allocation_sequence.load(std::memory_order_relaxed);
  return slot.word.load(std::memory_order_acquire) == application.word;
}

}  // namespace

std::vector<Application> read_applications(const Segment& segment) {
  std::vector<Application> applications;
  for (int index = 0; index < segment.slot_count(); ++index) {
    Application application;
    application.slot = index;
    if (copy_slot(segment.slot(index), application)) applications.push_back(std::move(application));
  }
  return applications;
}

bool reclaim_if_dead(Segment& segment, const Application& application) noexcept {
  if (process_alive(application.pid, application.start_time)) return false;
  std::uint64_t word = application.word;
  return segment.slot(application.slot).word.compare_exchange_strong(word, with_state(word, SlotState::Free),
                                                                      std::memory_order_acq_rel);
}

void write_allocation(Segment& segment, int slot, int processors, std::uint64_t now_ns) noexcept {
  Slot& target = segment.slot(slot);
  target.allocated_at_ns.store(now_ns, std::memory_order_relaxed);
  target.allocation.store(processors, std::memory_order_relaxed);
  target.allocation_sequence.fetch_add(1, std::memory_order_release);
}

}  // namespace augur::manager
