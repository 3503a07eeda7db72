// pdpa-lend, augur's own policy: PDPA decides as it does, on the allocations it gave (the processors lent
// are taken back first); then, while no application waits to start, the processors PDPA leaves free are
// lent to the applications in state stable, in equal shares up to what each can use. Only stable ones
// borrow, so that the speedup PDPA waits for with an increasing or decreasing allocation is measured on
// exactly that allocation; a stable one's state machine works on the speedup it measured before (PC), and
// gives the loan back as soon as an application arrives.
#include <algorithm>

#include "policies.hpp"

namespace augur::manager {

std::vector<Allocation> decide_pdpa_lend(const PolicyParameters& parameters, std::span<const ApplicationReport> reports) {
  std::vector<ApplicationReport> owned(reports.begin(), reports.end());
  for (ApplicationReport& report : owned) {
    report.allocation = std::max(report.allocation - report.memory.lent, report.allocation > 0 ? 1 : 0);
    report.memory.lent = 0;
  }
  std::vector<Allocation> allocations = decide_pdpa(parameters, owned);
  int used = 0;
  bool someone_waits = false;
  for (const Allocation& allocation : allocations) {
    used += allocation.processors;
    someone_waits = someone_waits || allocation.processors == 0;
  }
  const int free_processors = parameters.cpus - used;
  if (someone_waits || free_processors <= 0) return allocations;
  // Equal shares of the free processors among the stable applications, each up to what it can still use.
  std::vector<int> room;
  std::vector<std::size_t> borrowers;
  for (std::size_t index = 0; index < allocations.size(); ++index) {
    if (allocations[index].memory.phase != PdpaPhase::stable) continue;
    const int limit = reports[index].max_processors > 0 ? std::min(reports[index].max_processors, parameters.cpus) : parameters.cpus;
    if (limit <= allocations[index].processors) continue;
    borrowers.push_back(index);
    room.push_back(limit - allocations[index].processors);
  }
  const std::vector<int> loans = equal_shares(free_processors, room);
  for (std::size_t position = 0; position < borrowers.size(); ++position) {
    Allocation& allocation = allocations[borrowers[position]];
    if (loans[position] == 0) continue;
    allocation.processors += loans[position];
    allocation.memory.lent = loans[position];
    allocation.reason += " (+" + std::to_string(loans[position]) + " lent while nobody waits)";
  }
  return allocations;
}

}  // namespace augur::manager
