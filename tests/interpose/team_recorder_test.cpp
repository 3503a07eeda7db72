// Each thread's work between barriers (src/interpose/team_recorder.hpp): arrivals and departures with injected
// times in, the master's episodes out; the baseline steps' serialization on real threads.
#include "interpose/team_recorder.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <barrier>
#include <thread>

namespace {

using augur::interpose::TeamRecorder;

TEST(TeamRecorder, EpisodesAreTheWorkSinceTheLastBarrier) {
  TeamRecorder recorder(4);
  recorder.begin_region();
  double work[2] = {};
  EXPECT_FALSE(recorder.episode(2, work));  // the master has not arrived anywhere yet
  // Barrier 0: neither thread had left a barrier before: unknown.
  recorder.arrive(0, 1.0);
  recorder.arrive(1, 1.5);
  recorder.depart(1, 2.0);
  recorder.depart(0, 2.0);
  ASSERT_TRUE(recorder.episode(2, work));
  EXPECT_EQ(work[0], -1.0);
  EXPECT_EQ(work[1], -1.0);
  // Barrier 1: thread 1 arrives first, leaves, and arrives at barrier 2 before the master reads barrier 1.
  recorder.arrive(1, 2.5);
  recorder.arrive(0, 3.0);
  recorder.depart(1, 3.1);
  recorder.arrive(1, 3.6);  // barrier 2, thread 1 (the other half of the double buffer)
  recorder.depart(0, 3.1);
  ASSERT_TRUE(recorder.episode(2, work));
  EXPECT_DOUBLE_EQ(work[0], 1.0);
  EXPECT_DOUBLE_EQ(work[1], 0.5);
  // Barrier 2: the master's read finds thread 1's arrival 2.
  recorder.arrive(0, 3.3);
  recorder.depart(0, 4.0);
  recorder.depart(1, 4.0);
  ASSERT_TRUE(recorder.episode(2, work));
  EXPECT_NEAR(work[0], 0.2, 1e-12);
  EXPECT_NEAR(work[1], 0.5, 1e-12);
}

TEST(TeamRecorder, RuntimeOverheadIsTakenOutOfTheWork) {
  // A baseline step under libomp: 0.3 s of the master's 1 s went to the chunk dispatcher, which a one-thread
  // run does not call; an overhead larger than the time in between leaves no work, never a negative one.
  TeamRecorder recorder(2);
  recorder.begin_region();
  recorder.depart(0, 0.0);
  recorder.depart(1, 0.0);
  recorder.arrive(0, 1.0, 0.3);
  recorder.arrive(1, 0.5, 0.7);
  double work[2] = {};
  ASSERT_TRUE(recorder.episode(2, work));
  EXPECT_NEAR(work[0], 0.7, 1e-12);
  EXPECT_EQ(work[1], 0.0);
}

TEST(TeamRecorder, SpinsOnFlagsAreTakenOutOfTheWorkAndGivenBesideIt) {
  // A pipelined sweep: thread 1 spun 0.2 s of its 1 s on a flag, the master not at all; a spin longer than the
  // time in between (counted across a barrier the thread was not measured at) leaves no work and is cut to it.
  TeamRecorder recorder(2);
  recorder.begin_region();
  recorder.depart(0, 0.0);
  recorder.depart(1, 0.0);
  recorder.arrive(0, 1.0, 0.0, 0.0);
  recorder.arrive(1, 1.0, 0.1, 0.2);
  recorder.depart(0, 1.5);
  recorder.depart(1, 1.5);
  double work[2] = {};
  double spin[2] = {-1.0, -1.0};
  ASSERT_TRUE(recorder.episode(2, work, spin));
  EXPECT_NEAR(work[0], 1.0, 1e-12);
  EXPECT_NEAR(work[1], 0.7, 1e-12) << "the spin and the runtime's overhead both out";
  EXPECT_EQ(spin[0], 0.0);
  EXPECT_NEAR(spin[1], 0.2, 1e-12);
  recorder.arrive(0, 2.0);
  recorder.arrive(1, 2.0, 0.0, 0.9);
  ASSERT_TRUE(recorder.episode(2, work, spin));
  EXPECT_EQ(work[1], 0.0);
  EXPECT_NEAR(spin[1], 0.5, 1e-12);
}

TEST(TeamRecorder, TheMasterReadsTheLatestArrivalOfTheOthers) {
  TeamRecorder recorder(4);
  recorder.begin_region();
  for (int thread = 0; thread < 3; ++thread) recorder.depart(thread, 0.0);
  recorder.arrive(1, 0.7);
  recorder.arrive(2, 0.4);
  EXPECT_EQ(recorder.latest_other_arrival(3), -1.0);  // the master has not arrived yet
  recorder.arrive(0, 1.0);
  EXPECT_DOUBLE_EQ(recorder.latest_other_arrival(3), 0.7);
  EXPECT_DOUBLE_EQ(recorder.latest_other_arrival(2), 0.7);
  EXPECT_EQ(recorder.latest_other_arrival(1), -1.0);  // a team of one: no other thread
}

// The courtesy rule on crafted times (seconds; us = 1e-6): a thread that arrived at 100 us waits while its wait
// is shorter than the master's time in the tool in this episode so far.
TEST(TeamRecorder, TheCourtesyLastsTheMastersTimeInTheToolInThisEpisode) {
  constexpr double us = 1e-6;
  // The master not in the tool and no time in it this episode: no wait at all.
  EXPECT_FALSE(TeamRecorder::courtesy_continues(100 * us, 100 * us, 0.0, -1.0));
  // 3 us of bookkeeping after the last barrier, left; now working: the wait lasts 3 us.
  EXPECT_TRUE(TeamRecorder::courtesy_continues(100 * us, 102.9 * us, 3 * us, -1.0));
  EXPECT_FALSE(TeamRecorder::courtesy_continues(100 * us, 103.1 * us, 3 * us, -1.0));
  // In a sample since 99 us (its work done before the other arrived), 3 us of bookkeeping before: it would
  // have been there without the tool, so the wait goes on while it is in the tool (3 + 11 > 10 at 110 us)...
  EXPECT_TRUE(TeamRecorder::courtesy_continues(100 * us, 110 * us, 3 * us, 99 * us));
  // ...up to the limit of 50 us (a master preempted inside the tool).
  EXPECT_TRUE(TeamRecorder::courtesy_continues(100 * us, 149 * us, 3 * us, 99 * us));
  EXPECT_FALSE(TeamRecorder::courtesy_continues(100 * us, 150.5 * us, 3 * us, 99 * us));
  // In a sample since 104 us with 1 us of bookkeeping: its work ended at 103 us of its time without the tool,
  // after the other arrived, so alone the other would have slept; the wait ends at 101 us, before the stint.
  EXPECT_TRUE(TeamRecorder::courtesy_continues(100 * us, 100.9 * us, 1 * us, -1.0));
  EXPECT_FALSE(TeamRecorder::courtesy_continues(100 * us, 101.1 * us, 1 * us, -1.0));
  // A master still in its bookkeeping when the other arrives (a short episode): the wait lasts while it is.
  EXPECT_TRUE(TeamRecorder::courtesy_continues(100 * us, 108 * us, 0.0, 95 * us));
  EXPECT_FALSE(TeamRecorder::courtesy_continues(100 * us, 108 * us, 0.0, 95 * us, 7 * us));  // a smaller limit
}

double monotonic() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double seconds_since(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

TEST(TeamRecorder, NoCourtesyWhenTheMasterIsNotInTheTool) {
  TeamRecorder recorder(2);
  recorder.set_courtesy_limit(30.0);
  recorder.begin_region();
  recorder.arrive(0, 0.0);  // both at the first barrier
  recorder.arrive(1, 0.0);
  recorder.depart(1, 0.0);
  const double now = monotonic();
  recorder.master_left_barrier(now - 1.0);  // its bookkeeping began a second ago (not the limit: 50 us)...
  recorder.master_tool_end(now - 1.0);      // ...and took no time
  recorder.arrive(1, now);
  const auto started = std::chrono::steady_clock::now();
  recorder.wait_for_master(1, now);  // the master works: no wait
  EXPECT_LT(seconds_since(started), 0.01);
}

TEST(TeamRecorder, AThreadWaitsForTheMasterToLeaveTheTool) {
  TeamRecorder recorder(2);
  recorder.set_courtesy_limit(30.0);  // so that only the master's moves end the wait here
  recorder.begin_region();
  recorder.arrive(0, 0.0);  // both at the first barrier
  recorder.arrive(1, 0.0);
  recorder.depart(1, 0.0);
  std::atomic<int> master_step{0};
  std::atomic<int> seen_at{-1};
  recorder.master_left_barrier(monotonic() - 20.0);  // in its bookkeeping, 20 s of it so far (crafted)
  std::thread other([&] {
    recorder.arrive(1, monotonic());  // the second barrier
    master_step.store(1);
    recorder.wait_for_master(1, monotonic());
    seen_at.store(master_step.load());
  });
  while (master_step.load() != 1) std::this_thread::yield();
  recorder.master_tool_end(monotonic());  // its bookkeeping is longer than the whole wait...
  master_step.store(2);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // ...and it works while the other waits
  recorder.master_tool_begin(monotonic());  // its arrival stamp, then its sample: still in the tool
  recorder.arrive(0, monotonic());
  master_step.store(3);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  master_step.store(4);
  recorder.master_tool_end(monotonic());  // into the runtime's barrier
  other.join();
  EXPECT_EQ(seen_at.load(), 4);
}

TEST(TeamRecorder, TheCourtesyIsForTheEpisodeUnderWay) {
  TeamRecorder recorder(2);
  recorder.set_courtesy_limit(30.0);
  recorder.begin_region();
  recorder.depart(1, 0.0);
  const double now = monotonic();
  recorder.master_left_barrier(now);  // the master heads for its first barrier, in the tool
  recorder.arrive(1, now);
  recorder.arrive(1, now);  // the other thread at its second barrier: the master is an episode behind
  const auto started = std::chrono::steady_clock::now();
  recorder.wait_for_master(1, now);  // not the tool's doing: no wait
  EXPECT_LT(seconds_since(started), 0.01);
  recorder.set_serialize(true);
  recorder.wait_for_master(1, now);  // none in a baseline step either
  EXPECT_LT(seconds_since(started), 0.02);
}

TEST(TeamRecorder, KnowsTheKernelIdOfEachThreadSeenInTheRegion) {
  TeamRecorder recorder(3);
  recorder.begin_region();
  EXPECT_EQ(recorder.tid(0), 0);
  recorder.depart(0, 0.0);
  EXPECT_EQ(recorder.tid(0), static_cast<long>(::gettid()));
  long other = 0;
  std::thread([&] {
    recorder.depart(1, 0.0);
    other = static_cast<long>(::gettid());
  }).join();
  EXPECT_EQ(recorder.tid(1), other);
  EXPECT_NE(other, recorder.tid(0));
  EXPECT_EQ(recorder.tid(2), 0);   // never seen
  EXPECT_EQ(recorder.tid(7), 0);   // beyond the capacity
  recorder.begin_region();
  EXPECT_EQ(recorder.tid(1), 0);   // seen in an earlier region only
}

TEST(TeamRecorder, AThreadOfAnotherArrivalOrRegionIsUnknown) {
  TeamRecorder recorder(4);
  recorder.begin_region();
  recorder.depart(0, 0.0);
  recorder.depart(1, 0.0);
  recorder.arrive(0, 1.0);  // thread 1 never arrives at this barrier
  double work[3] = {};
  ASSERT_TRUE(recorder.episode(3, work));
  EXPECT_DOUBLE_EQ(work[0], 1.0);
  EXPECT_EQ(work[1], -1.0);
  EXPECT_EQ(work[2], -1.0);
  // A new region: the old counts are forgotten, and a thread beyond the capacity is unknown.
  recorder.begin_region();
  recorder.depart(0, 5.0);
  recorder.arrive(0, 6.0);
  double five[5] = {};
  ASSERT_TRUE(recorder.episode(5, five));
  EXPECT_DOUBLE_EQ(five[0], 1.0);
  EXPECT_EQ(five[4], -1.0);
}

// Two threads run 5 episodes with a real barrier. In each, thread 0 works until it sees that thread 1 has started
// its share of the same episode (waiting at most `patience` seconds). With serialization on, thread 1 starts only
// after thread 0 has arrived at the next barrier, so thread 0 never sees it; without, it always does. Returns the
// episodes in which thread 0 saw thread 1 working beside it (no timing assumption but the patience).
int episodes_side_by_side(bool serialize, double patience) {
  TeamRecorder recorder(2);
  recorder.begin_region();
  recorder.set_wait_limit(30.0);
  recorder.set_serialize(serialize);
  std::barrier sync(2);
  std::atomic<int> started{-1};  // the last episode thread 1 started
  int seen = 0;
  auto body = [&](int thread) {
    for (int episode = 0; episode < 5; ++episode) {
      recorder.wait_turn(thread);
      if (thread == 1) {
        started.store(episode);
      } else {
        const double until = augur::runtime::read_clock(CLOCK_MONOTONIC) + patience;
        while (started.load() < episode && augur::runtime::read_clock(CLOCK_MONOTONIC) < until) std::this_thread::yield();
        if (started.load() >= episode) ++seen;
      }
      recorder.arrive(thread, augur::runtime::read_clock(CLOCK_MONOTONIC));
      sync.arrive_and_wait();
      recorder.depart(thread, augur::runtime::read_clock(CLOCK_MONOTONIC));
    }
  };
  std::thread other([&] { body(1); });
  body(0);
  other.join();
  EXPECT_FALSE(recorder.failed());
  return seen;
}

TEST(TeamRecorder, BaselineStepsRunTheThreadsOneAfterTheOther) {
  EXPECT_EQ(episodes_side_by_side(true, 0.05), 0);
  EXPECT_EQ(episodes_side_by_side(false, 10.0), 5);
}

TEST(TeamRecorder, AWaitLongerThanTheLimitStopsTheBaselineForGood) {
  TeamRecorder recorder(2);
  recorder.begin_region();
  recorder.set_wait_limit(0.01);
  recorder.set_serialize(true);
  recorder.arrive(1, 0.0);   // thread 1 arrived at barrier 0; thread 0 never arrives at barrier 1
  recorder.arrive(0, 0.0);
  recorder.wait_turn(1);     // gives up after 10 ms
  EXPECT_TRUE(recorder.failed());
  EXPECT_FALSE(recorder.serializing());
  recorder.set_serialize(true);  // refused from now on
  EXPECT_FALSE(recorder.serializing());
}

}  // namespace

namespace {

// Each courtesy wait is counted by its thread: one that the master's leaving the tool ended, one that the limit
// ended with the master still working (ran out), and none where the master spent no time in the tool.
TEST(TeamRecorder, CountsTheCourtesyWaitsAndHowTheyEnded) {
  TeamRecorder recorder(2);
  recorder.set_courtesy_limit(0.002);  // 2 ms
  recorder.begin_region();
  recorder.arrive(0, 0.0);
  recorder.arrive(1, 0.0);
  recorder.depart(1, 0.0);
  EXPECT_EQ(recorder.courtesy().waits, 0);
  // The master in its bookkeeping for 20 s (crafted): the other thread waits until the limit, the master not there.
  recorder.master_left_barrier(monotonic() - 20.0);
  recorder.arrive(1, monotonic());
  EXPECT_EQ(recorder.wait_for_master(1, monotonic()), TeamRecorder::Courtesy::RanOut);
  // The master arrives and leaves the tool while the other thread waits: the wait ends on it.
  recorder.depart(1, monotonic());
  recorder.arrive(0, monotonic());
  recorder.depart(0, monotonic());
  // (A waiter descheduled until the master has come and gone rightly waits for nothing (None, not counted):
  // under load the episode is tried again, up to 10 times; RanOut would be a fault, the limit is 30 s.)
  recorder.set_courtesy_limit(30.0);
  TeamRecorder::Courtesy seen = TeamRecorder::Courtesy::None;
  for (int attempt = 0; attempt < 10 && seen == TeamRecorder::Courtesy::None; ++attempt) {
    if (attempt > 0) {
      recorder.depart(1, monotonic());
      recorder.depart(0, monotonic());
    }
    recorder.master_left_barrier(monotonic() - 20.0);
    recorder.arrive(1, monotonic());
    std::thread master([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      recorder.master_tool_begin(monotonic());
      recorder.arrive(0, monotonic());
      recorder.master_tool_end(monotonic());
    });
    seen = recorder.wait_for_master(1, monotonic());
    master.join();
  }
  EXPECT_EQ(seen, TeamRecorder::Courtesy::MasterThere);
  // No time in the tool in this episode: no wait, not counted.
  recorder.depart(1, monotonic());
  const double now = monotonic();
  recorder.master_left_barrier(now - 1.0);  // its bookkeeping took no time
  recorder.master_tool_end(now - 1.0);
  recorder.arrive(1, now);
  EXPECT_EQ(recorder.wait_for_master(1, now), TeamRecorder::Courtesy::None);
  const TeamRecorder::CourtesyTotals totals = recorder.courtesy();
  EXPECT_EQ(totals.waits, 2);
  EXPECT_EQ(totals.ran_out, 1);
  EXPECT_GT(totals.seconds, 0.002);  // the limit's 2 ms, and the second wait (up to the master's 5 ms; less when descheduled)
}

}  // namespace
