#include "couple_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <unistd.h>

#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "core/process.hpp"
#include "core/table.hpp"
#include "augur/coupling.hpp"
#include "store/store.hpp"
#include "model_common.hpp"

namespace augur::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using coupling::Run;

// A run and where it came from ("sp-24.coupling.jsonl", "run 3").
struct SourcedRun {
  Run run;
  std::string source;
};

std::string seconds_text(double value) { return significant(value, 5); }

std::string percent(std::optional<double> fraction) {
  if (!fraction || !std::isfinite(*fraction)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f%%", 100.0 * *fraction);
  return text;
}

std::string bytes_text(double bytes) {
  if (bytes <= 0) return "-";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  return significant(bytes, 3) + " " + units[unit];
}

std::string describe(const Run& run) {
  std::string text = run.application;
  if (!run.dataset.empty()) text += " dataset " + run.dataset;
  text += " (size " + significant(run.problem_size, 6);
  if (run.footprint_bytes > 0) text += ", " + bytes_text(run.footprint_bytes);
  text += "), " + std::to_string(run.threads) + (run.threads == 1 ? " thread" : " threads");
  if (run.ranks > 1) text += " x " + std::to_string(run.ranks) + " ranks";
  return text;
}

// The chain length used when none is asked for: the longest measured (the seed's 5-kernel chains of a
// 6-kernel loop); 0 when no length is complete.
int default_length(const Run& run) {
  const auto lengths = run.complete_lengths();
  return lengths.empty() ? 0 : lengths.back();
}

// The chain length asked for (--length) when every chain of it was measured, else 0 (the report says
// so); without --length, the longest measured.
int chosen_length(const Run& run, const CoupleOptions& options) {
  if (!options.length) return default_length(run);
  const auto lengths = run.complete_lengths();
  return std::find(lengths.begin(), lengths.end(), *options.length) == lengths.end() ? 0 : *options.length;
}

Json timing_json(const coupling::Timing& timing) {
  return {{"seconds", timing.seconds}, {"ci_low", timing.ci_low}, {"ci_high", timing.ci_high},
          {"repetitions", timing.repetitions}, {"samples", timing.samples}};
}

Json prediction_json(const coupling::Prediction& prediction) {
  Json out = {{"method", prediction.method}, {"length", prediction.length}, {"seconds", prediction.seconds}};
  out["error"] = prediction.error ? Json(*prediction.error) : Json(nullptr);
  return out;
}

Json run_json(const Run& run) {
  return {{"application", run.application},
          {"dataset", run.dataset},
          {"problem_size", run.problem_size},
          {"footprint_bytes", run.footprint_bytes},
          {"iterations", run.iterations},
          {"threads", run.threads},
          {"ranks", run.ranks},
          {"processors", run.processors()},
          {"machine_class", run.machine.machine_class()},
          {"hostname", run.machine.hostname},
          {"started", run.started}};
}

// ---- report ----------------------------------------------------------------------------------------

// The widest confidence interval of a run's timings relative to its median, and where: timings this
// spread mean a busy machine, and coupling values (ratios of two timings) spread more.
struct Noise {
  double width = 0;  // (ci_high − ci_low) / median
  std::string where;
};

Noise noise(const Run& run) {
  Noise widest;
  const auto consider = [&](const coupling::Timing& timing, const std::string& where) {
    if (timing.seconds <= 0) return;
    const double width = (timing.ci_high - timing.ci_low) / timing.seconds;
    if (width > widest.width) widest = {width, where};
  };
  for (const auto& [chain, timing] : run.chains) consider(timing, coupling::chain_name(run, chain));
  if (run.loop) consider(*run.loop, "the whole loop");
  return widest;
}

constexpr double kNoisy = 0.10;  // a confidence interval wider than 10% of the median

std::string noise_note(const Run& run) {
  const Noise widest = noise(run);
  if (widest.width <= kNoisy) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%.0f%%", 100 * widest.width);
  return "  note: noisy timings: the confidence interval of " + widest.where + " spans " + text +
         " of its median; on a busy machine the predictions are not reliable (measure on an idle machine, or "
         "raise --samples)\n";
}

struct Analysis {
  int length = 0;
  std::vector<coupling::ChainCoupling> chains;  // of `length`
  coupling::Prediction sum;
  std::vector<coupling::Prediction> predictions;  // one per complete length
};

Analysis analyse(const Run& run, const CoupleOptions& options, const std::string& source) {
  try {
    Analysis analysis;
    analysis.length = chosen_length(run, options);
    analysis.sum = coupling::summation(run);
    for (const int length : run.complete_lengths()) analysis.predictions.push_back(coupling::predict(run, length));
    if (analysis.length > 0) analysis.chains = coupling::couplings(run, analysis.length);
    return analysis;
  } catch (const std::invalid_argument& error) {  // a run that lacks a kernel alone: say which run
    throw std::runtime_error(source + ": " + error.what());
  }
}

std::string render_report(const SourcedRun& sourced, const Analysis& analysis, const CoupleOptions& options) {
  const Run& run = sourced.run;
  std::string out = sourced.source + ": " + describe(run) + "\n";
  out += "  machine: " + run.machine.machine_class() + (run.machine.hostname.empty() ? "" : " (" + run.machine.hostname + ")") +
         "; loop of " + std::to_string(run.kernels.size()) + " kernels, " + std::to_string(run.iterations) +
         " iterations\n\n";
  const coupling::Prediction* chosen = nullptr;
  for (const auto& prediction : analysis.predictions) {
    if (prediction.length == analysis.length) chosen = &prediction;
  }
  core::TextTable kernels({"kernel", "N_i", "P_i (s)", "95% CI", "N_i*P_i (s)",
                           chosen ? "alpha_i (k=" + std::to_string(analysis.length) + ")" : "alpha_i"});
  for (std::size_t i = 0; i < run.kernels.size(); ++i) {
    const auto* timing = run.find({static_cast<int>(i)});
    const auto calls = run.invocations(static_cast<int>(i));
    kernels.add_row({run.kernels[i].name, std::to_string(calls), timing ? seconds_text(timing->seconds) : "-",
                     timing ? seconds_text(timing->ci_low) + " .. " + seconds_text(timing->ci_high) : "-",
                     timing ? seconds_text(static_cast<double>(calls) * timing->seconds) : "-",
                     chosen ? core::format_number(chosen->alpha[i], 4) : "-"});
  }
  out += kernels.render() + "\n";
  const auto add_chains = [&](int length) {
    core::TextTable table({"chain (k=" + std::to_string(length) + ")", "P_W (s)", "sum P_j (s)", "C_W"});
    for (const auto& chain : coupling::couplings(run, length)) {
      table.add_row({coupling::chain_name(run, chain.chain), seconds_text(chain.time), seconds_text(chain.sum_alone),
                     core::format_number(chain.value, 4)});
    }
    out += table.render() + "\n";
  };
  if (options.all_chains) {
    for (const int length : run.complete_lengths()) add_chains(length);
  } else if (analysis.length > 0) {
    add_chains(analysis.length);
  }
  const double measured = run.loop ? run.loop->seconds : std::nan("");
  core::TextTable predictions({"method", "predicted (s)", "measured (s)", "error"});
  predictions.add_row({"summation", seconds_text(analysis.sum.seconds), seconds_text(measured), percent(analysis.sum.error)});
  for (const auto& prediction : analysis.predictions) {
    predictions.add_row({"coupling, k=" + std::to_string(prediction.length) +
                             (prediction.length == analysis.length ? " *" : ""),
                         seconds_text(prediction.seconds), seconds_text(measured), percent(prediction.error)});
  }
  out += predictions.render();
  if (analysis.predictions.empty()) {
    out += "  (no complete set of chains: only the summation predictor; measure chains with --chains all)\n";
  } else if (options.length && analysis.length == 0) {
    out += "  (chains of length " + std::to_string(*options.length) + " were not all measured in this run)\n";
  }
  return out + noise_note(run);
}

Json report_json(const SourcedRun& sourced, const Analysis& analysis) {
  const Run& run = sourced.run;
  Json out = {{"source", sourced.source}, {"run", run_json(run)}};
  Json kernels = Json::array();
  const coupling::Prediction* chosen = nullptr;
  for (const auto& prediction : analysis.predictions) {
    if (prediction.length == analysis.length) chosen = &prediction;
  }
  for (std::size_t i = 0; i < run.kernels.size(); ++i) {
    const auto* timing = run.find({static_cast<int>(i)});
    Json kernel = {{"name", run.kernels[i].name}, {"invocations", run.invocations(static_cast<int>(i))}};
    kernel["alone"] = timing ? timing_json(*timing) : Json(nullptr);
    kernel["alpha"] = chosen ? Json(chosen->alpha[i]) : Json(nullptr);
    kernels.push_back(kernel);
  }
  out["kernels"] = kernels;
  Json couplings = Json::array();
  for (const int length : run.complete_lengths()) {
    for (const auto& chain : coupling::couplings(run, length)) {
      Json names = Json::array();
      for (const int kernel : chain.chain) names.push_back(run.kernels[static_cast<std::size_t>(kernel)].name);
      couplings.push_back({{"length", length}, {"chain", names}, {"seconds", chain.time},
                           {"sum_alone", chain.sum_alone}, {"coupling", chain.value}});
    }
  }
  out["couplings"] = couplings;
  out["length"] = analysis.length;
  out["measured"] = run.loop ? timing_json(*run.loop) : Json(nullptr);
  const Noise widest = noise(run);
  out["widest_interval"] = {{"relative_width", widest.width}, {"where", widest.where}, {"noisy", widest.width > kNoisy}};
  Json predictions = Json::array({prediction_json(analysis.sum)});
  for (const auto& prediction : analysis.predictions) predictions.push_back(prediction_json(prediction));
  out["predictions"] = predictions;
  return out;
}

SourcedRun load_file(const std::string& path) {
  return {coupling::read_run(core::read_file(path), path), path};
}

std::string run_label(std::int64_t id) { return "run " + std::to_string(id); }

// The runs of the files, or, when no file is given, the stored runs (those of --run, else every run
// of --application).
std::vector<SourcedRun> load_runs(const CoupleOptions& options, const std::vector<std::string>& files,
                                  const std::vector<long long>& ids, std::optional<std::int64_t> excluded = {}) {
  std::vector<SourcedRun> runs;
  for (const std::string& path : files) runs.push_back(load_file(path));
  if (!files.empty()) return runs;
  const auto store = store::open_store(options.db, store::OpenMode::ReadOnly);
  if (!ids.empty()) {
    for (const long long id : ids) {
      auto stored = store->load_run(id);
      if (!stored) throw std::runtime_error(store->location() + ": no run " + std::to_string(id) + " (augur db list)");
      runs.push_back({std::move(stored->run), run_label(stored->id)});
    }
    return runs;
  }
  store::RunFilter filter;
  filter.application = options.application;
  for (auto& stored : store->load_runs(filter)) {
    if (excluded && stored.id == *excluded) continue;
    runs.push_back({std::move(stored.run), run_label(stored.id)});
  }
  if (runs.empty()) {
    throw std::runtime_error(store->location() + ": no stored run" +
                             (options.application.empty() ? "" : " of '" + options.application + "'") +
                             " (augur couple measure stores them; augur db list shows them)");
  }
  return runs;
}

// Writes the output whole to stdout.
void emit(const std::string& text) { std::fputs(text.c_str(), stdout); }

// A table of runs (or, with --json, its list) and the mean |error| of a method and of summation over the
// `counted` runs that have both.
int emit_run_table(const core::TextTable& table, const Json& list, bool json, const std::string& key,
                   const std::string& words, double total, double sum_total, int counted) {
  if (json) {
    Json out = {{"runs", list}};
    out["mean_abs_error"] = counted > 0 ? Json({{"summation", sum_total / counted}, {key, total / counted}, {"runs", counted}})
                                        : Json(nullptr);
    emit(out.dump(2) + "\n");
    return 0;
  }
  std::string out = table.render();
  if (counted > 0) {
    out += "\nmean |error| over " + std::to_string(counted) + " runs: " + words + " " + percent(total / counted).substr(1) +
           ", summation " + percent(sum_total / counted).substr(1) + "\n";
  }
  emit(out);
  return 0;
}

// One line per run: the errors of summation and of the coupling predictor, and their mean magnitudes.
int report_summary(const std::vector<SourcedRun>& runs, const CoupleOptions& options) {
  core::TextTable table({"run", "dataset", "procs", "measured (s)", "summation", "coupling", "k", "widest CI"});
  Json list = Json::array();
  double sum_total = 0;
  double coupling_total = 0;
  int counted = 0;
  for (const SourcedRun& sourced : runs) {
    const Run& run = sourced.run;
    const Analysis analysis = analyse(run, options, sourced.source);
    const auto& sum = analysis.sum;
    const int length = analysis.length;
    std::optional<coupling::Prediction> coupled;
    for (const auto& prediction : analysis.predictions) {
      if (prediction.length == length) coupled = prediction;
    }
    table.add_row({sourced.source, run.dataset, std::to_string(run.processors()),
                   run.loop ? seconds_text(run.loop->seconds) : "-", percent(sum.error),
                   coupled ? percent(coupled->error) : "-", length > 0 ? std::to_string(length) : "-",
                   percent(noise(run).width).substr(1)});
    Json entry = run_json(run);
    entry["source"] = sourced.source;
    entry["measured"] = run.loop ? Json(run.loop->seconds) : Json(nullptr);
    entry["summation"] = prediction_json(sum);
    entry["coupling"] = coupled ? prediction_json(*coupled) : Json(nullptr);
    entry["widest_interval"] = noise(run).width;
    list.push_back(entry);
    if (sum.error && coupled && coupled->error) {
      sum_total += std::abs(*sum.error);
      coupling_total += std::abs(*coupled->error);
      ++counted;
    }
  }
  return emit_run_table(table, list, options.json, "coupling", "coupling", coupling_total, sum_total, counted);
}

int report_runs(const std::vector<SourcedRun>& runs, const CoupleOptions& options) {
  if (options.summary) return report_summary(runs, options);
  Json documents = Json::array();
  std::string text;
  for (const SourcedRun& sourced : runs) {
    const Analysis analysis = analyse(sourced.run, options, sourced.source);
    if (options.json) {
      documents.push_back(report_json(sourced, analysis));
    } else {
      text += (text.empty() ? "" : "\n") + render_report(sourced, analysis, options);
    }
  }
  emit(options.json ? (runs.size() == 1 ? documents[0] : documents).dump(2) + "\n" : text);
  return 0;
}

// ---- measure ---------------------------------------------------------------------------------------

int measure(const CoupleOptions& options) {
  const std::string program = core::find_program(options.command[0]);
  if (program.empty() || ::access(program.c_str(), X_OK) != 0) {
    std::fprintf(stderr, "augur couple measure: %s: no such program (or not executable)\n", options.command[0].c_str());
    return 2;
  }
  core::TemporaryFolder folder("augur-couple");
  const std::string file = (folder.path() / "measurements.coupling.jsonl").string();
  std::vector<std::pair<std::string, std::string>> environment = {{"AUGUR_COUPLING_OUTPUT", file},
                                                                  {"AUGUR_COUPLING_PROGRESS", options.quiet ? "0" : "1"}};
  if (options.min_time) environment.emplace_back("AUGUR_COUPLING_MIN_TIME", significant(*options.min_time, 17));
  if (options.samples) environment.emplace_back("AUGUR_COUPLING_SAMPLES", std::to_string(*options.samples));
  if (options.warmup) environment.emplace_back("AUGUR_COUPLING_WARMUP", std::to_string(*options.warmup));
  if (options.application_samples) {
    environment.emplace_back("AUGUR_COUPLING_APPLICATION_SAMPLES", std::to_string(*options.application_samples));
  }
  if (!options.chains.empty()) environment.emplace_back("AUGUR_COUPLING_CHAINS", options.chains);
  std::vector<std::string> argv = options.command;
  argv[0] = program;
  const core::ProcessResult child = core::run_attached(argv, environment);
  if (!child.succeeded()) {
    std::fprintf(stderr, "augur couple measure: %s %s; nothing measured\n", program.c_str(), child.describe_status().c_str());
    return child.exit_code > 0 ? child.exit_code : 1;
  }
  if (!fs::exists(file)) {
    std::fprintf(stderr,
                 "augur couple measure: %s wrote no measurement file: does it declare its kernels and call "
                 "augur_coupling_measure (augur/coupling.h)?\n",
                 program.c_str());
    return 1;
  }
  const std::string text = core::read_file(file);
  std::string command_line;
  for (const std::string& word : options.command) command_line += (command_line.empty() ? "" : " ") + word;
  // The measurements are kept before anything can fail: in --save, or, when reading or storing them
  // fails, in a file of the working folder (or of $TMPDIR).
  if (!options.save.empty()) core::write_file_atomically(options.save, text);
  const auto keep = [&](const std::string& name) {
    if (!options.save.empty()) return;
    const std::string kept = core::file_name_part(name) + "-" + std::to_string(::getpid()) + ".coupling.jsonl";
    for (const std::string& path : {kept, core::temporary_directory() + "/" + kept}) {
      try {
        core::write_file_atomically(path, text);
        std::fprintf(stderr, "augur couple measure: the measurements are kept in %s\n", path.c_str());
        return;
      } catch (const std::exception& error) {
        std::fprintf(stderr, "augur couple measure: %s\n", error.what());
      }
    }
  };
  SourcedRun sourced;
  try {
    sourced = {coupling::read_run(text, options.save.empty() ? file : options.save), command_line};
  } catch (const std::exception&) {
    keep("measurements");
    throw;
  }
  if (!options.save.empty()) sourced.source = options.save;
  if (!options.no_db) {
    try {
      const auto store = store::open_store(options.db, store::OpenMode::ReadWrite);
      const auto id = store->add_run(sourced.run, options.save.empty() ? sourced.source : fs::absolute(options.save).string());
      std::fprintf(stderr, "augur couple measure: stored as run %lld in %s\n", static_cast<long long>(id),
                   store->location().c_str());
    } catch (const std::exception& error) {
      keep(sourced.run.application);
      throw;
    }
  }
  return report_runs({sourced}, options);
}

// ---- predict (isocoupling) ---------------------------------------------------------------------------

int predict(const CoupleOptions& options) {
  if (options.target.empty() == !options.target_run) {
    throw std::runtime_error("give the target configuration: --target FILE or --target-run ID");
  }
  const SourcedRun target = options.target_run ? load_runs(options, {}, {*options.target_run}).front()
                                               : load_file(options.target);
  std::vector<Run> sources;
  std::vector<std::string> names;
  for (SourcedRun& sourced : load_runs(options, options.files, {}, options.target_run)) {
    sources.push_back(std::move(sourced.run));
    names.push_back(sourced.source);
  }
  if (target.run.problem_size <= 0) {
    throw std::runtime_error(target.source + ": the target has no problem size (augur_coupling_set_problem), so no "
                             "configuration is nearer than another");
  }
  // The default length: the longest that a source of the target's application and kernels measured.
  int length = options.length.value_or(0);
  if (length == 0) {
    for (const Run& source : sources) {
      if (source.application == target.run.application && source.kernels.size() == target.run.kernels.size()) {
        length = std::max(length, default_length(source));
      }
    }
  }
  if (length == 0) {
    throw std::runtime_error("no configuration of '" + target.run.application +
                             "' with the same kernels has a complete set of chains to reuse");
  }
  const auto candidates = coupling::reusable_runs(target.run, sources, length);
  const auto sum = coupling::summation(target.run);
  std::optional<coupling::Prediction> own;
  const auto target_lengths = target.run.complete_lengths();
  if (std::find(target_lengths.begin(), target_lengths.end(), length) != target_lengths.end()) {
    own = coupling::predict(target.run, length);
  }
  std::vector<coupling::Prediction> reused;
  for (const auto& candidate : candidates) {
    reused.push_back(coupling::predict_reusing(target.run, coupling::couplings(sources[candidate.index], length), length));
  }
  const double measured = target.run.loop ? target.run.loop->seconds : std::nan("");
  if (options.json) {
    Json out = {{"target", run_json(target.run)}, {"source", target.source}, {"length", length}};
    out["measured"] = target.run.loop ? timing_json(*target.run.loop) : Json(nullptr);
    out["summation"] = prediction_json(sum);
    out["own"] = own ? prediction_json(*own) : Json(nullptr);
    Json list = Json::array();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const Run& source = sources[candidates[i].index];
      Json entry = prediction_json(reused[i]);
      entry["from"] = names[candidates[i].index];
      entry["run"] = run_json(source);
      entry["same_class"] = candidates[i].same_class;
      entry["size_distance"] = candidates[i].distance;
      entry["chosen"] = i == 0;
      list.push_back(entry);
    }
    out["reuse"] = list;
    std::vector<std::string> skipped;
    std::set<std::size_t> used;
    for (const auto& candidate : candidates) used.insert(candidate.index);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      if (!used.count(i)) skipped.push_back(names[i]);
    }
    out["not_reusable"] = skipped;
    emit(out.dump(2) + "\n");
    return candidates.empty() ? 1 : 0;
  }
  std::string out = "target: " + target.source + ": " + describe(target.run) + "\n  machine: " +
                    target.run.machine.machine_class() + "\n\n";
  core::TextTable table({"coupling values from", "dataset", "size/proc", "procs", "machine", "predicted (s)",
                         "measured (s)", "error"});
  table.add_row({"(summation)", "-", "-", "-", "-", seconds_text(sum.seconds), seconds_text(measured), percent(sum.error)});
  if (own) {
    table.add_row({"(its own, k=" + std::to_string(length) + ")", target.run.dataset,
                   significant(target.run.problem_size / target.run.processors(), 5),
                   std::to_string(target.run.processors()), "same", seconds_text(own->seconds), seconds_text(measured),
                   percent(own->error)});
  }
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Run& source = sources[candidates[i].index];
    table.add_row({(i == 0 ? "* " : "  ") + names[candidates[i].index], source.dataset,
                   significant(source.problem_size / source.processors(), 5), std::to_string(source.processors()),
                   candidates[i].same_class ? "same class" : "other class", seconds_text(reused[i].seconds),
                   seconds_text(measured), percent(reused[i].error)});
  }
  out += table.render();
  if (candidates.empty()) {
    out += "\nno other configuration can lend coupling values of length " + std::to_string(length) +
           " (same application and kernels, every chain of that length measured, a problem size, and not a repeat "
           "of the target's own machine class, size and processors)\n";
    emit(out);
    return 1;
  }
  const Run& chosen = sources[candidates.front().index];
  out += "\nchosen (*): " + names[candidates.front().index] + ", " +
         (candidates.front().same_class ? "the same machine class" : "another machine class (none of the same)") +
         ", " + std::to_string(chosen.processors()) + (chosen.processors() == 1 ? " processor" : " processors") + " against " + std::to_string(target.run.processors()) +
         ", size per processor " + significant(chosen.problem_size / chosen.processors(), 5) + " against " +
         significant(target.run.problem_size / target.run.processors(), 5) + "; predicted " +
         seconds_text(reused.front().seconds) + " s" +
         (reused.front().error ? ", error " + percent(reused.front().error) : std::string()) + "\n";
  emit(out);
  return 0;
}

