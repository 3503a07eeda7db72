// augur fit / predict / plot: complexity formulas fitted to measurements (seed 001's llac).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "model_common.hpp"

namespace augur::cli {

CLI::App* add_fit_command(CLI::App& app, ModelCommandOptions& options);
int run_fit_command(const ModelCommandOptions& options);

struct PredictOptions {
  ModelCommandOptions model;
  std::vector<std::string> at;    // "p=256,n=1024"
  std::vector<std::string> grid;  // "p=64:1024:*2", "n=100,200"
  double confidence = 0.95;
};
CLI::App* add_predict_command(CLI::App& app, PredictOptions& options);
int run_predict_command(const PredictOptions& options);

struct PlotOptions {
  ModelCommandOptions model;
  std::string output;
  std::string x;  // the parameter on the x axis
  double extend = 2.0;
  double confidence = 0.95;
};
CLI::App* add_plot_command(CLI::App& app, PlotOptions& options);
int run_plot_command(const PlotOptions& options);

}  // namespace augur::cli
