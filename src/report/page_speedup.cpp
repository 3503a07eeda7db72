// Pages of the self-analysis report (libaugur's AUGUR_REPORT, augur run --json) and of augur speedup --json.
#include <algorithm>
#include <cmath>

#include "augur/core/stats.hpp"
#include "builders.hpp"
#include "report/svg.hpp"

namespace augur::report {
namespace {

// S(p) = 1 / (f + (1 - f) / p), Amdahl's law with the sequential fraction f (thesis Fig. 4.5).
double amdahl(double f, double p) {
  return 1.0 / (f + (1.0 - f) / p);
}

// The plain line of one speedup: "S(2) = 1.59, efficiency 80%, f = 0.26, Amdahl limit 3.8".
std::string speedup_line(double p, double speedup, std::optional<double> f) {
  std::string line = "S(" + format_number(p) + ") = " + format_number(speedup, 3) + ", efficiency " +
                     percent(speedup / p, 2);
  if (f) {
    line += ", f = " + format_number(*f, 2);
    line += *f > 0 ? ", Amdahl limit " + format_number(1.0 / *f, 3) : ", no Amdahl limit (f = 0)";
  }
  return line;
}

Series ideal_series(double largest) {
  Series ideal{"ideal S(p) = p", {}, Mark::line, 6, true};
  ideal.points = {{1, 1, {}, {}}, {largest, largest, {}, {}}};
  return ideal;
}

void add_region(Part& part, const View& region, double allocated) {
  const bool outer = region.text_or("kind", "loops") == "outer";
  const std::string name = "region " + region.text_or("id", "?") + (outer ? " (one outer parallel region)" : "");
  Section& section = part.section("Speedup of " + name);
  const std::optional<double> f = region.maybe("f");
  const View speedups = region["speedup"];
  Series history{"S(p), history applied", {}, Mark::line_points, 0, false};
  Series mean{"S(p), mean over the run", {}, Mark::points, 1, false};
  Series median{"median over windows, 95% interval", {}, Mark::error_bars, 2, false};
  Series tuning{"ST'(p), self-tuning", {}, Mark::points, 4, false};
  double largest = 1;
  std::optional<std::pair<double, double>> at_allocated, best;
  for (std::size_t index = 0; index < speedups.size(); ++index) {
    const View entry = speedups[index];
    const double p = entry["p"].number();
    largest = std::max(largest, p);
    const std::optional<double> value = entry.maybe("value");
    if (value) {
      history.points.push_back({p, *value, {}, {}});
      if (p == allocated) at_allocated = {{p, *value}};
      if (!best || p > best->first) best = {{p, *value}};
    }
    if (const auto m = entry.maybe("mean_value")) mean.points.push_back({p, *m, {}, {}});
    if (const auto m = entry.maybe("median_value")) {
      Point point{p, *m, {}, {}};
      if (const auto interval = entry.find("interval"); interval && interval->size() == 2) {
        point.low = (*interval)[0].maybe();
        point.high = (*interval)[1].maybe();
      }
      median.points.push_back(point);
    }
    if (const auto st = entry.maybe("self_tuning")) tuning.points.push_back({p, *st, {}, {}});
  }
  const auto shown = at_allocated ? at_allocated : best;
  if (shown) {
    part.summary(name + ": " + speedup_line(shown->first, shown->second, f));
  } else {
    part.summary(name + ": no speedup calculated");
  }
  if (const auto noise = region.find("noise")) part.summary(name + ": " + noise->text_or("verdict", "-"));
  Chart chart{"Speedup of " + name, {"processors p", false, {}, {}, true}, {"speedup S(p)", false, {}, {}}, {}, {}, 640, 380};
  if (largest > 1) chart.series.push_back(ideal_series(largest));
  if (f && largest > 1) {
    Series law{"Amdahl, f = " + format_number(*f, 2), {}, Mark::line, 5, true};
    for (double p = 1; p <= largest + 1e-9; p += std::max(1.0, largest / 32)) law.points.push_back({p, amdahl(*f, p), {}, {}});
    chart.series.push_back(law);
  }
  for (Series* series : {&history, &mean, &median, &tuning}) {
    if (!series->points.empty()) chart.series.push_back(*series);
  }
  section.svg(render_chart(chart));
  section.table(rows_table(speedups, "Speedup per processor count"));
  section.table(scalar_table(region, "The region"));
  if (const auto noise = region.find("noise")) {
    section.paragraph("Noise: " + noise->text_or("verdict", "-"));
    if (const auto reasons = noise->find("reasons")) {
      for (std::size_t index = 0; index < reasons->size(); ++index) section.paragraph("- " + (*reasons)[index].text());
    }
  }
  if (const auto notes = region.find("notes")) {
    for (std::size_t index = 0; index < notes->size(); ++index) section.paragraph("Note: " + (*notes)[index].text());
  }
}

}  // namespace

void add_self_analysis(Part& part, const View& report) {
  const double allocated = report["allocated_processors"].number();
  const View regions = report["regions"];
  const std::string program = report["program"].text();
  part.summary(program + " on " + format_number(allocated) + " of " + report.text_or("available_processors", "?") +
               " processors, " + std::to_string(regions.size()) + (regions.size() == 1 ? " region" : " regions") +
               " (mode " + report.text_or("mode", "?") + ")");
  if (const auto wall = report.maybe("program_wall_time_s")) {
    part.summary("wall time " + format_number(*wall, 3) + " s, exit status " + report.text_or("exit_code", "-"));
  }
  if (const auto machine = report.find("machine"); machine && machine->is_object()) {
    if (machine->has("oversubscribed") && (*machine)["oversubscribed"].json() == true) {
      part.summary("the machine was oversubscribed (load average " + machine->text_or("load_average_start", "-") +
                   " at the start, " + machine->text_or("load_average_end", "-") + " at the end)");
    }
  }
  for (std::size_t index = 0; index < regions.size(); ++index) add_region(part, regions[index], allocated);
  Section& run = part.section("The run");
  run.table(scalar_table(report, "Program and machine"));
  if (const auto config = report.find("config")) run.table(scalar_table(*config, "Configuration of the self-analyzer"));
  if (const auto machine = report.find("machine")) run.table(scalar_table(*machine, "The machine during the run"));
  if (const auto interpose = report.find("interpose")) {
    run.table(scalar_table(*interpose, "Dynamic instrumentation (augur run)"));
    if (const auto found = interpose->find("regions")) {
      Table loops{"Regions the periodicity detector found, and their loops", {"region", "length", "iterations", "loop", "module"}, {}};
      for (std::size_t index = 0; index < found->size(); ++index) {
        const View region = (*found)[index];
        const auto region_loops = region.find("loops");
        for (std::size_t loop = 0; region_loops && loop < region_loops->size(); ++loop) {
          loops.rows.push_back({text_cell(region.text_or("id", "-")), number_cell(region.maybe("length")),
                                number_cell(region.maybe("iterations")), text_cell((*region_loops)[loop].text_or("name", "-")),
                                text_cell((*region_loops)[loop].text_or("module", "-"))});
        }
      }
      run.table(std::move(loops));
    }
  }
  if (const auto notes = report.find("notes")) {
    for (std::size_t index = 0; index < notes->size(); ++index) run.paragraph("Note: " + (*notes)[index].text());
  }
}

void add_speedup(Part& part, const View& speedup) {
  const View points = speedup["points"];
  Series ts{"TS (traditional), range of runs", {}, Mark::error_bars, 0, false};
  Series ts_line{"", {}, Mark::line, 0, false};
  Series sa{"SA(N exec), range of runs", {}, Mark::error_bars, 1, false};
  Series sa_line{"", {}, Mark::line, 1, false};
  Series sa1{"SA(1 exec)", {}, Mark::line_points, 2, true};
  Series st{"ST' (self-tuning)", {}, Mark::points, 4, false};
  Series time{"wall time", {}, Mark::line_points, 0, false};
  Series time_sa{"wall time with the self-analyzer", {}, Mark::line_points, 1, false};
  Series region_time{"region time", {}, Mark::line_points, 2, false};
  double largest = 1;
  std::optional<View> last;
  for (std::size_t index = 0; index < points.size(); ++index) {
    const View point = points[index];
    const double p = point["p"].number();
    largest = std::max(largest, p);
    if (!last || p >= (*last)["p"].number()) last = point;
    if (const auto value = point.maybe("ts")) {
      ts.points.push_back({p, *value, point.maybe("ts_min"), point.maybe("ts_max")});
      ts_line.points.push_back({p, *value, {}, {}});
    }
    if (const auto value = point.maybe("sa_n")) {
      sa.points.push_back({p, *value, point.maybe("sa_n_min"), point.maybe("sa_n_max")});
      sa_line.points.push_back({p, *value, {}, {}});
    }
    if (const auto value = point.maybe("sa_1")) sa1.points.push_back({p, *value, {}, {}});
    if (const auto value = point.maybe("st")) st.points.push_back({p, *value, {}, {}});
    if (const auto value = point.maybe("time_s")) time.points.push_back({p, *value, {}, {}});
    if (const auto value = point.maybe("time_sa_s")) time_sa.points.push_back({p, *value, {}, {}});
    if (const auto value = point.maybe("region_time_s")) region_time.points.push_back({p, *value, {}, {}});
  }
  const std::string command = speedup.find("command") ? joined_words(*speedup.find("command")) : "?";
  part.summary(command + ": " + std::to_string(points.size()) + " thread counts up to " + format_number(largest));
  if (last) {
    const double p = (*last)["p"].number();
    if (const auto value = last->maybe("ts"); value && p > 1) {
      // f from the measured speedup by the plain verdict's rule (Karp and Flatt; none below S = 1, 0 above p).
      const double f = core::karp_flatt_fraction(*value, static_cast<int>(p));
      part.summary("TS: " + speedup_line(p, *value, f >= 0 ? std::optional<double>(f) : std::nullopt) +
                   " (f from TS by Karp and Flatt)");
    }
    if (const auto value = last->maybe("sa_n")) part.summary("SA(N exec): " + speedup_line(p, *value, std::nullopt));
  }
  if (const auto verdict = speedup.find("noise_verdict")) part.summary(verdict->text());
  Section& section = part.section("Speedup: traditional (TS) and self-analysis (SA) side by side");
  Chart chart{"Speedup against thread count", {"threads p", false, {}, {}, true}, {"speedup", false, {}, {}}, {}, {}, 640, 380};
  if (largest > 1) chart.series.push_back(ideal_series(largest));
  for (Series* series : {&ts_line, &ts, &sa_line, &sa, &sa1, &st}) {
    if (!series->points.empty()) chart.series.push_back(*series);
  }
  section.svg(render_chart(chart));
  Chart times{"Times against thread count", {"threads p", false, {}, {}, true}, {"seconds", false, {}, {}}, {}, {}, 640, 320};
  for (Series* series : {&time, &time_sa, &region_time}) {
    if (!series->points.empty()) times.series.push_back(*series);
  }
  section.svg(render_chart(times));
  section.table(rows_table(points, "Per thread count (JSON names)"));
  section.table(scalar_table(speedup, "The measurement"));
  if (const auto notes = speedup.find("notes")) {
    for (std::size_t index = 0; index < notes->size(); ++index) section.paragraph("Note: " + (*notes)[index].text());
  }
}

}  // namespace augur::report