// ---- reuse: every run predicted from the others -------------------------------------------------------

int reuse_table(const CoupleOptions& options) {
  std::vector<SourcedRun> runs = load_runs(options, options.files, options.runs);
  std::vector<Run> all;
  for (const SourcedRun& sourced : runs) all.push_back(sourced.run);
  core::TextTable table({"target", "dataset", "procs", "summation", "own", "nearest", "reuse", "same procs", "other procs"});
  Json list = Json::array();
  double chosen_total = 0;
  double sum_total = 0;
  int counted = 0;
  for (std::size_t target = 0; target < runs.size(); ++target) {
    const Run& run = runs[target].run;
    const int length = options.length.value_or(static_cast<int>(run.kernels.size()) - 1);
    const auto candidates = coupling::reusable_runs(run, all, length);
    const auto sum = coupling::summation(run);
    const auto lengths = run.complete_lengths();
    std::optional<coupling::Prediction> own;
    if (std::find(lengths.begin(), lengths.end(), length) != lengths.end()) own = coupling::predict(run, length);
    // Mean |error| of the sources with the target's processor count and with another.
    double same = 0, other = 0;
    int same_count = 0, other_count = 0;
    std::optional<coupling::Prediction> nearest;
    for (const auto& candidate : candidates) {
      const auto reused = coupling::predict_reusing(run, coupling::couplings(all[candidate.index], length), length);
      if (!nearest) nearest = reused;
      if (!reused.error) continue;
      if (all[candidate.index].processors() == run.processors()) {
        same += std::abs(*reused.error);
        ++same_count;
      } else {
        other += std::abs(*reused.error);
        ++other_count;
      }
    }
    const auto mean_text = [](double total, int count) {
      return count > 0 ? percent(total / count).substr(1) : std::string("-");
    };
    table.add_row({runs[target].source, run.dataset, std::to_string(run.processors()), percent(sum.error),
                   own ? percent(own->error) : "-",
                   candidates.empty() ? "-" : runs[candidates.front().index].source,
                   nearest ? percent(nearest->error) : "-", mean_text(same, same_count), mean_text(other, other_count)});
    Json entry = run_json(run);
    entry["source"] = runs[target].source;
    entry["summation"] = prediction_json(sum);
    entry["own"] = own ? prediction_json(*own) : Json(nullptr);
    entry["nearest"] = candidates.empty() ? Json(nullptr) : Json(runs[candidates.front().index].source);
    entry["reuse"] = nearest ? prediction_json(*nearest) : Json(nullptr);
    entry["mean_abs_error_same_processors"] = same_count > 0 ? Json(same / same_count) : Json(nullptr);
    entry["mean_abs_error_other_processors"] = other_count > 0 ? Json(other / other_count) : Json(nullptr);
    list.push_back(entry);
    if (nearest && nearest->error && sum.error) {
      chosen_total += std::abs(*nearest->error);
      sum_total += std::abs(*sum.error);
      ++counted;
    }
  }
  return emit_run_table(table, list, options.json, "reuse", "reusing the nearest configuration's coupling values",
                        chosen_total, sum_total, counted);
}

