// PDPA, Performance-Driven Processor Allocation (Corbalán, Martorell, Labarta, OSDI 2000; TPDS 16(7) 2005):
// each application's allocation moves through the states no reference, increasing, decreasing and stable
// by comparing its measured efficiency E(P) = S(P) / P with the target, so that it ends with the most
// processors that still reach the target efficiency; processors nobody uses that well stay free for the
// applications waiting to start (PDPA's multiprogramming level). Equations and parameters: docs/manager.md.
#include <algorithm>
#include <cstdio>

#include "policies.hpp"

namespace augur::manager {

namespace {

std::string two_decimals(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

int limit_of(const PolicyParameters& parameters, const ApplicationReport& report) {
  return report.max_processors > 0 ? std::min(report.max_processors, parameters.cpus) : parameters.cpus;
}

void grow(PdpaMove& move, const PolicyParameters& parameters, int limit, int processors, double speedup,
          const std::string& measured) {
  if (processors >= limit) {
    move.phase = PdpaPhase::stable;
    move.reason = measured + " >= target: stable at its limit of " + std::to_string(limit);
    return;
  }
  move.request = std::min(processors + parameters.step, limit);
  move.phase = PdpaPhase::increasing;
  move.memory.previous_allocation = processors;
  move.memory.previous_speedup = speedup;
  move.reason = measured + " >= target " + two_decimals(parameters.target_efficiency) + ": grows to " +
                std::to_string(move.request);
}

void shrink(PdpaMove& move, const PolicyParameters& parameters, int processors, double speedup,
            const std::string& measured) {
  if (processors <= 1) {
    move.phase = PdpaPhase::stable;
    move.reason = measured + " < low: stable at one processor";
    return;
  }
  move.request = std::max(processors - parameters.step, 1);
  move.phase = PdpaPhase::decreasing;
  move.memory.previous_allocation = processors;
  move.memory.previous_speedup = speedup;
  move.reason = measured + " < low " + two_decimals(parameters.low_efficiency) + ": shrinks to " +
                std::to_string(move.request);
}

}  // namespace

PdpaMove pdpa_move(const PolicyParameters& parameters, const ApplicationReport& report) {
  const int processors = report.allocation;
  PdpaMove move{processors, report.memory.phase, report.memory, {}};
  if (report.preempted) {
    move.reason = "preempted: keeps " + std::to_string(processors) + " until it measures again";
    return move;
  }
  const std::optional<double> speedup = calculated_speedup(report, processors);
  if (!speedup) {
    move.reason = "waits for its speedup with " + std::to_string(processors) + " processors";
    return move;
  }
  const double efficiency = *speedup / processors;  // E(P) = S(P) / P
  const std::string measured = "efficiency " + two_decimals(efficiency) + " with " + std::to_string(processors);
  const int limit = limit_of(parameters, report);
  const bool high = efficiency >= parameters.target_efficiency;
  const bool low = efficiency < parameters.low_efficiency;
  switch (report.memory.phase) {
    case PdpaPhase::no_reference:
      if (high) {
        grow(move, parameters, limit, processors, *speedup, measured);
      } else if (low) {
        shrink(move, parameters, processors, *speedup, measured);
      } else {
        move.phase = PdpaPhase::stable;
        move.reason = measured + " between low and target: stable";
      }
      break;
    case PdpaPhase::increasing:
      if (high) {
        grow(move, parameters, limit, processors, *speedup, measured);
      } else {
        // The last growth cost the target: back to the allocation before it, which reached it.
        move.request = std::clamp(report.memory.previous_allocation, 1, processors);
        move.phase = PdpaPhase::stable;
        move.reason = measured + " < target: back to " + std::to_string(move.request) + ", stable";
      }
      break;
    case PdpaPhase::decreasing:
      if (low) {
        shrink(move, parameters, processors, *speedup, measured);
      } else {
        move.phase = PdpaPhase::stable;
        move.reason = measured + " >= low: stable";
      }
      break;
    case PdpaPhase::stable:
      if (low) {
        shrink(move, parameters, processors, *speedup, measured);  // its behaviour changed
      } else {
        move.reason = measured + ": stable";
      }
      break;
  }
  return move;
}

std::vector<Allocation> decide_pdpa(const PolicyParameters& parameters, std::span<const ApplicationReport> reports) {
  const std::size_t count = reports.size();
  std::vector<PdpaMove> moves(count);
  std::vector<int> base(count, 0);  // what each running application keeps before anything grows
  for (std::size_t index = 0; index < count; ++index) {
    if (reports[index].allocation <= 0) continue;
    moves[index] = pdpa_move(parameters, reports[index]);
    base[index] = std::min(moves[index].request, reports[index].allocation);
  }
  // Running applications never hold more than the machine (it may have shrunk since the last decision).
  int held = 0;
  for (const int processors : base) held += processors;
  if (held > parameters.cpus) {
    const std::vector<int> cut = equal_shares(parameters.cpus, base);
    for (std::size_t index = 0; index < count; ++index) {
      if (cut[index] < base[index]) moves[index].reason += " (cut to " + std::to_string(cut[index]) + ": machine full)";
    }
    base = cut;
    held = parameters.cpus;
  }
  int free_processors = parameters.cpus - held;
  // PDPA's multiprogramming level: a waiting application starts when processors are free and the
  // allocation of every running application is stable, or some running application performs badly (its
  // efficiency is below the low one: it is giving processors back). It starts, in order of arrival, with
  // the equal share of the machine among everyone present, or what is free.
  bool all_stable = true;
  bool some_bad = false;
  for (std::size_t index = 0; index < count; ++index) {
    if (reports[index].allocation <= 0) continue;
    all_stable = all_stable && moves[index].phase == PdpaPhase::stable;
    some_bad = some_bad || moves[index].phase == PdpaPhase::decreasing;
  }
  const bool admits = all_stable || some_bad;
  const int share = std::max(1, parameters.cpus / static_cast<int>(count == 0 ? 1 : count));
  for (std::size_t index = 0; index < count; ++index) {
    const ApplicationReport& report = reports[index];
    if (report.allocation > 0) continue;
    moves[index].memory = report.memory;
    moves[index].memory.phase = PdpaPhase::no_reference;
    moves[index].phase = PdpaPhase::no_reference;
    base[index] = admits ? std::min({share, limit_of(parameters, report), free_processors}) : 0;
    free_processors -= base[index];
    if (base[index] > 0) {
      moves[index].reason = "starts with " + std::to_string(base[index]) + ", no reference yet";
    } else {
      moves[index].reason = admits ? "waits: no free processors" : "waits: the running allocations are not stable yet";
    }
  }
  // Growth comes last, from what is still free, in order of arrival.
  for (std::size_t index = 0; index < count; ++index) {
    if (reports[index].allocation <= 0 || moves[index].request <= base[index]) continue;
    const int extra = std::min(moves[index].request - base[index], free_processors);
    base[index] += extra;
    free_processors -= extra;
    if (base[index] < moves[index].request) {
      moves[index].reason += extra > 0 ? " (only " + std::to_string(base[index]) + ": no more free processors)"
                                       : " (stays: no free processors)";
    }
  }
  std::vector<Allocation> allocations;
  for (std::size_t index = 0; index < count; ++index) {
    Allocation allocation = next_allocation(reports[index], base[index], moves[index].phase, moves[index].reason);
    allocation.memory.previous_allocation = moves[index].memory.previous_allocation;
    allocation.memory.previous_speedup = moves[index].memory.previous_speedup;
    allocations.push_back(std::move(allocation));
  }
  return allocations;
}

}  // namespace augur::manager
