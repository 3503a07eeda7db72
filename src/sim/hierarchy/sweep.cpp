// Sweeps over system sizes (sweep.hpp).
#include "sim/hierarchy/sweep.hpp"

#include <cstdint>

#include "augur/core/diagnostics.hpp"

namespace augur::sim::hierarchy {
namespace {

void put(std::vector<double>& values, const Statistic& statistic) {
  values.insert(values.end(), {static_cast<double>(statistic.count), statistic.mean, statistic.deviation, statistic.half_width, statistic.minimum, statistic.maximum});
}

// Reads the values from `at` on; false when they run out.
struct Reader {
  const std::vector<double>& values;
  std::size_t at = 0;
  bool number(double& value) {
    if (at >= values.size()) return false;
    value = values[at++];
    return true;
  }
  bool statistic(Statistic& statistic) {
    double count = 0;
    if (!number(count)) return false;
    statistic.count = static_cast<long>(count);
    return number(statistic.mean) && number(statistic.deviation) && number(statistic.half_width) && number(statistic.minimum) && number(statistic.maximum);
  }
};

}  // namespace

// fan-out, processors, possible, replications, events, then the summary's statistics (levels and processors
// preceded by their counts).
std::vector<double> point_values(const SweepPoint& point) {
  const Summary& summary = point.summary;
  std::vector<double> values{static_cast<double>(point.fanout), static_cast<double>(point.processors), point.possible ? 1.0 : 0.0,
                             static_cast<double>(summary.replications), static_cast<double>(summary.events)};
  for (const Statistic* statistic : {&summary.time, &summary.ideal_time, &summary.ratio, &summary.elementary, &summary.grasped, &summary.migrated})
    put(values, *statistic);
  values.push_back(static_cast<double>(summary.levels.size()));
  for (const LevelSummary& level : summary.levels)
    for (const Statistic* statistic : {&level.utilization, &level.occupancy, &level.occupancy_maximum, &level.occupancy_share, &level.grasped,
                                       &level.migrated, &level.transfers, &level.network})
      put(values, *statistic);
  values.push_back(static_cast<double>(summary.processor_utilization.size()));
  for (const Statistic& statistic : summary.processor_utilization) put(values, statistic);
  return values;
}

SweepPoint point_from_values(const std::vector<double>& values) {
  SweepPoint point;
  Summary& summary = point.summary;
  Reader read{values};
  double fanout = 0, processors = 0, possible = 0, replications = 0, events = 0, levels = 0, count = 0;
  if (!read.number(fanout) || !read.number(processors) || !read.number(possible) || !read.number(replications) || !read.number(events)) return point;
  point.fanout = static_cast<int>(fanout);
  point.processors = static_cast<long>(processors);
  point.possible = possible != 0;
  summary.replications = static_cast<int>(replications);
  summary.events = static_cast<std::uint64_t>(events);
  for (Statistic* statistic : {&summary.time, &summary.ideal_time, &summary.ratio, &summary.elementary, &summary.grasped, &summary.migrated})
    if (!read.statistic(*statistic)) return point;
  if (!read.number(levels)) return point;
  summary.levels.resize(static_cast<std::size_t>(levels));
  for (LevelSummary& level : summary.levels)
    for (Statistic* statistic : {&level.utilization, &level.occupancy, &level.occupancy_maximum, &level.occupancy_share, &level.grasped,
                                 &level.migrated, &level.transfers, &level.network})
      if (!read.statistic(*statistic)) return point;
  if (!read.number(count)) return point;
  summary.processor_utilization.resize(static_cast<std::size_t>(count));
  for (Statistic& statistic : summary.processor_utilization)
    if (!read.statistic(statistic)) return point;
  return point;
}

std::vector<SweepPoint> sweep(const std::vector<SweepModel>& models, const std::vector<int>& fanouts, const std::vector<long>& processors,
                              const SweepOptions& options) {
  if (models.empty()) throw core::InputError({"--model", 0, 0}, "no model to sweep");
  if (fanouts.empty()) throw core::InputError({"--fanout", 0, 0}, "no fan-out to sweep");
  if (processors.empty()) throw core::InputError({"--processors", 0, 0}, "no system size to sweep");
  std::vector<SweepPoint> points;
  for (const auto& model : models)
    for (const int fanout : fanouts)
      for (const long total : processors) points.push_back({model.name, fanout, total, false, {}});
  const auto total = static_cast<int>(points.size());
  const std::function<SweepPoint(int)> run_point = [&](int index) {
        SweepPoint point = points[static_cast<std::size_t>(index)];
        long lowest = 1;
        for (int l = 1; l < options.levels; ++l) lowest *= point.fanout;
        if (point.processors % lowest != 0 || point.processors < lowest) return point;
        point.possible = true;
        Machine machine = uniform_machine(options.levels, point.fanout, static_cast<int>(point.processors / lowest));
        if (!options.settings.empty()) machine.level = options.settings;
        const ProgramModel& model = models[static_cast<std::size_t>(index) / (fanouts.size() * processors.size())].model;
        SimulationOptions run;
        run.seed = options.seed;
        run.replications = options.replications;
        run.threads = 1;  // the points run in parallel
        run.source = point.model;
        run.interruption = options.interruption;
        point.summary = simulate(
            [&](int replication) {
              RandomStream random(options.seed, static_cast<std::uint64_t>(replication));
              return generate_program(model, random, point.model);
            },
            machine, run);
        return point;
  };
  const std::function<void(int, SweepPoint&&)> combine = [&](int index, SweepPoint&& point) {
    point.model = points[static_cast<std::size_t>(index)].model;
    points[static_cast<std::size_t>(index)] = std::move(point);
    if (options.progress) options.progress(index + 1, total);
  };
  if (options.runner) options.runner(total, options.threads, run_point, combine);
  else run_replications(total, options.threads, run_point, combine);
  return points;
}

}  // namespace augur::sim::hierarchy
