// Sweeps over system sizes (sweep.hpp).
#include "sim/hierarchy/sweep.hpp"

#include "augur/core/diagnostics.hpp"

namespace augur::sim::hierarchy {

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
  run_replications(
      total, options.threads,
      [&](int index) {
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
        point.summary = simulate(
            [&](int replication) {
              RandomStream random(options.seed, static_cast<std::uint64_t>(replication));
              return generate_program(model, random, point.model);
            },
            machine, run);
        return point;
      },
      [&](int index, SweepPoint&& point) {
        points[static_cast<std::size_t>(index)] = std::move(point);
        if (options.progress) options.progress(index + 1, total);
      });
  return points;
}

}  // namespace augur::sim::hierarchy
