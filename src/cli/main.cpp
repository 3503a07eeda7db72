// augur: one binary, one subcommand per tool. Each command parses, calls an engine, prints.
#include <CLI/CLI.hpp>

#include "bsp_command.hpp"
#include "cc_command.hpp"
#include "couple_command.hpp"
#include "db_command.hpp"
#include "fit_command.hpp"
#include "gen_tasks_command.hpp"
#include "options_command.hpp"
#include "run_command.hpp"
#include "sim_command.hpp"
#include "speedup_command.hpp"
#include "tspp_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"augur predicts and explains the performance of parallel programs.\n"
               "Run 'augur <command> --help' for the options of a command; the guide is in docs/."};
  app.name("augur");
  app.set_version_flag("--version", std::string("augur ") + AUGUR_VERSION);
  app.require_subcommand(1);

  augur::cli::SpeedupOptions speedup;
  CLI::App* speedup_command = augur::cli::add_speedup_command(app, speedup);
  augur::cli::TsppOptions tspp;
  CLI::App* tspp_command = augur::cli::add_tspp_command(app, tspp);
  augur::cli::SimOptions sim;
  CLI::App* sim_command = augur::cli::add_sim_command(app, sim);
  augur::cli::ModelCommandOptions fit;
  CLI::App* fit_command = augur::cli::add_fit_command(app, fit);
  augur::cli::PredictOptions predict;
  CLI::App* predict_command = augur::cli::add_predict_command(app, predict);
  augur::cli::PlotOptions plot;
  CLI::App* plot_command = augur::cli::add_plot_command(app, plot);
  augur::cli::GenTasksOptions gen_tasks;
  CLI::App* gen_tasks_command = augur::cli::add_gen_tasks_command(app, gen_tasks);
  augur::cli::BspOptions bsp;
  CLI::App* bsp_command = augur::cli::add_bsp_command(app, bsp);
  augur::cli::CcOptions cc;
  CLI::App* cc_command = augur::cli::add_cc_command(app, cc);
  augur::cli::RunOptions run;
  CLI::App* run_command = augur::cli::add_run_command(app, run);
  augur::cli::CoupleOptions couple;
  CLI::App* couple_command = augur::cli::add_couple_command(app, couple);
  augur::cli::DbOptions db;
  CLI::App* db_command = augur::cli::add_db_command(app, db);
  augur::cli::OptionsCommandOptions options;
  CLI::App* options_command = augur::cli::add_options_command(app, options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  if (speedup_command->parsed()) return augur::cli::run_speedup_command(speedup);
  if (tspp_command->parsed()) return augur::cli::run_tspp_command(tspp);
  if (sim_command->parsed()) return augur::cli::run_sim_command(sim);
  if (fit_command->parsed()) return augur::cli::run_fit_command(fit);
  if (predict_command->parsed()) return augur::cli::run_predict_command(predict);
  if (plot_command->parsed()) return augur::cli::run_plot_command(plot);
  if (gen_tasks_command->parsed()) return augur::cli::run_gen_tasks_command(gen_tasks);
  if (bsp_command->parsed()) return augur::cli::run_bsp_command(bsp);
  if (cc_command->parsed()) return augur::cli::run_cc_command(cc);
  if (run_command->parsed()) return augur::cli::run_run_command(run);
  if (couple_command->parsed()) return augur::cli::run_couple_command(*couple_command, couple);
  if (db_command->parsed()) return augur::cli::run_db_command(db);
  if (options_command->parsed()) return augur::cli::run_options_command(options);
  return 2;
}
