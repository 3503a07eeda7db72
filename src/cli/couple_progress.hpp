// augur couple measure's progress bar (docs/progress.md). The coupling harness runs inside the measured
// program; augur makes an empty file and names it in the tool channel (coupling.progress_file), the harness
// appends "round K of N" to it before its first round of samples and after each, and a thread of augur reads
// the new lines while augur waits for the program, and draws them with the shared Progress.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "progress.hpp"

namespace augur::cli {

// The last whole "round K of N" line of `text` (0 <= K <= N, N >= 1), if any; other lines are skipped.
[[nodiscard]] std::optional<std::pair<long long, long long>> last_round(std::string_view text);

class RoundsProgress {
public:
  // Makes `file` empty (it must not exist beforehand: augur's temporary folder). With Mode::off nothing is
  // ever drawn, but the file is made all the same (the harness writes only to a file that exists).
  RoundsProgress(std::string file, Progress::Mode mode, ProgressTerminal& terminal = standard_error_terminal(),
                 ProgressClock clock = steady_progress_clock());
  ~RoundsProgress();  // stops the thread and erases the bar
  RoundsProgress(const RoundsProgress&) = delete;
  RoundsProgress& operator=(const RoundsProgress&) = delete;

  [[nodiscard]] const std::string& file() const { return file_; }
  // Reads what the harness appended since the last call and draws the last round (the bar is made at the
  // first round, its total N). A Ctrl-C noticed here stops the drawing; the command notices it itself.
  void poll();
  // Polls every 0.1 s on a thread of its own until stop(); nothing with Mode::off.
  void start();
  // Stops the thread, polls once more and erases the bar.
  void stop();

private:
  std::string file_;
  Progress::Mode mode_;
  ProgressTerminal& terminal_;
  ProgressClock clock_;
  long long read_ = 0;       // bytes of the file read so far
  std::string partial_;      // the end of the text read, after its last line break
  long long done_ = 0;       // the last round finished
  long long total_ = 0;      // the rounds (N of the first line)
  long long shown_ = -1;     // the last round drawn, once it is the total
  std::unique_ptr<Progress> bar_;
  bool interrupted_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace augur::cli
