// The table of augur's commands: one row per command (name, summary, its declare function, defined in
// <name>_command.cpp). A new command is one file and one row here.
#include <CLI/CLI.hpp>

#include "command.hpp"

namespace augur::cli {

Runner declare_speedup_command(CLI::App& command);
Runner declare_tspp_command(CLI::App& command);
Runner declare_sim_command(CLI::App& command);
Runner declare_fit_command(CLI::App& command);
Runner declare_predict_command(CLI::App& command);
Runner declare_plot_command(CLI::App& command);
Runner declare_gen_tasks_command(CLI::App& command);
Runner declare_bsp_command(CLI::App& command);
Runner declare_cc_command(CLI::App& command);
Runner declare_run_command(CLI::App& command);
Runner declare_couple_command(CLI::App& command);
Runner declare_db_command(CLI::App& command);
Runner declare_options_command(CLI::App& command);
Runner declare_actors_command(CLI::App& command);
Runner declare_cache_command(CLI::App& command);
Runner declare_hierarchy_command(CLI::App& command);
Runner declare_manager_command(CLI::App& command);
Runner declare_manage_command(CLI::App& command);
Runner declare_report_command(CLI::App& command);

std::span<const Command> commands() {
  static const Command table[] = {
      {"speedup",
       "Run an instrumented program on 1..N threads and compare its traditional speedup (TS) with the speedup the "
       "self-analyzer computes while it runs (SA(N exec), SA(1 exec)) and the self-tuning' estimate (ST').",
       declare_speedup_command},
      {"tspp",
       "Predict the completion time of a series-parallel task system on a queueing network (TSPP, Mak and "
       "Lundstrom's method, or augur's transient, exact, decomposition or hybrid method): start, residence and end times per "
       "task, utilizations and queues per resource.",
       declare_tspp_command},
      {"sim",
       "Simulate a TSPP task system on its queueing network (discrete events, replications with 95% confidence "
       "intervals): the same outputs as 'augur tspp', without the predictor's assumptions.",
       declare_sim_command},
      {"actors",
       "Actor programs on a multiprocessor model (Axe, seed 004 §3): simulate players that compute, send and create "
       "players on sites joined by links (topology, routing, contention): execution time, per site, link and player "
       "statistics; tune the mapping by post-game analysis; search for the optimum and the baselines.",
       declare_actors_command},
      {"hierarchy",
       "The hierarchical multiprocessor (seed 004 §4): synthetic programs from stochastic behaviour models run on a tree "
       "of control subsystems that grasp and migrate task packets: execution time against the ideal execution, "
       "utilization, occupancy and traffic per level; sweeps over system sizes (Figures 19-20); generate a program to re-run.",
       declare_hierarchy_command},
      {"fit",
       "Fit a complexity formula to measurements: constants with standard errors, quality (RSS, R², SMAPE, "
       "leave-one-out SMAPE) and intervals of validity; without a formula, search the performance model normal form.",
       declare_fit_command},
      {"predict",
       "Fit as 'augur fit' does, then predict the metric at new points, with prediction intervals (for a new "
       "measurement) and the interval of validity whose constants were used.",
       declare_predict_command},
      {"plot",
       "Fit as 'augur fit' does and draw the measurements (with the range of their repetitions), the model and "
       "its prediction interval, extrapolated beyond the data, through gnuplot (SVG or PNG).",
       declare_plot_command},
      {"gen-tasks",
       "Write a random series-parallel task system in the TSPP language (seeded: the same options give the "
       "same file), for 'augur tspp' and 'augur sim'.",
       declare_gen_tasks_command},
      {"bsp",
       "Predict a BSP program's time from its superstep trace with OBSP* (oblivious synchronisation, "
       "partitions) and with classical BSP (global barriers), against the measured times.",
       declare_bsp_command},
      {"cc",
       "Translate the CALL pragmas of a C or C++ source ('#pragma cll NAME FORMULA' ... '#pragma cll end NAME', "
       "'#pragma cll report all|NAMES', '#pragma parallel MPI [COMM]') into calls to libaugur, check them, or compile "
       "through them:\n"
       "  augur cc FILE [-o OUT]\n"
       "  augur cc --check FILE...\n"
       "  augur cc [--keep] [--include-dir D] [--library-dir D] -- COMPILER ARGS...",
       declare_cc_command},
      {"run",
       "Run an unmodified OpenMP program (gcc -fopenmp: under libaugur_preload.so; clang -fopenmp: under the OMPT tool "
       "libaugur_ompt.so): find its iterative parallel region by itself, measure its speedup and predict its execution "
       "time.",
       declare_run_command},
      {"couple",
       "Kernel coupling (seed 002): measure an application's kernels alone, in chains and whole, predict its time from "
       "the coupling values, and reuse coupling values across processor counts, problem sizes and machines.",
       declare_couple_command},
      {"db", "The performance database: list, export, add and delete the stored coupling runs (docs/db.md).",
       declare_db_command},
      {"options",
       "List the options of augur's libraries in a program (libaugur, the coupling harness, augur run's preload): "
       "keys, variables, defaults, values; then the other AUGUR_* variables that augur, its libraries and its "
       "benchmarks read. "
       "Precedence: default < environment < API < tool channel (AUGUR_TOOL_OPTIONS).",
       declare_options_command},
      {"cache",
       "Cache simulation (docs/cache.md): exact trace-driven simulation of a cache hierarchy with the 3C (sim), the "
       "miss rate of every cache size in one pass (curve), a program model's address trace (trace), and its miss "
       "rates predicted without a trace by the seed's stochastic simulator (predict).",
       declare_cache_command},
      {"manager",
       "The processor manager (docs/manager.md): policies that share the machine among self-analysed programs by "
       "their measured speedups (equipartition, PDPA, equal efficiency, fixed, marginal gain, pdpa-lend, "
       "shortest-first, hesrpt-plan, rollout, rollout-arrivals, rollout-wide), the simulation of a workload under them (simulate), and the manager at run time (start, status, stop).",
       declare_manager_command},
      {"manage",
       "Run a workload of programs under a processor manager of its own (augur manage -- PROG ARGS ::: PROG ARGS): "
       "each job's response time, its allocations over time and its speedups.",
       declare_manage_command},
      {"report",
       "One self-contained HTML page from augur's JSON outputs or a performance database: speedup curves (TS and SA), "
       "fitted models with their measurements and extrapolation, coupling tables, task Gantt charts, simulator "
       "summaries; inline SVG charts, sortable tables, a summary in plain words (docs/report.md).",
       declare_report_command},
  };
  return table;
}

}  // namespace augur::cli
