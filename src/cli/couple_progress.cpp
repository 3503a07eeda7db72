// augur couple measure's progress bar from the harness's rounds (couple_progress.hpp).
#include "couple_progress.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <iterator>

#include "core/files.hpp"

namespace augur::cli {
namespace {

// The number at the start of `text`, which it then drops; nullopt when there is none.
std::optional<long long> take_number(std::string_view& text) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

// "round K of N" exactly.
std::optional<std::pair<long long, long long>> round_of(std::string_view line) {
  if (!line.starts_with("round ")) return std::nullopt;
  line.remove_prefix(6);
  const auto done = take_number(line);
  if (!done || !line.starts_with(" of ")) return std::nullopt;
  line.remove_prefix(4);
  const auto total = take_number(line);
  if (!total || !line.empty() || *total < 1 || *done < 0 || *done > *total) return std::nullopt;
  return std::pair{*done, *total};
}

}  // namespace

std::optional<std::pair<long long, long long>> last_round(std::string_view text) {
  std::optional<std::pair<long long, long long>> last;
  while (true) {
    const auto end = text.find('\n');
    if (end == std::string_view::npos) return last;  // an unfinished line is not read
    if (const auto round = round_of(text.substr(0, end))) last = round;
    text.remove_prefix(end + 1);
  }
}

RoundsProgress::RoundsProgress(std::string file, Progress::Mode mode, ProgressTerminal& terminal, ProgressClock clock)
    : file_(std::move(file)), mode_(mode), terminal_(terminal), clock_(std::move(clock)) {
  core::write_file_atomically(file_, "");
}

RoundsProgress::~RoundsProgress() { stop(); }

void RoundsProgress::poll() {
  std::ifstream in(file_, std::ios::binary);
  if (!in) return;
  in.seekg(read_);
  const std::string added((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  read_ += static_cast<long long>(added.size());
  partial_ += added;
  const auto last_break = partial_.rfind('\n');
  if (last_break != std::string::npos) {
    if (const auto round = last_round(std::string_view(partial_).substr(0, last_break + 1))) {
      if (!bar_) {
        bar_ = std::make_unique<Progress>("augur couple measure", round->second, "rounds", mode_, terminal_, clock_);
        total_ = round->second;
      }
      done_ = std::min(round->first, total_);
    }
    partial_.erase(0, last_break + 1);
  }
  // Also between rounds, so that the bar appears after 0.5 s and its time goes on; the last round once (a
  // Progress always writes its end).
  if (!bar_ || interrupted_ || done_ == shown_) return;
  try {
    bar_->update(done_);
    if (done_ == total_) shown_ = done_;
  } catch (const Interrupted&) {
    interrupted_ = true;  // the program got the signal too; augur notices it once the program has ended
  }
}

void RoundsProgress::start() {
  if (mode_ == Progress::Mode::off || thread_.joinable()) return;
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      poll();
      lock.lock();
      wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stopping_; });
    }
  });
}

void RoundsProgress::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
    poll();
  }
  if (bar_) bar_->clear();
}

}  // namespace augur::cli
