// The runs augur couple works on: measured now, read from measurement files, or loaded from the
// performance database (src/cli/couple_print.hpp).
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

#include "core/files.hpp"
#include "core/process.hpp"
#include "couple_print.hpp"
#include "couple_progress.hpp"
#include "model_common.hpp"
#include "options_command.hpp"
#include "progress.hpp"
#include "store/store.hpp"

namespace augur::cli {
namespace {

namespace fs = std::filesystem;

std::string run_label(std::int64_t id) { return "run " + std::to_string(id); }

// The harness's options for the measured program, in the tool channel: they outrank the program's own
// settings and the environment (docs/self-analysis.md, "Precedence").
std::vector<std::pair<std::string, std::string>> measurement_environment(const CoupleOptions& options,
                                                                         const std::string& file,
                                                                         const std::string& progress_file) {
  // The file is ours, read back and removed: the harness does not name it. Its rounds go to augur's bar
  // (couple_progress.hpp), not to its own lines on stderr.
  ToolChoices choices = {{"coupling.output", file}, {"coupling.progress", "0"}, {"coupling.progress_file", progress_file}};
  choices.insert(choices.end(), options.coupling_choices.begin(), options.coupling_choices.end());
  std::vector<std::pair<std::string, std::string>> environment = {tool_channel_entry(choices)};
  if (options.threads > 0) environment.emplace_back("OMP_NUM_THREADS", std::to_string(options.threads));
  return environment;
}

// Runs `program` (found for options.command[0]) under the harness; returns 0 when it wrote `file`, else
// the exit status, having said why.
int run_harness(const CoupleOptions& options, const std::string& program, const std::string& file) {
  std::vector<std::string> argv = options.command;
  argv[0] = program;
  RoundsProgress rounds((fs::path(file).parent_path() / "rounds.txt").string(), Progress::mode_for(options.quiet, options.progress));
  rounds.start();
  const core::ProcessResult child = core::run_attached(argv, measurement_environment(options, file, rounds.file()));
  rounds.stop();
  check_interrupted();  // Ctrl-C: the program got it too; the temporary folder goes, nothing is measured or stored
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
  return 0;
}

}  // namespace

SourcedRun load_file(const std::string& path) { return {coupling::read_run(core::read_file(path), path), path}; }

std::vector<SourcedRun> load_runs(const CoupleOptions& options, const std::vector<std::string>& files,
                                  const std::vector<long long>& ids, std::optional<std::int64_t> excluded) {
  std::vector<SourcedRun> runs;
  for (const std::string& path : files) runs.push_back(load_file(path));
  if (!files.empty()) return runs;
  const auto store = store::open_store(options.db, store::OpenMode::ReadOnly);
  for (const std::string& note : store->notes()) std::fprintf(stderr, "augur couple: note: %s\n", note.c_str());
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

std::vector<coupling::Run> runs_of(const std::vector<SourcedRun>& runs) {
  std::vector<coupling::Run> plain;
  plain.reserve(runs.size());
  for (const SourcedRun& sourced : runs) plain.push_back(sourced.run);
  return plain;
}

int measure_program(const CoupleOptions& options, SourcedRun& measured) {
  const std::string program = core::find_program(options.command[0]);
  if (program.empty() || ::access(program.c_str(), X_OK) != 0) {
    std::fprintf(stderr, "augur couple measure: %s: no such program (or not executable)\n", options.command[0].c_str());
    return 2;
  }
  if (!options.save.empty()) {
    core::refuse_output_over_inputs(options.save, {program, options.db.empty() ? store::default_store_path() : options.db});
  }
  catch_interruptions();
  core::TemporaryFolder folder("augur-couple");
  const std::string file = (folder.path() / "measurements.coupling.jsonl").string();
  if (const int status = run_harness(options, program, file); status != 0) return status;
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
  try {
    measured = {coupling::read_run(text, options.save.empty() ? file : options.save), command_line};
  } catch (const std::exception&) {
    keep("measurements");
    throw;
  }
  if (!options.save.empty()) measured.source = options.save;
  if (options.no_db) return 0;
  try {
    const auto store = store::open_store(options.db, store::OpenMode::ReadWrite);
    for (const std::string& note : store->notes()) std::fprintf(stderr, "augur couple measure: note: %s\n", note.c_str());
    const auto id = store->add_run(measured.run, options.save.empty() ? measured.source : fs::absolute(options.save).string());
    std::fprintf(stderr, "augur couple measure: stored as run %lld in %s\n", static_cast<long long>(id),
                 store->location().c_str());
  } catch (const std::exception& error) {
    keep(measured.run.application);
    throw;
  }
  return 0;
}

}  // namespace augur::cli
