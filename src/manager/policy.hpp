// The processor manager's policies (issue 20, docs/manager.md): pure functions from the state each running
// application reported (thesis §4.5, Table 4.3: its speedup per processor count with the PC/PNC state of each,
// its reference and predicted times, whether it was preempted) to the processors each gets for the next
// quantum. The same code decides in the real manager (the shared-memory edge calls decide() every quantum)
// and in `augur manager simulate` (the discrete-event simulation of a workload). No I/O, no clock, no
// globals: everything a policy remembers between two decisions is in each application's PolicyMemory, which
// the caller keeps and hands back at the next decision.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace augur::manager {

// The policies of `--policy`.
enum class PolicyKind {
  equipartition,     // every application the same share of the machine (the baseline)
  pdpa,              // Performance-Driven Processor Allocation (Corbalán, Martorell, Labarta, OSDI 2000)
  equal_efficiency,  // allocations that give every application the same predicted efficiency
  fixed,             // every application the same fixed number of processors (its request, capped)
  marginal_gain,     // augur's own: processors one by one to the largest predicted gain in speedup
  pdpa_lend,         // augur's own: PDPA, and while no application waits, its free processors lent to the stable ones
  shortest_first,    // augur's own: PDPA's efficient sizes, the processors to the least predicted work left first
  hesrpt_plan,       // augur's own: the weights of the optimal plan to the end (heSRPT's, on each measured curve)
  rollout,           // augur's own: hesrpt-plan improved by one step of rollout (candidates simulated to the end)
  rollout_arrivals,  // augur's own: rollout whose future expects arrivals at the rate seen so far, on the whole machine
  rollout_wide,      // augur's own: rollout over every one-processor move among 8 donors and 8 takers (no move of two)
};

// "equipartition", "pdpa", "equal-efficiency", "fixed", "marginal-gain", "pdpa-lend", "shortest-first",
// "hesrpt-plan", "rollout", "rollout-arrivals", "rollout-wide".
[[nodiscard]] std::string_view policy_name(PolicyKind kind);
[[nodiscard]] std::optional<PolicyKind> parse_policy(std::string_view name);
[[nodiscard]] const std::vector<PolicyKind>& all_policies();

// Whether the speedup with P processors is known (thesis §4.5: Performance Calculated / Not Calculated).
enum class SpeedupState { not_calculated, calculated };

// One entry of an application's speedup table: S(P) relative to one processor, as the self-analysis
// reports it (cpus_speedup(P, sp)). An entry not_calculated carries no speedup.
struct SpeedupEntry {
  int processors = 0;
  double speedup = 0.0;
  SpeedupState state = SpeedupState::not_calculated;
};

// PDPA's states of an application's allocation (NO_REF, P_INC, P_DEC, P_STABLE; docs/manager.md).
enum class PdpaPhase { no_reference, increasing, decreasing, stable };
[[nodiscard]] std::string_view pdpa_phase_name(PdpaPhase phase);

// What a policy remembers about one application between two decisions. The caller stores it with the
// application (the manager in its table, the simulation in its job) and returns it unchanged at the next
// decision; a new application starts with the default.
struct PolicyMemory {
  PdpaPhase phase = PdpaPhase::no_reference;
  int previous_allocation = 0;  // the allocation before the last move (0: none yet)
  double previous_speedup = 0.0;  // S(previous_allocation) when the move was made
  int decisions = 0;             // decisions taken for this application so far
  int lent = 0;                  // pdpa-lend, shortest-first: processors of its allocation lent on top of PDPA's decision
  double work_left = 0.0;        // shortest-first, hesrpt-plan: its remaining work (one-processor seconds) when it last predicted it
};

// The state one application reported, as the policy sees it.
struct ApplicationReport {
  std::uint64_t id = 0;                  // unique among the running applications
  std::string name;                      // for the log
  int max_processors = 0;                // the processors it can use (its request); 0 = no limit
  int allocation = 0;                    // its allocation now (0: just arrived)
  std::vector<SpeedupEntry> speedups;    // per processor count, in any order; a P absent is not calculated
  double reference_time = 0.0;           // seconds per iteration at the baseline (cpus_reference_time), 0 unknown
  double predicted_time = 0.0;           // predicted seconds to the end at `allocation` (cpus_prediction_time), 0 unknown
  bool preempted = false;                // stopped since the last decision (appl_stopped): its last iteration is void
  PolicyMemory memory;
  double arrival = 0.0;                  // when it arrived (connected), seconds on the clock of DecisionClock::now
  std::string program;                   // its program (history.hpp): the job's name without its copy suffix in the
                                         // simulation, the executable's name in the real manager; "" none
};

