#include "cc_command.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <system_error>

#include "command.hpp"
#include "core/files.hpp"
#include "core/process.hpp"
#include "experiment/translator.hpp"
#include "locations.hpp"

namespace augur::cli {

namespace fs = std::filesystem;

void add_cc_options(CLI::App* command, CcOptions& options) {
  command->add_option("args", options.arguments, "FILE to translate ('-': standard input), FILE... with --check, or, after --, the compiler command");
  command->add_option("-o,--output", options.output, "Write the translation to this file (whole or not at all) instead of stdout");
  command->add_flag("--check", options.check, "Only check the files: one summary line each; exit status 1 if any has an error");
  command->add_flag("--keep", options.keep, "Wrapper mode: keep the translated sources (their directory is printed on stderr)");
  command->add_option("--include-dir", options.include_directory, "Wrapper mode: the directory of augur/augur.h (default: the installation's include folder)");
  command->add_option("--library-dir", options.library_directory, "Wrapper mode: the directory of libaugur (default: the installation's library folder)");
  command->callback([command, &options] {
    const std::vector<std::string> rest = command->remaining();
    options.wrapper = std::find(rest.begin(), rest.end(), "--") != rest.end();
  });
  command->footer("Examples:\n"
                  "  augur cc fft.c -o fft.cll.c                      translate (line numbers kept: #line)\n"
                  "  augur cc --check fft.c main.c                    check the pragmas only\n"
                  "  augur cc -- cc -O2 fft.c -o fft -lm              compile through the translation, link libaugur\n"
                  "  augur cc -- mpicc -c fft.c && augur cc -- mpicc fft.o -o fft\n"
                  "  AUGUR_EXPERIMENT_FILE=fft.cll.jsonl ./fft 1024 && augur fit fft.cll.jsonl\n"
                  "Guide: docs/cc.md");
}

namespace {

int usage_error(const std::string& message) {
  std::fprintf(stderr, "augur cc: %s\nRun 'augur cc --help' for the usage.\n", message.c_str());
  return 2;
}

std::string read_source(const std::string& path) {
  if (path != "-") return core::read_file(path);
  return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
}

std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

void print_errors(const experiment::Translation& translation) {
  for (const auto& error : translation.errors) std::fprintf(stderr, "%s\n", error.what());
}

std::string plural(std::size_t count, const std::string& word) { return std::to_string(count) + " " + word + (count == 1 ? "" : "s"); }

int translate_one(const CcOptions& options) {
  const std::string& path = options.arguments.front();
  if (!options.output.empty()) core::refuse_output_over_inputs(options.output, {path});
  const experiment::Translation translation = experiment::translate(core::SourceText(display_name(path), read_source(path)));
  if (!translation.ok()) {
    print_errors(translation);
    return 1;
  }
  if (options.output.empty()) {
    std::fwrite(translation.code.data(), 1, translation.code.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  core::write_file_atomically(options.output, translation.code);
  return 0;
}

int check_files(const CcOptions& options) {
  int status = 0;
  for (const std::string& path : options.arguments) {
    const std::string name = display_name(path);
    experiment::Translation translation;
    try {
      translation = experiment::translate(core::SourceText(name, read_source(path)));
    } catch (const std::exception& error) {
      std::fprintf(stderr, "augur cc: %s\n", error.what());
      std::printf("%s: not read\n", name.c_str());
      status = 1;
      continue;
    }
    print_errors(translation);
    if (!translation.ok()) {
      std::printf("%s: %s\n", name.c_str(), plural(translation.errors.size(), "error").c_str());
      status = 1;
      continue;
    }
    std::string names;
    for (const auto& experiment : translation.experiments) names += (names.empty() ? "" : ", ") + experiment.name;
    std::printf("%s: ok, %s%s, %s%s\n", name.c_str(), plural(translation.experiments.size(), "experiment").c_str(),
                names.empty() ? "" : (" (" + names + ")").c_str(), plural(static_cast<std::size_t>(translation.pragmas), "pragma").c_str(),
                translation.mpi ? (", MPI through " + translation.communicator).c_str() : "");
  }
  std::fflush(stdout);
  return status;
}

// ---- Wrapper mode ----

// Runs the compiler on our terminal; returns its status as the shell reports it (128 + the signal
// that killed it), 127 when it cannot start. While it runs, a SIGINT, SIGTERM or SIGHUP is passed on
// to it instead of ending this process, so that the temporary directory is removed after it.
int run_compiler(const std::vector<std::string>& argv) {
  core::SpawnOptions attached;
  attached.attach = true;
  try {
    return core::spawn(argv, attached).shell_status();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "augur cc: %s\n", error.what());
    return 127;
  }
}

// A fresh directory, removed with its content unless kept.
class TranslationDirectory {
public:
  TranslationDirectory() {
    std::string pattern = core::temporary_directory() + "/augur-cc-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory " + pattern + ": " + std::strerror(errno));
    path_ = pattern;
  }
  ~TranslationDirectory() {
    if (keep_) return;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TranslationDirectory(const TranslationDirectory&) = delete;
  TranslationDirectory& operator=(const TranslationDirectory&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }
  void keep() { keep_ = true; }

private:
  std::string path_;
  bool keep_ = false;
};

int compile(const CcOptions& options) {
  TranslationDirectory directory;
  const experiment::CompilerSettings settings{directory.path(),
                                              options.include_directory.empty() ? include_directory().string() : options.include_directory,
                                              options.library_directory.empty() ? library_directory().string() : options.library_directory};
  const experiment::CompilerCommand plan = experiment::plan_compiler_command(options.arguments, settings);
  // Every source is translated before anything is written or run: all the errors, then no compiler.
  std::vector<std::string> translations;
  bool failed = false;
  for (const experiment::CompilerSource& source : plan.sources) {
    experiment::Translation translation;
    try {
      translation = experiment::translate(core::SourceText(source.original, core::read_file(source.original)));
    } catch (const std::exception& error) {
      std::fprintf(stderr, "augur cc: %s\n", error.what());
      failed = true;
      continue;
    }
    print_errors(translation);
    failed = failed || !translation.ok();
    translations.push_back(std::move(translation.code));
  }
  if (failed) return 1;
  for (std::size_t index = 0; index < plan.sources.size(); ++index) {
    const fs::path translated(plan.sources[index].translated);
    fs::create_directories(translated.parent_path());
    core::write_file_atomically(translated.string(), translations[index]);
  }
  const int status = run_compiler(plan.argv);
  if (options.keep) {
    directory.keep();
    std::fprintf(stderr, "augur cc: the translated sources are kept in %s\n", directory.path().c_str());
  }
  return status;
}

}  // namespace

int run_cc_command(const CcOptions& options) {
  const bool wrapper_options = options.keep || !options.include_directory.empty() || !options.library_directory.empty();
  if (options.wrapper) {
    if (options.arguments.empty()) return usage_error("expected the compiler command after '--' (e.g. augur cc -- cc fft.c -o fft)");
    if (options.check || !options.output.empty()) return usage_error("--check and -o do not go with a compiler command: its own -o names its output");
    if (experiment::is_source_path(options.arguments.front())) {
      return usage_error("'" + options.arguments.front() + "' is a source, not a compiler: the compiler comes right after '--' "
                         "(e.g. augur cc -- cc " + options.arguments.front() + ")");
    }
  } else {
    if (wrapper_options) return usage_error("--keep, --include-dir and --library-dir are for a compiler command after '--'");
    if (options.arguments.empty()) return usage_error(options.check ? "expected the files to check" : "expected the file to translate");
    if (options.check && !options.output.empty()) return usage_error("--check writes no translation: drop -o");
    if (!options.check && options.arguments.size() > 1) {
      return usage_error("one file at a time (or --check FILE..., or a compiler command after '--')");
    }
  }
  try {
    if (options.wrapper) return compile(options);
    if (options.check) return check_files(options);
    return translate_one(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "augur cc: %s\n", error.what());
    return 1;
  }
}

Runner declare_cc_command(CLI::App& command) {
  auto options = std::make_shared<CcOptions>();
  add_cc_options(&command, *options);
  return [options] { return run_cc_command(*options); };
}

}  // namespace augur::cli
