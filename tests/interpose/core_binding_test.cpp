// The team on the master's core during baseline windows (src/interpose/core_binding.hpp): when the
// environment allows it, and every bound thread's own affinity mask back after the window, whichever way
// release() takes (AUGUR_CORE_BINDING).
#include "interpose/core_binding.hpp"

#include <gtest/gtest.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

using augur::interpose::CoreBinding;
using augur::interpose::TeamRecorder;

class CoreBindingEnvironment : public ::testing::Test {
protected:
  void SetUp() override {
    ::setenv("OMP_WAIT_POLICY", "passive", 1);
    ::unsetenv("GOMP_SPINCOUNT");
    ::unsetenv("KMP_BLOCKTIME");
    ::unsetenv("AUGUR_CORE_BINDING");
  }
  void TearDown() override {
    ::unsetenv("OMP_WAIT_POLICY");
    ::unsetenv("AUGUR_CORE_BINDING");
  }
};

TEST_F(CoreBindingEnvironment, PassiveWaitingAllowsItAndTheVariableTurnsItOffOrLeavesThreadsWhereTheyAre) {
  EXPECT_TRUE(CoreBinding::allowed_by_environment());
  EXPECT_EQ(CoreBinding::release_from_environment(), CoreBinding::Release::Back);
  ::setenv("AUGUR_CORE_BINDING", "OFF", 1);
  EXPECT_FALSE(CoreBinding::allowed_by_environment());
  ::setenv("AUGUR_CORE_BINDING", "stay", 1);
  EXPECT_TRUE(CoreBinding::allowed_by_environment());
  EXPECT_EQ(CoreBinding::release_from_environment(), CoreBinding::Release::Stay);
  ::setenv("AUGUR_CORE_BINDING", "on", 1);
  EXPECT_EQ(CoreBinding::release_from_environment(), CoreBinding::Release::Back);
  ::setenv("GOMP_SPINCOUNT", "1000", 1);  // spinning threads would keep the core from the one whose turn it is
  EXPECT_FALSE(CoreBinding::allowed_by_environment());
  ::unsetenv("GOMP_SPINCOUNT");
  ::setenv("OMP_WAIT_POLICY", "active", 1);
  EXPECT_FALSE(CoreBinding::allowed_by_environment());
}

// Binds the master and a second thread, checks both are on one core, releases, and checks both masks are
// their own again.
void bind_and_release(CoreBinding::Release release) {
  cpu_set_t own;
  ASSERT_EQ(::sched_getaffinity(0, sizeof own, &own), 0);
  TeamRecorder recorder(2);
  recorder.begin_region();
  std::atomic<long> other{0};
  std::atomic<bool> done{false};
  std::thread thread([&] {
    recorder.depart(1, 0.0);  // the slot learns the thread's kernel id and core
    other.store(recorder.tid(1));
    while (!done.load()) std::this_thread::yield();
  });
  while (other.load() == 0) std::this_thread::yield();
  recorder.depart(0, 0.0);
  CoreBinding binding(true, 2, release);
  binding.bind(recorder, 2);
  for (const long tid : {recorder.tid(0), other.load()}) {
    cpu_set_t bound;
    ASSERT_EQ(::sched_getaffinity(static_cast<pid_t>(tid), sizeof bound, &bound), 0);
    EXPECT_EQ(CPU_COUNT(&bound), 1) << tid;
  }
  binding.release();
  for (const long tid : {recorder.tid(0), other.load()}) {
    cpu_set_t back;
    ASSERT_EQ(::sched_getaffinity(static_cast<pid_t>(tid), sizeof back, &back), 0);
    EXPECT_TRUE(CPU_EQUAL(&back, &own)) << tid;
  }
  done.store(true);
  thread.join();
}

TEST(CoreBinding, ReleaseGivesEachThreadItsOwnMaskBack) {
  bind_and_release(CoreBinding::Release::Back);
  bind_and_release(CoreBinding::Release::Stay);
}

// The baseline steps stop while the team is bound (a thread waited too long for its turn: a pipeline inside a
// construct): that thread lets itself go at once through the recorder's failure hook, its own mask back, while
// the master stays bound until its release (before 2026-11-28 both stayed on one core until the master's next step
// boundary, and a pipeline whose master spins on a flag ran its step taking turns with it: 0.42 s in a 0.23 s run
// of examples/interpose/wavefront.c).
TEST(CoreBinding, AThreadThatFindsTheBaselineStoppedLetsItselfGo) {
  cpu_set_t own;
  ASSERT_EQ(::sched_getaffinity(0, sizeof own, &own), 0);
  if (CPU_COUNT(&own) < 2) GTEST_SKIP() << "one CPU allowed: bound and not bound are the same mask";
  TeamRecorder recorder(2);
  recorder.begin_region();
  CoreBinding binding(true, 2);
  recorder.set_failure_hook([](void* context, int thread) { static_cast<const CoreBinding*>(context)->release_own(thread); }, &binding);
  std::atomic<long> other{0};
  std::atomic<bool> bound{false};
  std::atomic<bool> waited{false};
  std::atomic<bool> done{false};
  cpu_set_t after_wait;
  CPU_ZERO(&after_wait);
  std::thread thread([&] {
    recorder.depart(1, 0.0);
    other.store(recorder.tid(1));
    while (!bound.load()) std::this_thread::yield();
    recorder.arrive(1, 0.0);
    recorder.wait_turn(1);  // thread 0 never arrives at the next barrier: gives up after 10 ms
    (void)::sched_getaffinity(0, sizeof after_wait, &after_wait);
    waited.store(true);
    while (!done.load()) std::this_thread::yield();
  });
  while (other.load() == 0) std::this_thread::yield();
  recorder.depart(0, 0.0);
  recorder.arrive(0, 0.0);
  recorder.set_wait_limit(0.01);
  recorder.set_serialize(true);
  binding.bind(recorder, 2);
  bound.store(true);
  while (!waited.load()) std::this_thread::yield();
  EXPECT_TRUE(recorder.failed());
  EXPECT_TRUE(CPU_EQUAL(&after_wait, &own));  // the thread let itself go
  cpu_set_t master;
  ASSERT_EQ(::sched_getaffinity(0, sizeof master, &master), 0);
  EXPECT_EQ(CPU_COUNT(&master), 1);  // the master is still bound
  binding.release_own(2);             // no such thread: nothing
  ASSERT_EQ(::sched_getaffinity(0, sizeof master, &master), 0);
  EXPECT_EQ(CPU_COUNT(&master), 1);
  binding.release_own(0);  // the master lets itself go as a thread would
  ASSERT_EQ(::sched_getaffinity(0, sizeof master, &master), 0);
  EXPECT_TRUE(CPU_EQUAL(&master, &own));
  binding.release();  // both let themselves go: nothing left to move
  EXPECT_FALSE(binding.bound());
  done.store(true);
  thread.join();
}

