// The shared progress reporter of the commands (src/cli/progress.hpp) on a fake clock and a fake terminal:
// the exact text it writes, when it stays quiet, and Ctrl-C.
#include "cli/progress.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>

#include "cli/couple_progress.hpp"
#include "support/temporary_directory.hpp"
#include <string>
#include <vector>

namespace augur::cli {
namespace {

class FakeTerminal final : public ProgressTerminal {
public:
  FakeTerminal(bool interactive, int width) : interactive_(interactive), width_(width) {}
  [[nodiscard]] bool interactive() const override { return interactive_; }
  [[nodiscard]] int width() const override { return width_; }
  void write(std::string_view text) override { writes.emplace_back(text); }
  std::vector<std::string> writes;

private:
  bool interactive_;
  int width_;
};

struct FakeClock {
  double now = 0.0;
  ProgressClock clock() {
    return [this] { return now; };
  }
};

const std::string erase = "\033[K";

TEST(Progress, DrawsABarWithAnEtaOnATerminal) {
  FakeTerminal terminal(true, 80);
  FakeClock time;
  Progress progress("augur sim", 10, "replications", Progress::Mode::bar, terminal, time.clock());
  time.now = 0.2;
  progress.update(0);  // short work draws nothing
  EXPECT_TRUE(terminal.writes.empty());
  time.now = 0.6;
  progress.update(3);  // ETA 0.6 s x 7 / 3 = 1.4 s
  ASSERT_EQ(terminal.writes.size(), 1u);
  EXPECT_EQ(terminal.writes[0], "\raugur sim: [######..............]  30% 3/10 replications, ETA 0:01" + erase);
  time.now = 0.65;
  progress.update(4);  // 0.05 s after the last drawing: not redrawn
  EXPECT_EQ(terminal.writes.size(), 1u);
  time.now = 0.66;
  progress.update(10);  // the end is always drawn
  ASSERT_EQ(terminal.writes.size(), 2u);
  EXPECT_EQ(terminal.writes[1], "\raugur sim: [####################] 100% 10/10 replications, ETA 0:00" + erase);
  progress.clear();
  progress.clear();  // nothing left to erase
  ASSERT_EQ(terminal.writes.size(), 3u);
  EXPECT_EQ(terminal.writes[2], "\r" + erase);
}

TEST(Progress, NamesWhatRunsAndFitsTheTerminal) {
  FakeTerminal terminal(true, 40);
  FakeClock time;
  Progress progress("augur speedup", 30, "runs", Progress::Mode::bar, terminal, time.clock());
  time.now = 90.0;
  const std::string line = progress.render(0, time.now, "run 1/30: time on 1 thread");
  EXPECT_EQ(line, "augur speedup: [....................]  ");  // 39 columns: the width less one
  FakeTerminal wide(true, 200);
  Progress other("augur speedup", 30, "runs", Progress::Mode::bar, wide, time.clock());
  EXPECT_EQ(other.render(0, 90.0, "run 1/30: time on 1 thread"),
            "augur speedup: [....................]   0% 0/30 runs, ETA --:-- (run 1/30: time on 1 thread)");
  // 12 of 30 after 90 s: 90 x 18 / 12 = 135 s left.
  EXPECT_EQ(other.render(12, 90.0 + 90.0, ""), "augur speedup: [########............]  40% 12/30 runs, ETA 2:15");
}

TEST(Progress, WritesLinesWhenForcedOnAPipeAtMostOneASecond) {
  FakeTerminal terminal(false, 80);
  FakeClock time;
  Progress progress("augur cache sim", 0, "accesses", Progress::mode_for(false, true, terminal), terminal, time.clock());
  progress.update(100);
  time.now = 0.5;
  progress.update(200);
  time.now = 2.0;
  progress.update(300);
  EXPECT_EQ(terminal.writes, (std::vector<std::string>{"augur cache sim: 100 accesses, 0:00 elapsed\n",
                                                       "augur cache sim: 300 accesses, 0:02 elapsed\n"}));
}

TEST(Progress, QuietInAPipeAndWithQuiet) {
  FakeTerminal pipe(false, 80);
  FakeTerminal tty(true, 80);
  EXPECT_EQ(Progress::mode_for(false, false, pipe), Progress::Mode::off);
  EXPECT_EQ(Progress::mode_for(true, true, tty), Progress::Mode::off);
  EXPECT_EQ(Progress::mode_for(false, true, pipe), Progress::Mode::lines);
  EXPECT_EQ(Progress::mode_for(false, false, tty), Progress::Mode::bar);
  FakeClock time;
  Progress progress("augur sim", 4, "replications", Progress::mode_for(false, false, pipe), pipe, time.clock());
  for (int done = 1; done <= 4; ++done) {
    time.now += 1.0;
    progress.update(done);
  }
  progress.clear();
  EXPECT_TRUE(pipe.writes.empty());
}

TEST(Progress, AnErrorClearsTheBarFirst) {
  FakeTerminal terminal(true, 80);
  FakeClock time;
  Progress progress("augur sim", 2, "replications", Progress::Mode::bar, terminal, time.clock());
  time.now = 1.0;
  progress.update(1);
  ASSERT_EQ(terminal.writes.size(), 1u);
  clear_progress_line();  // what report_error does before its message
  ASSERT_EQ(terminal.writes.size(), 2u);
  EXPECT_EQ(terminal.writes[1], "\r" + erase);
}

TEST(Progress, FormatsDurations) {
  EXPECT_EQ(format_duration(0.0), "0:00");
  EXPECT_EQ(format_duration(59.6), "1:00");
  EXPECT_EQ(format_duration(754.0), "12:34");
  EXPECT_EQ(format_duration(3723.0), "1:02:03");
}

TEST(RoundsProgress, ReadsTheLastWholeRoundLine) {
  EXPECT_EQ(last_round(""), std::nullopt);
  EXPECT_EQ(last_round("round 0 of 3\n"), (std::pair<long long, long long>{0, 3}));
  EXPECT_EQ(last_round("round 0 of 3\nround 1 of 3\nround 2 of"), (std::pair<long long, long long>{1, 3}));  // unfinished
  EXPECT_EQ(last_round("round 1 of 3\nwarming up\n"), (std::pair<long long, long long>{1, 3}));          // other lines
  for (const char* bad : {"round 4 of 3\n", "round -1 of 3\n", "round 1 of 0\n", "round 1 of 3 \n", "round x of 3\n", "Round 1 of 3\n"}) {
    EXPECT_EQ(last_round(bad), std::nullopt) << bad;
  }
}

// couple measure's bar: the harness appends rounds to the file RoundsProgress made; each poll reads what
// came and draws the last whole round (here as forced lines: the first at once, then one a second at most,
// the last once).
TEST(RoundsProgress, DrawsTheRoundsTheHarnessAppends) {
  const augur::test::TemporaryDirectory folder;
  FakeTerminal pipe(false, 120);
  FakeClock time;
  RoundsProgress rounds(folder.file("rounds.txt"), Progress::Mode::lines, pipe, time.clock());
  ASSERT_TRUE(std::filesystem::exists(rounds.file()));
  EXPECT_EQ(std::filesystem::file_size(rounds.file()), 0u);  // made empty: the harness writes only to a file that exists
  const auto append = [&](const std::string& text) {
    std::ofstream(rounds.file(), std::ios::app) << text;
  };
  rounds.poll();
  EXPECT_TRUE(pipe.writes.empty());  // no round yet
  append("round 0 of 4\n");
  rounds.poll();
  ASSERT_EQ(pipe.writes.size(), 1u);
  EXPECT_EQ(pipe.writes[0], "augur couple measure: [....................]   0% 0/4 rounds, ETA --:--\n");
  time.now = 0.5;
  append("round 1 of 4\nround 2 of");
  rounds.poll();
  EXPECT_EQ(pipe.writes.size(), 1u);  // within the second
  time.now = 2.0;
  rounds.poll();  // round 1 of 4 after 2 s: 6 s left
  ASSERT_EQ(pipe.writes.size(), 2u);
  EXPECT_EQ(pipe.writes[1], "augur couple measure: [#####...............]  25% 1/4 rounds, ETA 0:06\n");
  time.now = 2.1;
  append(" 4\nround 4 of 4\n");
  rounds.poll();  // the last round is always written, once
  ASSERT_EQ(pipe.writes.size(), 3u);
  EXPECT_EQ(pipe.writes[2], "augur couple measure: [####################] 100% 4/4 rounds, ETA 0:00\n");
  time.now = 5.0;
  rounds.poll();
  rounds.stop();
  EXPECT_EQ(pipe.writes.size(), 3u);
}

TEST(RoundsProgress, QuietWithoutATerminalAndWithoutATotal) {
  const augur::test::TemporaryDirectory folder;
  FakeTerminal pipe(false, 120);
  FakeClock time;
  RoundsProgress rounds(folder.file("rounds.txt"), Progress::Mode::off, pipe, time.clock());
  std::ofstream(rounds.file(), std::ios::app) << "round 0 of 2\nround 2 of 2\n";
  rounds.start();  // no thread when off
  rounds.poll();
  rounds.stop();
  EXPECT_TRUE(pipe.writes.empty());
}

// Last: once caught, the signal stays remembered for the rest of the process.
TEST(Progress, CtrlCStopsTheWorkAtTheNextUpdate) {
  FakeTerminal terminal(false, 80);
  FakeClock time;
  Progress progress("augur sim", 100, "replications", Progress::Mode::off, terminal, time.clock());
  catch_interruptions();
  progress.update(1);
  ASSERT_EQ(std::raise(SIGINT), 0);
  try {
    progress.update(2);
    FAIL() << "no Interrupted after SIGINT";
  } catch (const Interrupted& interrupted) {
    EXPECT_EQ(interrupted.signal_number(), SIGINT);
    EXPECT_EQ(interrupted.exit_status(), 130);
  }
}

}  // namespace
}  // namespace augur::cli
