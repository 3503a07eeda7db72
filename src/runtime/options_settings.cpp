// libaugur's settings, read from the values of the runtime option set.
#include "options.hpp"

namespace augur::runtime {

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::Analyze: return "analyze";
    case Mode::Time: return "time";
    case Mode::Off: return "off";
  }
  return "analyze";
}

Settings settings_from(const OptionValues& values) {
  Settings settings;
  const std::string& mode = values.text("mode");
  settings.mode = mode == "time" ? Mode::Time : mode == "off" ? Mode::Off : Mode::Analyze;
  if (values.text("baseline") == "auto") {
    settings.engine.baseline.kind = selfanalysis::BaselinePolicy::Kind::Automatic;
  } else if (values.text("baseline") == "half") {
    settings.engine.baseline.kind = selfanalysis::BaselinePolicy::Kind::Half;
  } else {
    settings.engine.baseline.kind = selfanalysis::BaselinePolicy::Kind::Fixed;
    settings.engine.baseline.processors = static_cast<int>(values.integer("baseline"));
  }
  settings.engine.warmup_iterations = static_cast<int>(values.integer("warmup_iterations"));
  settings.engine.baseline_iterations = static_cast<int>(values.integer("baseline_iterations"));
  settings.engine.measure_iterations = static_cast<int>(values.integer("measure_iterations"));
  settings.engine.baseline_every = static_cast<int>(values.integer("baseline_every"));
  settings.engine.history_weight = values.real("history");
  settings.engine.sweep = values.integers("sweep");
  settings.engine.sweep_every = static_cast<int>(values.integer("sweep_every"));
  settings.engine.self_tuning = values.boolean("self_tuning");
  settings.report_path = values.text("report");
  settings.summary = values.boolean("summary");
  settings.watch_sigcont = values.boolean("watch_sigcont");
  settings.manager = values.text("manager");
  settings.experiment_file = values.text("experiment_file");
  settings.counters = values.names("counters");
  settings.bsp_trace = values.text("bsp_trace");
  settings.trace = values.text("trace");
  settings.options = values;
  return settings;
}

std::optional<std::string> apply_option(Settings& settings, std::string_view key, std::string_view value) {
  OptionValues values = settings.options;
  if (auto error = values.set_value(key, value)) return error;
  settings = settings_from(values);
  return std::nullopt;
}

}  // namespace augur::runtime
