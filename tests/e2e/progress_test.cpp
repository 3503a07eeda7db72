// The shared progress reporter of the commands (src/cli/progress.hpp) on a fake clock and a fake terminal:
// the exact text it writes, when it stays quiet, and Ctrl-C.
#include "cli/progress.hpp"

#include <gtest/gtest.h>

#include <csignal>
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