// ---- transitions ---------------------------------------------------------------------------------------

int transitions(const CoupleOptions& options) {
  std::vector<Run> runs;
  std::vector<std::string> names;
  for (SourcedRun& sourced : load_runs(options, options.files, options.runs)) {
    runs.push_back(std::move(sourced.run));
    names.push_back(sourced.source);
  }
  int length = options.length.value_or(0);
  if (length == 0) {
    for (const Run& run : runs) length = std::max(length, default_length(run));
  }
  if (length == 0) throw std::runtime_error("no run has a complete set of chains");
  const auto found = coupling::transitions(runs, length, options.threshold);
  // The mean coupling value of each run, ordered as the transitions are searched.
  std::vector<std::size_t> order(runs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_tuple(runs[a].application, runs[a].machine.machine_class(), runs[a].processors(), runs[a].problem_size) <
           std::make_tuple(runs[b].application, runs[b].machine.machine_class(), runs[b].processors(), runs[b].problem_size);
  });
  const auto mean_coupling = [&](const Run& run) -> double {
    const auto lengths = run.complete_lengths();
    if (std::find(lengths.begin(), lengths.end(), length) == lengths.end()) return std::nan("");
    double sum = 0;
    const auto chains = coupling::couplings(run, length);
    for (const auto& chain : chains) sum += chain.value;
    return sum / static_cast<double>(chains.size());
  };
  if (options.json) {
    Json out = {{"length", length}, {"threshold", options.threshold}};
    Json list = Json::array();
    for (const std::size_t i : order) {
      Json entry = run_json(runs[i]);
      entry["from"] = names[i];
      const double mean = mean_coupling(runs[i]);
      entry["mean_coupling"] = std::isfinite(mean) ? Json(mean) : Json(nullptr);
      list.push_back(entry);
    }
    out["runs"] = list;
    Json changes = Json::array();
    for (const auto& transition : found) {
      changes.push_back({{"before", names[transition.before]}, {"after", names[transition.after]},
                         {"mean_change", transition.mean_change}, {"mean_abs_change", transition.mean_abs_change},
                         {"level", transition.level}});
    }
    out["transitions"] = changes;
    emit(out.dump(2) + "\n");
    return 0;
  }
  core::TextTable table({"run", "dataset", "procs", "size/proc", "footprint/proc", "mean C_W (k=" + std::to_string(length) + ")"});
  for (const std::size_t i : order) {
    const Run& run = runs[i];
    table.add_row({names[i], run.dataset, std::to_string(run.processors()), significant(run.problem_size / run.processors(), 5),
                   bytes_text(run.footprint_bytes / run.processors()), core::format_number(mean_coupling(run), 4)});
  }
  std::string out = table.render() + "\n";
  if (found.empty()) {
    out += "no transition: the mean |change| of C_W between consecutive sizes stays within " +
           significant(options.threshold, 3) + "\n";
  }
  for (const auto& transition : found) {
    out += "transition between " + names[transition.before] + " and " + names[transition.after] + ": C_W changes by " +
           core::format_number(transition.mean_change, 4) + " on average (mean |change| " +
           core::format_number(transition.mean_abs_change, 4) + ")";
    out += transition.level.empty() ? std::string()
                                    : "; the data per processor outgrows " + transition.level + " (" +
                                          bytes_text(static_cast<double>(
                                              transition.level == "L1d"  ? runs[transition.after].machine.l1d_bytes
                                              : transition.level == "L2" ? runs[transition.after].machine.l2_bytes
                                                                         : runs[transition.after].machine.l3_bytes)) +
                                          ")";
    out += "\n";
  }
  emit(out);
  return 0;
}

}  // namespace

