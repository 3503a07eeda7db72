// Pages of the simulators: augur cache sim|curve|predict, actors simulate, hierarchy simulate|sweep,
// manager simulate and manage (--json of each).
#include <algorithm>
#include <cmath>
#include <map>

#include "builders.hpp"
#include "report/svg.hpp"

namespace augur::report {
namespace {

void add_cache_levels(Part& part, const View& cache, const std::string& what) {
  const View levels = cache["levels"];
  BarChart rates{"Miss rate per level", "miss rate", {"miss rate"}, {}, 640, 300};
  BarChart kinds{"Misses by cause (3C)", "misses", {"compulsory", "capacity", "conflict"}, {}, 640, 300};
  for (std::size_t index = 0; index < levels.size(); ++index) {
    const View level = levels[index];
    const std::string name = level["name"].text();
    const double rate = level["miss_rate"].number();
    std::string line = name + " (" + level.text_or("size", "?") + " B, " + level.text_or("assoc", "?") + "-way, lines of " +
                       level.text_or("line", "?") + " B): miss rate " + percent(rate, 3);
    if (level.has("compulsory")) {
      line += " (" + level.text_or("compulsory", "-") + " compulsory, " + level.text_or("capacity", "-") + " capacity, " +
              level.text_or("conflict", "-") + " conflict)";
      kinds.groups.push_back({name, {level["compulsory"].number(), level["capacity"].number(), level["conflict"].number()}});
    }
    part.summary(line);
    rates.groups.push_back({name, {rate}});
  }
  Section& section = part.section(what + ": the levels");
  section.svg(render_bars(rates));
  if (!kinds.groups.empty()) section.svg(render_bars(kinds));
  section.table(rows_table(levels, "Levels"));
  section.table(scalar_table(cache, "The simulation"));
}

// The processors a job held over time: a step function, the count holds until the next decision.
Series allocation_series(const std::string& name, int color, const View& steps) {
  Series series{name, {}, Mark::line, color, false};
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const double time = steps[k]["time"].number(), processors = steps[k]["processors"].number();
    if (!series.points.empty()) series.points.push_back({time, series.points.back().y, {}, {}});
    series.points.push_back({time, processors, {}, {}});
  }
  return series;
}

void add_cache_curve(Part& part, const View& curve) {
  const View points = curve["points"];
  std::map<std::string, Series> by_assoc;
  double largest = 0, rate_at_largest = NAN;
  for (std::size_t index = 0; index < points.size(); ++index) {
    const View point = points[index];
    const std::string assoc = point.text_or("assoc", "?");
    Series& series = by_assoc[assoc];
    if (series.name.empty()) series = Series{"associativity " + assoc, {}, Mark::line_points, static_cast<int>(by_assoc.size() - 1), false};
    const double size = point["size"].number(), rate = point["miss_rate"].number();
    series.points.push_back({size, rate, {}, {}});
    if (size >= largest) {
      largest = size;
      rate_at_largest = rate;
    }
  }
  part.summary("miss-rate curve by " + curve.text_or("method", "?") + " over " + curve.text_or("accesses", "?") + " accesses, lines of " +
               curve.text_or("line", "?") + " B: " + std::to_string(points.size()) + " cache sizes, miss rate " +
               percent(rate_at_largest, 3) + " at " + format_number(largest) + " B");
  Section& section = part.section("Miss-rate curve");
  Chart chart{"Miss rate against cache size", {"cache size (bytes)", true, {}, {}}, {"miss rate", false, 0.0, {}}, {}, {}, 640, 360};
  for (auto& [assoc, series] : by_assoc) chart.series.push_back(series);
  section.svg(render_chart(chart));
  section.table(rows_table(points, "Points of the curve"));
  section.table(scalar_table(curve, "The method"));
}

}  // namespace

void add_cache(Part& part, const View& cache, int which) {
  if (which == 1) return add_cache_curve(part, cache);
  add_cache_levels(part, cache, which == 0 ? "Cache simulation" : "Cache prediction (" + cache.text_or("method", "?") + ")");
  if (which == 2) {
    const View references = cache["references"];
    Table table{"References: hit probability per level", {"id", "location", "statement", "accesses", "hit probability"}, {}};
    for (std::size_t index = 0; index < references.size(); ++index) {
      const View reference = references[index];
      const auto hits = reference.find("hit_probability");
      table.rows.push_back({number_cell(reference.maybe("id")), text_cell(reference.text_or("location", "-")),
                            text_cell(reference.text_or("statement", "-")), number_cell(reference.maybe("accesses")),
                            text_cell(hits ? scalar_text(hits->json()) : "-")});
    }
    part.page.sections.back().table(std::move(table));
  }
}

