// Progress of long work and Ctrl-C (progress.hpp).
#include "progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "core/process.hpp"

namespace augur::cli {
namespace {

constexpr int bar_width = 20;
constexpr double first_draw_after = 0.5;  // seconds: short work draws nothing
constexpr double redraw_every = 0.1;      // seconds between two drawings of the bar
constexpr double line_every = 1.0;        // seconds between two lines (Mode::lines)

class StandardError final : public ProgressTerminal {
public:
  [[nodiscard]] bool interactive() const override {
    const char* term = std::getenv("TERM");
    return isatty(STDERR_FILENO) != 0 && !(term != nullptr && std::strcmp(term, "dumb") == 0);
  }
  [[nodiscard]] int width() const override {
    winsize size{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
    if (const char* columns = std::getenv("COLUMNS")) {
      const int value = std::atoi(columns);
      if (value > 0) return value;
    }
    return 80;
  }
  void write(std::string_view text) override {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  }
};

Progress* active = nullptr;  // the Progress whose bar may be on the screen (one at a time)

// `text` cut to `columns` bytes, never inside a UTF-8 sequence.
std::string cut(std::string text, std::size_t columns) {
  if (text.size() <= columns) return text;
  std::size_t end = columns;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text;
}

}  // namespace

ProgressTerminal& standard_error_terminal() {
  static StandardError terminal;
  return terminal;
}

ProgressClock steady_progress_clock() {
  return [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
}

Interrupted::Interrupted(int signal_number)
    : std::runtime_error(std::string("interrupted by ") + (signal_number == 2 ? "Ctrl-C" : strsignal(signal_number))),
      signal_(signal_number) {}

void catch_interruptions() { core::forward_interruptions(); }

void check_interrupted() {
  if (const int signal_number = core::interrupted()) throw Interrupted(signal_number);
}

bool progress_on_stderr(bool quiet, bool forced) { return !quiet && (forced || standard_error_terminal().interactive()); }

std::string format_duration(double seconds) {
  const long total = std::lround(std::max(seconds, 0.0));
  char buffer[32];
  if (total >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld", total / 60, total % 60);
  }
  return buffer;
}

Progress::Progress(std::string label, long long total, std::string unit, Mode mode, ProgressTerminal& terminal,
                   ProgressClock clock)
    : label_(std::move(label)), total_(total), unit_(std::move(unit)), mode_(mode), terminal_(terminal), clock_(std::move(clock)),
      started_(clock_()) {
  if (mode_ != Mode::off) active = this;
}

Progress::Mode Progress::mode_for(bool quiet, bool forced, const ProgressTerminal& terminal) {
  if (quiet) return Mode::off;
  if (terminal.interactive()) return Mode::bar;
  return forced ? Mode::lines : Mode::off;
}

Progress::~Progress() {
  clear();
  if (active == this) active = nullptr;
}

std::string Progress::render(long long done, double now, const std::string& detail) const {
  const double elapsed = now - started_;
  std::string line = label_ + ": ";
  if (total_ > 0) {
    const long long shown = std::clamp(done, 0LL, total_);
    const auto filled = static_cast<int>(shown * bar_width / total_);
    line += "[" + std::string(static_cast<std::size_t>(filled), '#') + std::string(static_cast<std::size_t>(bar_width - filled), '.') + "] ";
    const std::string percent = std::to_string(shown * 100 / total_) + "%";
    line += std::string(4 - std::min<std::size_t>(percent.size(), 4), ' ') + percent + " " + std::to_string(shown) + "/" + std::to_string(total_) + " " + unit_ + ", ETA ";
    line += shown > 0 ? format_duration(elapsed * static_cast<double>(total_ - shown) / static_cast<double>(shown)) : "--:--";
  } else {
    line += std::to_string(done) + " " + unit_ + ", " + format_duration(elapsed) + " elapsed";
  }
  if (!detail.empty()) line += " (" + detail + ")";
  return cut(std::move(line), static_cast<std::size_t>(std::max(terminal_.width() - 1, 10)));
}

void Progress::update(long long done, const std::string& detail) {
  check_interrupted();
  if (mode_ == Mode::off) return;
  const double now = clock_();
  if (mode_ == Mode::lines) {  // the first, then at most one a second, and the last
    if (lines_at_ >= 0.0 && now - lines_at_ < line_every && done != total_) return;
    terminal_.write(render(done, now, detail) + "\n");
    lines_at_ = now;
    return;
  }
  if (now - started_ < first_draw_after) return;
  if (drawn_at_ >= 0.0 && now - drawn_at_ < redraw_every && done != total_) return;
  terminal_.write("\r" + render(done, now, detail) + "\033[K");
  drawn_at_ = now;
}

void Progress::clear() {
  if (drawn_at_ < 0.0) return;
  terminal_.write("\r\033[K");
  drawn_at_ = -1.0;
}

void clear_progress_line() {
  if (active != nullptr) active->clear();
}

}  // namespace augur::cli
