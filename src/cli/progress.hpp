// Progress of long work on standard error, and Ctrl-C, shared by the commands (docs/progress.md).
//
// On a terminal a Progress draws one line that it redraws in place: the label, a bar, the percentage, done/total
// and the time left (ETA: the elapsed time x the work left / the work done); with no known total, the count and
// the elapsed time. In a pipe it stays quiet, unless forced (--progress of the cache commands: then it writes
// whole lines). Every error goes out through report_error (command.hpp), which clears the line first, so no
// message is glued onto a bar.
//
// Ctrl-C: a command that does long work calls catch_interruptions() first; from then on SIGINT, SIGTERM and
// SIGHUP are remembered (and passed on to a child being waited for, core::spawn) instead of ending augur at
// once. Progress::update (and check_interrupted) then throws Interrupted, the command unwinds (its temporary
// and half-written files removed by their owners: core::OutputFile, core::TemporaryFolder), and report_error
// prints "augur <command>: interrupted" and returns 128 + the signal (130 for SIGINT).
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace augur::cli {

// Where a Progress writes: standard error, or a fake one in the tests.
class ProgressTerminal {
public:
  virtual ~ProgressTerminal() = default;
  [[nodiscard]] virtual bool interactive() const = 0;  // a terminal, not a pipe or a file
  [[nodiscard]] virtual int width() const = 0;         // columns
  virtual void write(std::string_view text) = 0;
};

// Standard error: interactive when it is a terminal whose TERM is not "dumb"; its width from the terminal
// (TIOCGWINSZ), else COLUMNS, else 80.
ProgressTerminal& standard_error_terminal();

// Seconds on a monotonic clock (std::chrono::steady_clock by default; a fake one in the tests).
using ProgressClock = std::function<double()>;
[[nodiscard]] ProgressClock steady_progress_clock();

// Thrown when a signal caught by catch_interruptions() arrived.
class Interrupted : public std::runtime_error {
public:
  explicit Interrupted(int signal_number);
  [[nodiscard]] int signal_number() const { return signal_; }
  [[nodiscard]] int exit_status() const { return 128 + signal_; }

private:
  int signal_;
};

// From now on SIGINT, SIGTERM and SIGHUP are remembered (core::forward_interruptions).
void catch_interruptions();
// Throws Interrupted when such a signal arrived.
void check_interrupted();

// Whether progress goes out: never with `quiet`, always with `forced`, else on a terminal.
[[nodiscard]] bool progress_on_stderr(bool quiet, bool forced);

class Progress {
public:
  enum class Mode { off, bar, lines };
  // `total` <= 0: unknown. `unit` names what is counted ("runs", "replications", "accesses").
  Progress(std::string label, long long total, std::string unit, Mode mode, ProgressTerminal& terminal = standard_error_terminal(),
           ProgressClock clock = steady_progress_clock());
  // The mode for standard error: lines when forced on a pipe, a bar on a terminal, off when quiet or on a pipe.
  [[nodiscard]] static Mode mode_for(bool quiet, bool forced = false, const ProgressTerminal& terminal = standard_error_terminal());
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` of the total so far, with an optional word on what runs now; checks for Ctrl-C first (throws
  // Interrupted). The bar is redrawn at most every 0.1 s, and only once the work has run 0.5 s (short work
  // draws nothing); lines are written at the first call, then at most one a second, and when done = total.
  void update(long long done, const std::string& detail = "");
  // Erases the bar (nothing when none is drawn); the next update draws it again.
  void clear();
  // The text of the line at `now` for `done`, cut to the terminal's width (no control characters).
  [[nodiscard]] std::string render(long long done, double now, const std::string& detail) const;

private:
  std::string label_;
  long long total_;
  std::string unit_;
  Mode mode_;
  ProgressTerminal& terminal_;
  ProgressClock clock_;
  double started_;
  double drawn_at_ = -1.0;  // when the bar was last drawn; < 0 when none is on the screen
  double lines_at_ = -1.0;  // when the last line was written (Mode::lines); < 0 before the first
};

// Erases the bar of the Progress alive, if any (report_error calls it before any message).
void clear_progress_line();

// "0:07", "12:34", "1:02:03".
[[nodiscard]] std::string format_duration(double seconds);

}  // namespace augur::cli