void add_actors(Part& part, const View& actors) {
  const View sites = actors["sites"], links = actors["links"], players = actors["players"];
  part.summary("execution time " + format_number(actors["time"].number()) + ", " + actors.text_or("messages", "?") + " messages, " +
               std::to_string(players.size()) + " players on " + std::to_string(sites.size()) + " sites");
  double busiest = 0, total = 0;
  BarChart utilization{"Utilization per site", "utilization", {"utilization"}, {}, 680, 300};
  for (std::size_t index = 0; index < sites.size(); ++index) {
    const double value = sites[index]["utilization"].number();
    busiest = std::max(busiest, value);
    total += value;
    utilization.groups.push_back({sites[index].text_or("site", std::to_string(index)), {value}});
  }
  if (sites.size() > 0) {
    part.summary("site utilization: mean " + percent(total / static_cast<double>(sites.size()), 2) + ", busiest " + percent(busiest, 2));
  }
  if (const auto deadlock = actors.find("deadlock"); deadlock && deadlock->size() > 0) {
    part.summary("deadlock: " + std::to_string(deadlock->size()) + " players blocked at the end");
  }
  Section& section = part.section("Sites, links and players");
  section.svg(render_bars(utilization));
  section.table(rows_table(sites, "Sites"));
  section.table(rows_table(links, "Links"));
  section.table(rows_table(players, "Players"));
  if (const auto partners = actors.find("partners")) section.table(rows_table(*partners, "Who talks to whom"));
}

void add_hierarchy_simulate(Part& part, const View& hierarchy) {
  const double time = hierarchy["time"].number(), ideal = hierarchy["ideal_time"].number();
  std::string line = "execution time " + format_number(time) + " against the ideal " + format_number(ideal) + ": ratio " +
                     format_number(hierarchy["ratio"].number(), 4);
  if (const auto ci = hierarchy.find("ratio_ci"); ci && ci->size() == 2) {
    line += " (95% interval " + format_number((*ci)[0].number(), 4) + " to " + format_number((*ci)[1].number(), 4) + ")";
  }
  part.summary(line + ", " + hierarchy.text_or("replications", "?") + " replications of " + hierarchy.text_or("source", "?"));
  const View levels = hierarchy["levels"];
  Section& section = part.section("Levels of the hierarchy");
  BarChart occupancy{"Occupancy share and utilization per level", "fraction", {"occupancy share", "utilization"}, {}, 640, 300};
  for (std::size_t index = 0; index < levels.size(); ++index) {
    const View level = levels[index];
    occupancy.groups.push_back({"level " + level.text_or("level", "?"),
                                {level.maybe("occupancy_share").value_or(NAN), level.maybe("utilization").value_or(NAN)}});
  }
  section.svg(render_bars(occupancy));
  section.table(rows_table(levels, "Levels"));
  if (const auto processors = hierarchy.find("processor_utilization")) {
    BarChart bars{"Utilization per processor", "utilization", {"utilization"}, {}, 720, 300};
    double sum = 0;
    for (std::size_t index = 0; index < processors->size(); ++index) {
      const double value = (*processors)[index].number();
      sum += value;
      bars.groups.push_back({std::to_string(index), {value}});
    }
    if (processors->size() > 0) part.summary("mean processor utilization " + percent(sum / static_cast<double>(processors->size()), 2));
    section.svg(render_bars(bars));
  }
  section.table(scalar_table(hierarchy, "The simulation"));
}

void add_hierarchy_sweep(Part& part, const View& sweep) {
  const View points = sweep["points"];
  std::map<std::string, Series> curves;
  Table table{"Points of the sweep", {"model", "fanout", "processors", "time", "ideal time", "ratio", "95% low", "95% high"}, {}};
  std::optional<std::pair<std::string, double>> worst;
  for (std::size_t index = 0; index < points.size(); ++index) {
    const View point = points[index];
    const std::string name = point.text_or("model", "?") + ", fanout " + point.text_or("fanout", "?");
    Series& series = curves[name];
    if (series.name.empty()) series = Series{name, {}, Mark::error_bars, static_cast<int>(curves.size() - 1), false};
    const double processors = point["processors"].number(), ratio = point["ratio"]["mean"].number();
    std::optional<double> low, high;
    if (const auto ci = point.find("ratio_ci"); ci && ci->size() == 2) {
      low = (*ci)[0].number();
      high = (*ci)[1].number();
    }
    series.points.push_back({processors, ratio, low, high});
    if (!worst || ratio > worst->second) worst = {{name + " on " + format_number(processors) + " processors", ratio}};
    table.rows.push_back({text_cell(point.text_or("model", "?")), number_cell(point.maybe("fanout")), number_cell(processors),
                          number_cell(point["time"]["mean"].number()), number_cell(point["ideal_time"]["mean"].number()),
                          number_cell(ratio), number_cell(low), number_cell(high)});
  }
  part.summary(std::to_string(points.size()) + " points, " + std::to_string(curves.size()) + " curves, " + sweep.text_or("replications", "?") +
               " replications each");
  if (worst) part.summary("farthest from the ideal: " + worst->first + ", ratio " + format_number(worst->second, 4));
  Section& section = part.section("Execution time over the ideal, against system size");
  Chart chart{"Ratio to the ideal execution (95% intervals)", {"processors", true, {}, {}}, {"time / ideal time", false, {}, {}}, {}, {}, 680, 380};
  for (auto& [name, series] : curves) {
    Series line = series;
    line.name.clear();
    line.mark = Mark::line;
    chart.series.push_back(line);
    chart.series.push_back(series);
  }
  section.svg(render_chart(chart));
  section.table(std::move(table));
}

