// The policy table, the checks common to every policy, equal shares and the two static policies
// (equipartition, fixed). PDPA is in pdpa.cpp, the policies on predicted speedups in predicted.cpp.
#include "manager/policy.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

#include "policies.hpp"

namespace augur::manager {

namespace {

constexpr std::array<std::pair<PolicyKind, std::string_view>, 11> policy_names{{
    {PolicyKind::equipartition, "equipartition"},
    {PolicyKind::pdpa, "pdpa"},
    {PolicyKind::equal_efficiency, "equal-efficiency"},
    {PolicyKind::fixed, "fixed"},
    {PolicyKind::marginal_gain, "marginal-gain"},
    {PolicyKind::pdpa_lend, "pdpa-lend"},
    {PolicyKind::shortest_first, "shortest-first"},
    {PolicyKind::hesrpt_plan, "hesrpt-plan"},
    {PolicyKind::rollout, "rollout"},
    {PolicyKind::rollout_arrivals, "rollout-arrivals"},
    {PolicyKind::rollout_wide, "rollout-wide"},
}};

// A report's cap as equal_shares reads it: its request, or no cap.
int cap_of(const ApplicationReport& report) { return std::max(report.max_processors, 0); }

std::vector<Allocation> decide_equipartition(const PolicyParameters& parameters,
                                             std::span<const ApplicationReport> reports) {
  std::vector<int> caps;
  for (const ApplicationReport& report : reports) caps.push_back(cap_of(report));
  const std::vector<int> shares = equal_shares(parameters.cpus, caps);
  std::vector<Allocation> allocations;
  const std::string among =
      std::to_string(parameters.cpus) + " processors among " + std::to_string(reports.size()) + " applications";
  for (std::size_t index = 0; index < reports.size(); ++index) {
    const ApplicationReport& report = reports[index];
    std::string reason;
    if (shares[index] == 0) {
      reason = "waits: more applications than processors";
    } else if (caps[index] != 0 && shares[index] == caps[index]) {
      reason = "its request of " + std::to_string(caps[index]) + " (below the equal share of " + among + ")";
    } else {
      reason = "equal share of " + among;
    }
    allocations.push_back(next_allocation(report, shares[index], report.memory.phase, std::move(reason)));
  }
  return allocations;
}

// Each application its fixed number (fixed_processors, or its request, or the whole machine; capped by its
// request and the machine), first come first served: one that does not fit waits with none, and so does
// every later one, so that a large early job is never starved by small later ones.
std::vector<Allocation> decide_fixed(const PolicyParameters& parameters, std::span<const ApplicationReport> reports) {
  std::vector<Allocation> allocations;
  int free_processors = parameters.cpus;
  bool blocked = false;
  for (const ApplicationReport& report : reports) {
    int wanted = parameters.fixed_processors > 0 ? parameters.fixed_processors : parameters.cpus;
    if (report.max_processors > 0) wanted = std::min(wanted, report.max_processors);
    wanted = std::min(wanted, parameters.cpus);
    if (!blocked && wanted <= free_processors) {
      free_processors -= wanted;
      allocations.push_back(next_allocation(report, wanted, report.memory.phase,
                                            "fixed allocation of " + std::to_string(wanted)));
    } else {
      blocked = true;
      allocations.push_back(next_allocation(report, 0, report.memory.phase,
                                            "waits for " + std::to_string(wanted) + " free processors"));
    }
  }
  return allocations;
}

}  // namespace

std::string_view policy_name(PolicyKind kind) {
  for (const auto& [each, name] : policy_names) {
    if (each == kind) return name;
  }
  return "unknown";
}

std::optional<PolicyKind> parse_policy(std::string_view name) {
  for (const auto& [kind, each] : policy_names) {
    if (each == name) return kind;
  }
  return std::nullopt;
}

const std::vector<PolicyKind>& all_policies() {
  static const std::vector<PolicyKind> kinds = [] {
    std::vector<PolicyKind> result;
    for (const auto& [kind, name] : policy_names) result.push_back(kind);
    return result;
  }();
  return kinds;
}

std::string_view pdpa_phase_name(PdpaPhase phase) {
  switch (phase) {
    case PdpaPhase::no_reference: return "no-reference";
    case PdpaPhase::increasing: return "increasing";
    case PdpaPhase::decreasing: return "decreasing";
    case PdpaPhase::stable: return "stable";
  }
  return "unknown";
}

std::optional<std::string> validate_parameters(const PolicyParameters& parameters) {
  if (parameters.cpus < 1) return "cpus must be at least 1";
  if (!(parameters.target_efficiency > 0.0 && parameters.target_efficiency <= 1.0)) {
    return "target efficiency must be in (0, 1]";
  }
  if (!(parameters.low_efficiency > 0.0 && parameters.low_efficiency <= parameters.target_efficiency)) {
    return "low efficiency must be in (0, target efficiency]";
  }
  if (parameters.step < 1) return "step must be at least 1";
  if (parameters.fixed_processors < 0) return "fixed processors must be at least 0";
  if (!(parameters.minimum_gain >= 0.0)) return "minimum gain must be at least 0";
  if (parameters.multiprogramming_level < 0) return "multiprogramming level must be at least 0";
  if (!(parameters.quantum > 0.0) || !std::isfinite(parameters.quantum)) return "quantum must be above 0";
  return std::nullopt;
}

std::optional<double> calculated_speedup(const ApplicationReport& report, int processors) {
  for (const SpeedupEntry& entry : report.speedups) {
    if (entry.processors == processors && entry.state == SpeedupState::calculated) return entry.speedup;
  }
  return std::nullopt;
}

std::vector<int> equal_shares(int cpus, std::span<const int> caps) {
  const std::size_t count = caps.size();
  std::vector<int> shares(count, 0);
  if (count == 0 || cpus <= 0) return shares;
  if (count > static_cast<std::size_t>(cpus)) {
    for (int index = 0; index < cpus; ++index) shares[static_cast<std::size_t>(index)] = 1;
    return shares;
  }
  // Water-filling: an application capped at or below the equal share of what is left takes its cap; repeat
  // until every application left can use more than the share.
  std::vector<bool> open(count, true);
  std::size_t open_count = count;
  int left = cpus;
  for (bool settled = false; !settled && open_count > 0;) {
    settled = true;
    const int share = left / static_cast<int>(open_count);
    for (std::size_t index = 0; index < count; ++index) {
      if (open[index] && caps[index] > 0 && caps[index] <= share) {
        shares[index] = caps[index];
        left -= caps[index];
        open[index] = false;
        --open_count;
        settled = false;
      }
    }
  }
  if (open_count == 0) return shares;
  const int share = left / static_cast<int>(open_count);
  int extra = left % static_cast<int>(open_count);
  for (std::size_t index = 0; index < count; ++index) {
    if (!open[index]) continue;
    shares[index] = share + (extra > 0 ? 1 : 0);  // a cap above the share is at least share + 1
    if (extra > 0) --extra;
  }
  return shares;
}

void hand_out_one_at_a_time(std::vector<int>& processors, int& free_processors,
                            const std::function<std::optional<double>(std::size_t index, int now)>& score) {
  while (free_processors > 0) {
    std::size_t best = processors.size();
    double best_score = 0.0;
    for (std::size_t index = 0; index < processors.size(); ++index) {
      const std::optional<double> each = score(index, processors[index]);
      if (each && (best == processors.size() || *each > best_score)) {
        best = index;
        best_score = *each;
      }
    }
    if (best == processors.size()) return;
    ++processors[best];
    --free_processors;
  }
}

Allocation next_allocation(const ApplicationReport& report, int processors, PdpaPhase phase, std::string reason) {
  Allocation allocation;
  allocation.id = report.id;
  allocation.processors = processors;
  allocation.memory = report.memory;
  allocation.memory.phase = phase;
  allocation.memory.decisions += 1;
  allocation.reason = std::move(reason);
  return allocation;
}

std::vector<Allocation> decide(const PolicyParameters& parameters, std::span<const ApplicationReport> reports) {
  if (const auto problem = validate_parameters(parameters)) throw std::invalid_argument(*problem);
  std::set<std::uint64_t> ids;
  for (const ApplicationReport& report : reports) {
    if (!ids.insert(report.id).second) {
      throw std::invalid_argument("two applications with the id " + std::to_string(report.id));
    }
    if (report.max_processors < 0) {
      throw std::invalid_argument("application " + std::to_string(report.id) + ": negative processor request");
    }
  }
  const auto level = static_cast<std::size_t>(parameters.multiprogramming_level);
  const bool sets_its_own_level = parameters.policy == PolicyKind::pdpa || parameters.policy == PolicyKind::pdpa_lend ||
                                  parameters.policy == PolicyKind::shortest_first || parameters.policy == PolicyKind::hesrpt_plan ||
                                  parameters.policy == PolicyKind::rollout || parameters.policy == PolicyKind::rollout_arrivals ||
                                  parameters.policy == PolicyKind::rollout_wide;
  if (!sets_its_own_level && level > 0 && reports.size() > level) {
    // The earliest `level` applications run under the policy; the others wait their turn.
    std::vector<Allocation> allocations = decide(parameters, reports.first(level));
    for (const ApplicationReport& report : reports.subspan(level)) {
      allocations.push_back(next_allocation(report, 0, report.memory.phase,
                                            "waits: multiprogramming level " + std::to_string(level) + " reached"));
    }
    return allocations;
  }
  switch (parameters.policy) {
    case PolicyKind::equipartition: return decide_equipartition(parameters, reports);
    case PolicyKind::fixed: return decide_fixed(parameters, reports);
    case PolicyKind::pdpa: return decide_pdpa(parameters, reports);
    case PolicyKind::pdpa_lend: return decide_pdpa_lend(parameters, reports);
    case PolicyKind::shortest_first: return decide_shortest_first(parameters, reports);
    case PolicyKind::hesrpt_plan: return decide_hesrpt_plan(parameters, reports);
    case PolicyKind::rollout:
    case PolicyKind::rollout_arrivals:
    case PolicyKind::rollout_wide: return decide_rollout(parameters, reports);
    case PolicyKind::equal_efficiency:
    case PolicyKind::marginal_gain: return decide_predicted(parameters, reports);
  }
  throw std::invalid_argument("unknown policy");
}

}  // namespace augur::manager
