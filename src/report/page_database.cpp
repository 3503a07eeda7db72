// The page of a performance database (augur db): its tables, the coupling value of each chain in each run,
// and each stored run predicted from the others as augur couple predict predicts it (the command attaches
// "predictions", src/cli/report_inputs.cpp), against its measured time.
#include <algorithm>
#include <cmath>
#include <map>

#include "builders.hpp"
#include "report/svg.hpp"

namespace augur::report {
namespace {

// A prediction ({method, length, seconds, error}) of an entry, or nothing.
struct Predicted {
  std::optional<double> seconds, error;
};

Predicted predicted(const std::optional<View>& prediction) {
  if (!prediction || !prediction->is_object()) return {};
  return {prediction->maybe("seconds"), prediction->maybe("error")};
}

// The chosen source of an isocoupling (the first of "reuse", marked chosen), or none.
std::optional<View> chosen_reuse(const View& entry) {
  const auto reuse = entry.find("reuse");
  if (!reuse || reuse->size() == 0) return std::nullopt;
  return (*reuse)[0];
}

std::optional<double> error_percent(std::optional<double> error) {
  return error ? std::optional<double>(*error * 100) : std::nullopt;
}

struct Means {
  double reuse = 0, summation = 0;
  int runs = 0;
};

// The chart of predicted against measured time: one series per predictor, and the diagonal.
void add_prediction_chart(Section& section, const View& predictions) {
  Series reuse{"isocoupling (augur couple predict)", {}, Mark::points, 0, false};
  Series summation{"summation of the kernels alone", {}, Mark::points, 1, false};
  Series own{"coupling, the run's own chains", {}, Mark::points, 2, false};
  double low = INFINITY, high = -INFINITY;
  for (std::size_t index = 0; index < predictions.size(); ++index) {
    const View entry = predictions[index];
    const auto measured = entry.find("measured");
    const std::optional<double> seconds = measured && measured->is_object() ? measured->maybe("seconds") : std::nullopt;
    if (!seconds) continue;
    const std::pair<Series*, Predicted> all[] = {{&reuse, predicted(chosen_reuse(entry))},
                                                 {&summation, predicted(entry.find("summation"))},
                                                 {&own, predicted(entry.find("own"))}};
    for (const auto& [series, value] : all) {
      if (!value.seconds) continue;
      series->points.push_back({*seconds, *value.seconds, {}, {}});
      low = std::min({low, *seconds, *value.seconds});
      high = std::max({high, *seconds, *value.seconds});
    }
  }
  if (reuse.points.empty() && summation.points.empty() && own.points.empty()) {
    section.paragraph("No stored run has both a measured time and a prediction: nothing to chart.");
    return;
  }
  const bool logarithmic = low > 0 && high / low >= 8;
  Chart chart{"Predicted against measured time of the application's loop", {"measured (s)", logarithmic, {}, {}},
              {"predicted (s)", logarithmic, {}, {}}, {}, {}, 640, 400};
  chart.series.push_back({"predicted = measured", {{low, low, {}, {}}, {high, high, {}, {}}}, Mark::line, 6, true});
  for (Series* series : {&reuse, &summation, &own}) {
    if (!series->points.empty()) chart.series.push_back(*series);
  }
  section.svg(render_chart(chart));
}

void add_predictions(Part& part, const View& predictions) {
  Section& section = part.section("Predictions: each stored run from the coupling values of the others");
  section.paragraph("What augur couple predict --target-run ID gives for each stored run: its time predicted from its "
                    "kernels alone and the coupling values of the nearest other stored configuration (isocoupling), "
                    "beside the summation of its kernels and the coupling values of its own chains.");
  Table table{"Predictions (seconds of the application's loop; errors against the measured time)",
              {"run", "application", "dataset", "processors", "measured", "isocoupling", "isocoupling error %", "from", "k",
               "summation", "summation error %", "own coupling", "own error %"},
              {}};
  Means means;
  std::size_t predicted_runs = 0;
  for (std::size_t index = 0; index < predictions.size(); ++index) {
    const View entry = predictions[index];
    const std::string run = entry.text_or("source", "?");
    if (const auto why = entry.find("not_predicted")) {
      section.paragraph(run + ": not predicted: " + why->text());
      continue;
    }
    const auto target = entry.find("target");
    const auto measured = entry.find("measured");
    const std::optional<double> seconds = measured && measured->is_object() ? measured->maybe("seconds") : std::nullopt;
    const auto source = chosen_reuse(entry);
    const Predicted reuse = predicted(source), summation = predicted(entry.find("summation")), own = predicted(entry.find("own"));
    if (source) ++predicted_runs;
    if (reuse.error && summation.error) {
      means.reuse += std::fabs(*reuse.error);
      means.summation += std::fabs(*summation.error);
      ++means.runs;
    }
    table.rows.push_back({text_cell(run), text_cell(target ? target->text_or("application", "-") : "-"),
                          text_cell(target ? target->text_or("dataset", "-") : "-"), number_cell(target ? target->maybe("processors") : std::nullopt),
                          number_cell(seconds, 5), number_cell(reuse.seconds, 5), number_cell(error_percent(reuse.error), 3),
                          text_cell(source ? source->text_or("from", "-") : "none can lend its coupling values"),
                          number_cell(entry.maybe("length")), number_cell(summation.seconds, 5), number_cell(error_percent(summation.error), 3),
                          number_cell(own.seconds, 5), number_cell(error_percent(own.error), 3)});
  }
  std::string line = std::to_string(predicted_runs) + " of " + std::to_string(predictions.size()) +
                     " stored runs predicted from the others (augur couple predict)";
  if (means.runs > 0) {
    line += "; mean |error| " + percent(means.reuse / means.runs, 2) + " by isocoupling, " + percent(means.summation / means.runs, 2) +
            " by summation over " + std::to_string(means.runs) + (means.runs == 1 ? " measured run" : " measured runs");
  }
  part.summary(line);
  add_prediction_chart(section, predictions);
  section.table(std::move(table));
}

}  // namespace

void add_database(Part& part, const View& database) {
  const View tables = database["tables"];
  std::string counts;
  for (const auto& [name, rows] : tables.json().items()) {
    counts += (counts.empty() ? "" : ", ") + std::to_string(rows.size()) + " " + name;
  }
  part.summary("performance database " + database["augur_database"].text() + ": " + counts);
  if (const auto couplings = tables.find("couplings"); couplings && couplings->size() > 0) {
    std::vector<std::string> runs;
    std::map<std::string, std::map<std::string, double>> values;  // chain → run → coupling
    for (std::size_t index = 0; index < couplings->size(); ++index) {
      const View row = (*couplings)[index];
      const std::string run = "run " + row.text_or("run_id", "?");
      if (std::find(runs.begin(), runs.end(), run) == runs.end()) runs.push_back(run);
      values[row.text_or("kernels", "?")][run] = row["value"].number();
    }
    BarChart bars{"Coupling value per chain and run", "coupling", runs, {}, 680, 320};
    for (const auto& [chain, per_run] : values) {
      BarGroup group{chain, {}};
      for (const std::string& run : runs) group.values.push_back(per_run.count(run) ? per_run.at(run) : NAN);
      bars.groups.push_back(std::move(group));
    }
    part.section("Couplings").svg(render_bars(bars));
  }
  if (const auto predictions = database.find("predictions"); predictions && predictions->size() > 0) add_predictions(part, *predictions);
  for (const auto& [name, rows] : tables.json().items()) {
    Section& section = part.section("Table " + name);
    section.table(rows_table(tables[name], name));
  }
}

}  // namespace augur::report