void add_manager_simulate(Part& part, const View& manager) {
  const View jobs = manager["jobs"];
  part.summary("policy " + manager.text_or("policy", "?") + " on " + manager.text_or("cpus", "?") + " processors: makespan " +
               format_number(manager["makespan"].number()) + ", mean response time " + format_number(manager["mean_response_time"].number()) +
               ", utilization " + percent(manager.maybe("utilization").value_or(NAN), 2) + ", mean efficiency " +
               percent(manager.maybe("mean_efficiency").value_or(NAN), 2));
  Section& section = part.section("Jobs");
  Gantt gantt{"Jobs: arrival to start (waiting), start to finish", "time", {}, 760};
  Chart allocations{"Processors allocated to each job", {"time", false, {}, {}}, {"processors", false, 0.0, {}, true}, {}, {}, 680, 340};
  for (std::size_t index = 0; index < jobs.size(); ++index) {
    const View job = jobs[index];
    const std::string name = job["name"].text();
    const double arrival = job.maybe("arrival").value_or(0), start = job["start"].number(), finish = job["finish"].number();
    if (start > arrival) gantt.bars.push_back({name, arrival, start, "waiting"});
    gantt.bars.push_back({name, start, finish, "efficiency " + percent(job.maybe("efficiency").value_or(NAN), 2)});
    if (const auto steps = job.find("allocations")) allocations.series.push_back(allocation_series(name, static_cast<int>(index), *steps));
  }
  section.svg(render_gantt(gantt));
  if (!allocations.series.empty()) section.svg(render_chart(allocations));
  section.table(rows_table(jobs, "Jobs"));
  section.table(scalar_table(manager, "The simulation"));
}

void add_manage(Part& part, const View& manage) {
  const View jobs = manage["jobs"];
  part.summary("policy " + manage.text_or("policy", "?") + " on " + manage.text_or("cpus", "?") + " processors: " +
               std::to_string(jobs.size()) + " programs, makespan " + format_number(manage["makespan"].number(), 3) +
               " s, mean response time " + format_number(manage.maybe("mean_response_time").value_or(NAN), 3) + " s");
  Section& section = part.section("Programs under the manager");
  Chart allocations{"Processors allocated to each program", {"seconds", false, {}, {}}, {"processors", false, 0.0, {}, true}, {}, {}, 680, 340};
  Gantt gantt{"Programs: first allocation to end", "seconds", {}, 760};
  Table table{"Programs", {"program", "pid", "requested", "iterations", "response time (s)", "exit status"}, {}};
  for (std::size_t index = 0; index < jobs.size(); ++index) {
    const View job = jobs[index];
    const std::string command = job.find("command") ? joined_words(*job.find("command")) : "?";
    const std::string name = command + " (" + job.text_or("pid", "?") + ")";
    if (const auto steps = job.find("allocations")) {
      allocations.series.push_back(allocation_series(name, static_cast<int>(index), *steps));
      if (steps->size() > 0) {
        const double first = (*steps)[0]["time"].number();
        gantt.bars.push_back({name, first, first + job.maybe("response_time").value_or(0), "exit status " + job.text_or("exit_status", "-")});
      }
    }
    table.rows.push_back({text_cell(command), number_cell(job.maybe("pid"), 10), number_cell(job.maybe("requested")),
                          number_cell(job.maybe("iterations")), number_cell(job.maybe("response_time")), text_cell(job.text_or("exit_status", "-"))});
  }
  section.svg(render_chart(allocations));
  if (!gantt.bars.empty()) section.svg(render_gantt(gantt));
  section.table(std::move(table));
  if (const auto log = manage.find("log")) section.table(rows_table(*log, "The manager's decisions"));
}

}  // namespace augur::report