CLI::App* add_couple_command(CLI::App& app, CoupleOptions& options) {
  CLI::App* command = app.add_subcommand(
      "couple",
      "Kernel coupling (seed 002): measure an application's kernels alone, in chains and whole, predict its time from "
      "the coupling values, and reuse coupling values across processor counts, problem sizes and machines.");
  command->require_subcommand(1);
  const auto add_length = [&](CLI::App* sub) {
    sub->add_option("--length,-k", options.length, "Chain length k of the coupling predictor (default: the longest measured)")
        ->check(CLI::Range(2, 1000000));
  };
  const auto add_json = [&](CLI::App* sub) { sub->add_flag("--json", options.json, "Write JSON instead of tables"); };
  const auto add_db = [&](CLI::App* sub, const char* help) {
    sub->add_option("--db", options.db, help)->type_name("FILE");
  };
  const auto add_stored = [&](CLI::App* sub) {
    add_db(sub, "The performance database read when no files are given (default: $AUGUR_DB, else "
                "~/.local/share/augur/performance.db)");
    sub->add_option("--application", options.application, "Only the stored runs of this application")->type_name("NAME");
  };

  CLI::App* measure_command = command->add_subcommand(
      "measure", "Run PROGRAM, which declares its kernels to libaugur's coupling harness (augur/coupling.h), and report "
                 "its coupling values and predictions.");
  measure_command->add_option("--save", options.save, "Keep the measurement file here (JSON Lines)")->type_name("FILE");
  measure_command->add_option("--min-time", options.min_time, "Seconds per sample of a kernel or chain (default 0.03)")
      ->check(CLI::PositiveNumber);
  measure_command->add_option("--samples", options.samples, "Samples per kernel or chain (default 9)")->check(CLI::Range(1, 1000000));
  measure_command->add_option("--warmup", options.warmup, "Untimed executions before each sample (default 1)")
      ->check(CLI::Range(0, 1000000));
  measure_command->add_option("--application-samples", options.application_samples, "Timed runs of the whole loop (default 3)")
      ->check(CLI::Range(1, 1000000));
  measure_command->add_option("--chains", options.chains, "Chain lengths to measure: all (2..n-1), none, K or K1-K2 (default all)")
      ->check([](const std::string& value) -> std::string {
        return coupling::chain_lengths(value, 3) ? std::string() : "expected all, none, K or K1-K2, not '" + value + "'";
      });
  measure_command->add_flag("--quiet,-q", options.quiet, "No progress lines while measuring");
  add_db(measure_command, "Store the run in this performance database (default: $AUGUR_DB, else "
                          "~/.local/share/augur/performance.db)");
  measure_command->add_flag("--no-db", options.no_db, "Do not store the run");
  add_length(measure_command);
  measure_command->add_flag("--all-chains", options.all_chains, "Show the coupling values of every chain length");
  add_json(measure_command);
  measure_command->add_option("COMMAND", options.command, "PROGRAM [ARGS...] (after --)")->required();
  measure_command->footer("Example:\n  augur couple measure --save sp-24.jsonl -- build/bin/sp --measure --size 24\n"
                          "Guide: docs/couple.md; method: docs/coupling.md");

  CLI::App* report_command =
      command->add_subcommand("report", "Coupling values and predictions of measurement files already taken.");
  report_command->add_option("FILES", options.files, "Measurement files (augur couple measure --save); none: the stored runs");
  report_command->add_option("--run", options.runs, "Stored runs to report (augur db list)")->type_name("ID");
  add_stored(report_command);
  add_length(report_command);
  report_command->add_flag("--all-chains", options.all_chains, "Show the coupling values of every chain length");
  report_command->add_flag("--summary", options.summary,
                           "One line per run: the errors of the summation and coupling predictors, and their means");
  add_json(report_command);

  CLI::App* predict_command = command->add_subcommand(
      "predict", "Isocoupling: predict a configuration's time from the coupling values measured for others, choosing "
                 "the nearest (same machine class, closest problem size per processor), with the error of each.");
  predict_command->add_option("--target", options.target, "The configuration to predict: its measurement file (its kernels alone suffice)")
      ->type_name("FILE");
  predict_command->add_option("--target-run", options.target_run, "... or its stored run")->type_name("ID");
  predict_command->add_option("FROM", options.files, "Measurement files of other configurations; none: the stored runs");
  add_stored(predict_command);
  add_length(predict_command);
  add_json(predict_command);

  CLI::App* reuse_command = command->add_subcommand(
      "reuse", "Isocoupling for every run: each predicted from the coupling values of the nearest other configuration, "
               "with the mean errors of the sources of the same and of other processor counts.");
  reuse_command->add_option("FILES", options.files, "Measurement files; none: the stored runs");
  reuse_command->add_option("--run", options.runs, "Only these stored runs")->type_name("ID");
  add_stored(reuse_command);
  add_length(reuse_command);
  add_json(reuse_command);

  CLI::App* transitions_command = command->add_subcommand(
      "transitions", "Coupling values along problem size, and where they jump (data leaving a level of the memory hierarchy).");
  transitions_command->add_option("FILES", options.files, "Measurement files; none: the stored runs");
  add_stored(transitions_command);
  add_length(transitions_command);
  transitions_command->add_option("--threshold", options.threshold, "Mean |change| of C_W that makes a transition (default 0.05)")
      ->check(CLI::PositiveNumber);
  add_json(transitions_command);
  command->footer("Guide: docs/couple.md; method: docs/coupling.md; file formats: docs/formats.md");
  return command;
}

int run_couple_command(const CLI::App& command, const CoupleOptions& options) {
  try {
    if (command.got_subcommand("measure")) return measure(options);
    if (command.got_subcommand("report")) return report_runs(load_runs(options, options.files, options.runs), options);
    if (command.got_subcommand("predict")) return predict(options);
    if (command.got_subcommand("transitions")) return transitions(options);
    if (command.got_subcommand("reuse")) return reuse_table(options);
  } catch (const std::exception& error) {
    return report_error("couple", error);
  }
  return 2;
}

}  // namespace augur::cli