// A team of four: threads 1 and 2 wait for their turns at once (thread 0, the master, never arrives); the first
// to run out of time stops the baseline steps and wakes the other, which lets itself go as woken (or, if its own
// time ran out first, as the one that gave up: both paths call the hook); thread 3, not waiting then, finds the
// stop when it leaves its next barrier and lets itself go there. The master stays bound. Every wait has a
// deadline, so that a regression fails the test instead of hanging it.
TEST(CoreBinding, EveryThreadOfALargerTeamLetsItselfGoWokenOrAtItsNextBarrier) {
  cpu_set_t own;
  ASSERT_EQ(::sched_getaffinity(0, sizeof own, &own), 0);
  if (CPU_COUNT(&own) < 2) GTEST_SKIP() << "one CPU allowed: bound and not bound are the same mask";
  constexpr int team = 4;
  TeamRecorder recorder(team);
  recorder.begin_region();
  CoreBinding binding(true, team);
  recorder.set_failure_hook([](void* context, int thread) { static_cast<const CoreBinding*>(context)->release_own(thread); }, &binding);
  std::atomic<int> known{0};
  std::atomic<bool> bound{false};
  std::atomic<int> waited{0};
  std::atomic<bool> done{false};
  cpu_set_t after[team];
  cpu_set_t while_bound[team];
  for (int thread = 0; thread < team; ++thread) {
    CPU_ZERO(&after[thread]);
    CPU_ZERO(&while_bound[thread]);
  }
  std::vector<std::thread> threads;
  for (int thread = 1; thread < team; ++thread) {
    threads.emplace_back([&, thread] {
      recorder.depart(thread, 0.0);
      known.fetch_add(1);
      while (!bound.load()) std::this_thread::yield();
      (void)::sched_getaffinity(0, sizeof while_bound[thread], &while_bound[thread]);
      if (thread == team - 1) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!recorder.failed() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();  // busy elsewhere
      }
      recorder.arrive(thread, 0.0);
      recorder.wait_turn(thread);
      (void)::sched_getaffinity(0, sizeof after[thread], &after[thread]);
      waited.fetch_add(1);
      while (!done.load()) std::this_thread::yield();
    });
  }
  while (known.load() < team - 1) std::this_thread::yield();
  recorder.depart(0, 0.0);
  recorder.set_wait_limit(0.05);
  recorder.set_serialize(true);
  binding.bind(recorder, team);
  bound.store(true);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (waited.load() < team - 1 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  if (waited.load() < team - 1) {  // a thread stuck in wait_turn cannot be joined: fail the process, not hang it
    std::fprintf(stderr, "only %d of %d threads came back from their wait within 10 s\n", waited.load(), team - 1);
    std::fflush(nullptr);
    std::_Exit(1);
  }
  EXPECT_TRUE(recorder.failed());
  EXPECT_FALSE(recorder.serializing());
  for (int thread = 1; thread < team; ++thread) {
    EXPECT_EQ(CPU_COUNT(&while_bound[thread]), 1) << "thread " << thread;
    EXPECT_TRUE(CPU_EQUAL(&after[thread], &own)) << "thread " << thread << " still bound";
  }
  cpu_set_t master;
  ASSERT_EQ(::sched_getaffinity(0, sizeof master, &master), 0);
  EXPECT_EQ(CPU_COUNT(&master), 1);
  binding.release();  // the master only: the others are gone
  ASSERT_EQ(::sched_getaffinity(0, sizeof master, &master), 0);
  EXPECT_TRUE(CPU_EQUAL(&master, &own));
  EXPECT_FALSE(binding.bound());
  done.store(true);
  for (std::thread& thread : threads) thread.join();
}

TEST(CoreBinding, NotAllowedBindsNothing) {
  cpu_set_t own;
  ASSERT_EQ(::sched_getaffinity(0, sizeof own, &own), 0);
  TeamRecorder recorder(1);
  recorder.begin_region();
  recorder.depart(0, 0.0);
  CoreBinding binding(false, 1);
  binding.bind(recorder, 1);
  cpu_set_t after;
  ASSERT_EQ(::sched_getaffinity(0, sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&after, &own));
}

}  // namespace