// What the manager learnt of one program from its finished and running jobs (history.hpp, docs/manager.md
// "history"): the latest S(P) any of them calculated per P (calculated, P increasing), and the works
// (one-processor seconds) of its last finished jobs, the most recent last.
struct ProgramHistory {
  std::string program;
  std::vector<SpeedupEntry> speedups;
  std::vector<double> works;
};

// What a real manager knows of time at a decision (the simulation fills it too): the time now, when the first
// application arrived and how many have arrived since the manager began (counting the first and those that
// have completed). Policies read it as a pure input; a caller that has no clock leaves it at its default
// (no arrival seen: rollout-arrivals then expects none through the shrinking machine, as rollout does).
struct DecisionClock {
  double now = 0.0;            // seconds
  double first_arrival = 0.0;  // seconds, the same clock
  long arrivals = 0;           // applications arrived in [first_arrival, now]
};

// What a new application of a known program takes from its program's history (history.hpp): its measured
// curve only (the default, chosen on the training seeds: docs/manager.md "history"), or the curve and the
// mean work of its program's last finished jobs.
enum class HistoryPrior { curve, curve_and_work };

// The parameters of every policy; each policy reads the ones it names.
struct PolicyParameters {
  PolicyKind policy = PolicyKind::equipartition;
  int cpus = 1;                         // the processors the manager hands out (>= 1)
  // PDPA: an application whose efficiency S(P)/P is at least `target_efficiency` grows by `step`
  // processors, one below `low_efficiency` shrinks by `step`, one in between is stable; a growth that
  // brings the efficiency below the target is undone (back to the last allocation that reached it).
  double target_efficiency = 0.7;
  double low_efficiency = 0.5;
  int step = 4;
  int fixed_processors = 0;             // fixed: processors per application (0: the equal share of `cpus`)
  // equal-efficiency and marginal-gain: never give a processor whose predicted speedup gain is below this
  // (0: hand out the whole machine).
  double minimum_gain = 0.0;
  // Every policy but PDPA: at most this many applications run at once, the earliest; the later ones wait
  // with no processors (0: no limit). PDPA sets its own multiprogramming level (waiting applications start
  // when processors are free) and ignores this.
  int multiprogramming_level = 0;
  // rollout: the seconds between two decisions, for which a candidate allocation is held (> 0).
  double quantum = 1.0;
  // The time of this decision and the arrivals seen so far (rollout-arrivals reads it): set by the caller
  // at each decision.
  DecisionClock clock;
  // The programs' history (history.hpp), in the order of their names, kept by the caller, which keeps it
  // alive over decide(): hesrpt-plan and the rollouts start a new application of a known
  // program with its program's measured curve and work as its prior. Empty: no history (the default).
  std::span<const ProgramHistory> history;
  HistoryPrior history_prior = HistoryPrior::curve;
};

// The decision for one application.
struct Allocation {
  std::uint64_t id = 0;
  int processors = 0;     // at most its max_processors; 0: none for this quantum (more applications than
                          // processors, the multiprogramming level, PDPA with no free processor, fixed
                          // waiting its turn): in the simulation the job waits; the real manager decides
                          // what a program already running does with none (one thread at least)
  PolicyMemory memory;    // to hand back at the next decision
  std::string reason;     // one line for the manager's log, lower case
};

// One decision: an allocation per report, in the order of `reports` (the order of arrival: earlier
// applications win ties). The processors allocated never exceed `parameters.cpus`. Throws
// std::invalid_argument on parameters out of range (cpus < 1, efficiencies outside (0, 1], step < 1) or two
// reports with the same id; validate_parameters() says the same without throwing.
[[nodiscard]] std::vector<Allocation> decide(const PolicyParameters& parameters,
                                             std::span<const ApplicationReport> reports);

// The first problem with `parameters` ("step must be at least 1"), or nothing when they are valid.
[[nodiscard]] std::optional<std::string> validate_parameters(const PolicyParameters& parameters);

// The speedup an application reported as calculated for `processors`, if any.
[[nodiscard]] std::optional<double> calculated_speedup(const ApplicationReport& report, int processors);

// Amdahl's serial fraction f fitted by least squares to the speedups `report` calculated with two or more
// processors (1/S - 1/P = f (1 - 1/P)), clamped to [0, 1]; nothing when it calculated none.
[[nodiscard]] std::optional<double> fitted_serial_fraction(const ApplicationReport& report);
// S(P) = 1 / (f + (1 - f) / P) (thesis §4.2); 0 for P <= 0.
[[nodiscard]] double amdahl_speedup(double serial_fraction, int processors);

// Equal shares of `cpus` among applications that can use at most `caps[i]` processors each (0: no cap):
// water-filling, so that processors a capped application cannot use go to the others; the processors
// left after the equal split go one each to the earliest applications. When the applications outnumber
// the processors, the earliest get one each and the rest none.
[[nodiscard]] std::vector<int> equal_shares(int cpus, std::span<const int> caps);

}  // namespace augur::manager
