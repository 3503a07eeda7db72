#include "fit_command.hpp"

#include <cstdio>

#include "command.hpp"
#include "core/table.hpp"
#include "core/csv.hpp"
#include "core/json_text.hpp"
#include "flags.hpp"

namespace augur::cli {

void add_fit_options(CLI::App* command, ModelCommandOptions& options) {
  add_model_options(*command, options);
  add_csv_flag(*command, options.csv, "CSV instead of the tables: one line per constant of each segment");
  command->footer("Examples:\n"
                  "  augur fit times.csv                                   search a model per region and metric\n"
                  "  augur fit fft.csv --formula 'f[0] + f[1]*log(P) + f[2]*(N/P)*log(N/P) + f[3]*N*(P-1)/P'\n"
                  "  augur fit sizes.csv --formula 'c[0] + c[1]*n' --segments auto\n"
                  "Guide: docs/fit.md; methods: docs/modeling.md; formats: docs/formats.md");
}

namespace {

// --csv: region,metric,segment,formula,constant,value,std_error,r2,smape_percent (segment counts from 1; the last two
// are the whole series' quality, repeated on its lines).
std::string render_fit_csv(const std::vector<FittedSeries>& fitted) {
  using core::csv_field;
  using core::csv_number;
  std::string out = core::csv_record({"region", "metric", "segment", "formula", "constant", "value", "std_error", "r2", "smape_percent"});
  for (const FittedSeries& series : fitted) {
    if (!series.error.empty()) continue;
    const model::SeriesModel& model = series.model;
    for (std::size_t index = 0; index < model.segmentation.segments.size(); ++index) {
      const model::Segment& segment = model.segmentation.segments[index];
      const model::Formula& formula = model::segment_formula(model, index);
      for (std::size_t term = 0; term < formula.terms().size(); ++term) {
        out += core::csv_record({csv_field(model.region), csv_field(model.metric), std::to_string(index + 1), csv_field(formula.text()),
                                 csv_field(formula.terms()[term].constant), csv_number(segment.fit.constants(static_cast<Eigen::Index>(term))),
                                 csv_number(segment.fit.standard_errors(static_cast<Eigen::Index>(term))), csv_number(model.r2),
                                 csv_number(model.smape)});
      }
    }
  }
  return out;
}

void print_series(const FittedSeries& fitted) {
  std::printf("%s · %s\n", fitted.region.c_str(), fitted.metric.c_str());
  if (!fitted.error.empty()) {
    std::printf("  not modeled: %s\n\n", fitted.error.c_str());
    return;
  }
  const model::SeriesModel& model = fitted.model;
  double spread = 0.0;
  for (double value : model.spread) spread = std::max(spread, value);
  std::printf("  %zu point%s over %s", model.points.size(), model.points.size() == 1 ? "" : "s", model.parameters.empty() ? "no parameter" : "");
  for (std::size_t p = 0; p < model.parameters.size(); ++p) std::printf("%s%s", p ? ", " : "", model.parameters[p].c_str());
  if (spread > 0) std::printf("; repetitions spread up to %s%%", significant(100.0 * spread, 3).c_str());
  std::printf("\n");
  std::printf("  formula   %s%s\n", model.pieces.empty() ? model.formula.text().c_str() : "one per segment",
              model.searched ? ("   (found among " + std::to_string(model.hypotheses) + " hypotheses)").c_str() : "");
  const auto& segments = model.segmentation.segments;
  for (std::size_t index = 0; index < segments.size(); ++index) {
    const model::Segment& segment = segments[index];
    std::vector<double> constants(segment.fit.constants.data(), segment.fit.constants.data() + segment.fit.constants.size());
    const model::Formula& formula = model::segment_formula(model, index);
    if (segments.size() > 1) std::printf("  segment %zu: %s (%zu points)\n", index + 1, segment_bounds(model, segment).c_str(), segment.members.size());
    if (!model.pieces.empty()) std::printf("  formula   %s\n", formula.text().c_str());
    std::printf("  model     %s\n", formula.with_values(constants, core::ExpressionStyle::Readable).c_str());
    std::printf("  python    %s\n", model::python_text(model, constants, index).c_str());
    core::TextTable table({"  constant", "value", "std. error", "relative"});
    for (std::size_t term = 0; term < formula.terms().size(); ++term) {
      const double value = constants[term];
      const double error = segment.fit.standard_errors(static_cast<Eigen::Index>(term));
      table.add_row({"  " + formula.terms()[term].constant, significant(value, 6), significant(error, 3),
                     value != 0 && std::isfinite(error) ? significant(100.0 * std::fabs(error / value), 3) + "%" : "-"});
    }
    std::printf("%s", table.render().c_str());
  }
  auto percent = [](double value) { return std::isfinite(value) ? significant(value, 3) + "%" : std::string("-"); };
  std::printf("  RSS %s   R² %s   adjusted R² %s   SMAPE %s   leave-one-out SMAPE %s\n", significant(model.rss, 4).c_str(),
              significant(model.r2, 6).c_str(), significant(model.adjusted_r2, 6).c_str(), percent(model.smape).c_str(),
              percent(model.loo_smape).c_str());
  for (const std::string& note : model.notes) std::printf("  note: %s\n", note.c_str());
  const std::size_t wanted = 5 * std::max<std::size_t>(1, model.parameters.size());
  if (model.searched && model.points.size() < wanted) {
    std::printf("  note: %zu points are few for a search over %zu parameter(s) (Extra-P asks for 5 per parameter): "
                "treat the model as a guess, or give --formula\n", model.points.size(), model.parameters.size());
  }
  std::printf("\n");
}

}  // namespace

int run_fit_command(const ModelCommandOptions& options) {
  try {
    const std::vector<FittedSeries> fitted = fit_all(options, "augur fit");
    int failures = 0;
    if (options.json) {
      nlohmann::json json;
      json["data"] = options.data;
      json["models"] = nlohmann::json::array();
      json["errors"] = nlohmann::json::array();
      for (const FittedSeries& series : fitted) {
        if (series.error.empty()) json["models"].push_back(series_json(series.model));
        else json["errors"].push_back({{"region", series.region}, {"metric", series.metric}, {"message", series.error}}), ++failures;
      }
      std::printf("%s\n", core::json_text(json, 2).c_str());
    } else if (options.csv) {
      std::printf("%s", render_fit_csv(fitted).c_str());
      for (const FittedSeries& series : fitted) failures += series.error.empty() ? 0 : 1;
    } else {
      for (const FittedSeries& series : fitted) {
        print_series(series);
        failures += series.error.empty() ? 0 : 1;
      }
    }
    for (const FittedSeries& series : fitted) {
      if (!series.error.empty()) std::fprintf(stderr, "augur fit: %s · %s: %s\n", series.region.c_str(), series.metric.c_str(), series.error.c_str());
    }
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    return report_error("fit", error);
  }
}

Runner declare_fit_command(CLI::App& command) {
  auto options = std::make_shared<ModelCommandOptions>();
  add_fit_options(&command, *options);
  return [options] { return run_fit_command(*options); };
}

}  // namespace augur::cli
