// augur fit / predict / plot: complexity formulas fitted to measurements (seed 001's llac).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "model_common.hpp"

namespace augur::cli {

// Declares the options of `augur fit` on its subcommand (the table of commands.cpp makes it).
void add_fit_options(CLI::App* command, ModelCommandOptions& options);
int run_fit_command(const ModelCommandOptions& options);

struct PredictOptions {
  ModelCommandOptions model;
  std::vector<std::string> at;    // "p=256,n=1024"
  std::vector<std::string> grid;  // "p=64:1024:*2", "n=100,200"
  double confidence = 0.95;
};
// Declares the options of `augur predict` on its subcommand (the table of commands.cpp makes it).
void add_predict_options(CLI::App* command, PredictOptions& options);
int run_predict_command(const PredictOptions& options);

struct PlotOptions {
  ModelCommandOptions model;
  std::string output;
  std::string x;  // the parameter on the x axis
  double extend = 2.0;
  double confidence = 0.95;
};
// Declares the options of `augur plot` on its subcommand (the table of commands.cpp makes it).
void add_plot_options(CLI::App* command, PlotOptions& options);
int run_plot_command(const PlotOptions& options);

}  // namespace augur::cli
