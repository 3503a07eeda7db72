// The spin loops found in machine code (src/interpose/spin_loops.hpp) and the spin their samples stand for
// (pc_sampler.hpp): crafted bytes with known loops, the bytes gcc made of NPB LU's flag wait, and this test
// program's own spin loop sampled by the kernel (skipped where the kernel refuses to sample).
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

#include <cstdint>
#include <string>
#include <vector>

#include "interpose/pc_sampler.hpp"
#include "interpose/spin_loops.hpp"

namespace augur::interpose {
namespace {

std::vector<CodeRange> find(const std::vector<std::uint8_t>& code, std::uint64_t address = 0x1000) {
  return find_spin_loops(code.data(), code.size(), address);
}

TEST(SpinLoops, FindsGccsFlagWaitOfNpbLu) {
  // blts's `while (flag[j - 1] == 0) { #pragma omp flush }` in gcc 12's lu.W at 0x1d77: a nop, then
  // lock orq $0,(%rsp); lea flag(%rip),%rdi; mov (%rdi,%rax,4),%esi; test %esi,%esi; je back to the lock.
  const std::vector<std::uint8_t> code{0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00,  // nopw (9 bytes)
                                       0xf0, 0x48, 0x83, 0x0c, 0x24, 0x00, 0x48, 0x8d, 0x3d, 0x13, 0x04, 0x01, 0x00,
                                       0x8b, 0x34, 0x87, 0x85, 0xf6, 0x74, 0xec,
                                       0x8b, 0x44, 0x24, 0x54};  // mov 0x54(%rsp),%eax: after the loop
  const std::vector<CodeRange> loops = find(code, 0x1d77);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].begin, 0x1d80u);
  EXPECT_EQ(loops[0].end, 0x1d94u);
}

TEST(SpinLoops, FindsMfencePauseAndLongBranches) {
  // mfence; cmpl $1,(%rax); jne rel32 back to the mfence
  const std::vector<std::uint8_t> mfence{0x0f, 0xae, 0xf0, 0x83, 0x38, 0x01, 0x0f, 0x85, 0xf4, 0xff, 0xff, 0xff};
  ASSERT_EQ(find(mfence).size(), 1u);
  EXPECT_EQ(find(mfence)[0].begin, 0x1000u);
  EXPECT_EQ(find(mfence)[0].end, 0x100cu);
  // top: cmpl $0,(%rdi); jne out; pause; jmp top (the branch's target before the pause)
  const std::vector<std::uint8_t> pause{0x83, 0x3f, 0x00, 0x75, 0x04, 0xf3, 0x90, 0xeb, 0xf7, 0xc3};
  ASSERT_EQ(find(pause).size(), 1u);
  EXPECT_EQ(find(pause)[0].begin, 0x1000u);
  EXPECT_EQ(find(pause)[0].end, 0x1009u);
  // lock orl $0,(%rsp) (the 32-bit form); test; jne back
  const std::vector<std::uint8_t> orl{0xf0, 0x83, 0x0c, 0x24, 0x00, 0x85, 0xc0, 0x75, 0xf7};
  ASSERT_EQ(find(orl).size(), 1u);
  EXPECT_EQ(find(orl)[0].begin, 0x1000u);
}

TEST(SpinLoops, IgnoresFencesOutsideShortLoops) {
  // A fence followed by a forward branch only: no loop.
  EXPECT_TRUE(find({0xf0, 0x48, 0x83, 0x0c, 0x24, 0x00, 0x74, 0x10, 0xc3}).empty());
  // A branch back to after the fence (a loop that does not hold it).
  EXPECT_TRUE(find({0x0f, 0xae, 0xf0, 0x90, 0x90, 0x74, 0xfc}).empty());
  // A branch back further than spin_loop_reach before the fence: a long loop that merely holds a fence.
  std::vector<std::uint8_t> long_loop(100, 0x90);
  long_loop.insert(long_loop.end(), {0x0f, 0xae, 0xf0, 0x0f, 0x85});
  const std::int32_t back = -static_cast<std::int32_t>(long_loop.size() + 4);  // to the first byte
  for (int shift = 0; shift < 32; shift += 8) long_loop.push_back(static_cast<std::uint8_t>((static_cast<std::uint32_t>(back) >> shift) & 0xff));
  EXPECT_TRUE(find(long_loop).empty());
  // A fence pattern cut by the end of the code, and no code at all.
  EXPECT_TRUE(find({0x90, 0xf0, 0x48, 0x83}).empty());
  EXPECT_TRUE(find({}).empty());
}

TEST(SpinLoops, ContainsTheRangesMerged) {
  const SpinLoops loops({{0x2000, 0x2010}, {0x1000, 0x1014}, {0x1010, 0x1020}});
  EXPECT_EQ(loops.size(), 2u);  // the overlapping two merged
  EXPECT_FALSE(loops.contains(0x0fff));
  EXPECT_TRUE(loops.contains(0x1000));
  EXPECT_TRUE(loops.contains(0x101f));
  EXPECT_FALSE(loops.contains(0x1020));
  EXPECT_TRUE(loops.contains(0x200f));
  EXPECT_FALSE(loops.contains(0x2010));
  EXPECT_FALSE(SpinLoops().contains(0x1000));
}

// A flag wait as gcc compiles `#pragma omp flush` in a loop; gives up after `turns` turns.
__attribute__((noinline)) long wait_for(volatile int* flag, long turns) {
  long turn = 0;
  while (*flag == 0 && turn < turns) {
    __sync_synchronize();
    ++turn;
  }
  return turn;
}

double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

__attribute__((noinline)) double compute(long turns) {
  volatile double value = 1.0;
  for (long turn = 0; turn < turns; ++turn) value = value * 1.0000001 + 1e-9;
  return value;
}

// Appends a record of `type` with `words` after its header to a ring of `size` bytes at byte count `at`.
void put(std::vector<unsigned char>& ring, std::uint64_t& at, std::uint32_t type, std::initializer_list<std::uint64_t> words) {
  perf_event_header header{};
  header.type = type;
  header.size = static_cast<std::uint16_t>(sizeof header + 8 * words.size());
  std::vector<unsigned char> bytes(header.size);
  std::memcpy(bytes.data(), &header, sizeof header);
  std::size_t offset = sizeof header;
  for (const std::uint64_t word : words) {
    std::memcpy(bytes.data() + offset, &word, 8);
    offset += 8;
  }
  for (const unsigned char byte : bytes) ring[at++ % ring.size()] = byte;
}

TEST(PcSampler, CountsTheRingsSamplesAcrossItsEndAndTheLostOnes) {
  const SpinLoops loops({{0x1000, 0x1010}});
  std::vector<unsigned char> ring(64, 0);
  std::uint64_t head = 40;  // the kernel's byte count: the records wrap at 64
  const std::uint64_t tail = head;
  put(ring, head, PERF_RECORD_SAMPLE, {0x1008});  // 40..56
  put(ring, head, PERF_RECORD_SAMPLE, {0x2000});  // 56..72: across the end
  put(ring, head, PERF_RECORD_LOST, {7, 4});      // 72..96: id 7, 4 samples lost
  RingCount count = count_ring(ring.data(), ring.size(), tail, head, loops);
  EXPECT_EQ(count.recorded, 2);
  EXPECT_EQ(count.in_loops, 1);
  EXPECT_EQ(count.lost, 4);
  // More than the ring holds: only its last `size` bytes are read; a record shorter than its header stops.
  count = count_ring(ring.data(), ring.size(), 0, head, loops);
  EXPECT_LE(count.recorded, 2);
  std::vector<unsigned char> broken(64, 0);
  std::uint64_t end = 0;
  put(broken, end, PERF_RECORD_SAMPLE, {0x1004});
  count = count_ring(broken.data(), broken.size(), 0, end + 8, loops);  // then 8 zero bytes: size 0
  EXPECT_EQ(count.recorded, 1);
  EXPECT_EQ(count.in_loops, 1);
}

TEST(SpinLoops, LeavesOutTheObjectsOfTheSkippedAddresses) {
#if defined(__x86_64__)
  const auto begin = reinterpret_cast<std::uint64_t>(&wait_for);
  const SpinLoops loops = SpinLoops::of_process({reinterpret_cast<const void*>(&wait_for)});
  for (std::uint64_t address = begin; address < begin + 96; ++address) EXPECT_FALSE(loops.contains(address)) << address;
#else
  GTEST_SKIP() << "spin loops are found in x86-64 code only";
#endif
}

TEST(SampledSpin, EachSampleStandsForAPeriodAndTheExcessCarries) {
  SampledSpin spin;
  const double period = PcSampler::period_seconds;
  EXPECT_DOUBLE_EQ(spin.arrive(0, 0.004), 0.0);
  EXPECT_DOUBLE_EQ(spin.arrive(2, 0.004), 2 * period);  // the window holds both samples
  EXPECT_DOUBLE_EQ(spin.arrive(1, 0.0007), 0.0007);     // a 0.7 ms window holds 0.7 of a 1 ms sample
  EXPECT_NEAR(spin.credit(), period - 0.0007, 1e-15);
  EXPECT_NEAR(spin.arrive(0, 0.004), period - 0.0007, 1e-15);  // the rest in the next window
  EXPECT_DOUBLE_EQ(spin.credit(), 0.0);
  EXPECT_DOUBLE_EQ(spin.arrive(3, -1.0), 0.0);  // no window: all of it carried
  EXPECT_NEAR(spin.credit(), 3 * period, 1e-15);
}

TEST(PcSampler, SamplesLandInTheProgramsSpinLoopAndNotElsewhere) {
#if defined(__x86_64__)
  const SpinLoops loops = SpinLoops::of_process({});
  const auto begin = reinterpret_cast<std::uint64_t>(&wait_for);
  bool found = false;
  for (std::uint64_t address = begin; address < begin + 96; ++address) found = found || loops.contains(address);
  ASSERT_TRUE(found) << "no spin loop found in wait_for";
  PcSampler sampler;
  std::string reason;
  if (!sampler.open(&reason)) GTEST_SKIP() << "the kernel refuses to sample: " << reason;
  EXPECT_EQ(sampler.drain(loops), 0);
  volatile int flag = 0;
  const double start = thread_seconds();
  while (thread_seconds() - start < 0.1) (void)wait_for(&flag, 100000);  // 0.1 s of CPU time: ~100 samples
  const long spinning = sampler.drain(loops);
  EXPECT_GE(spinning, 50) << "samples in the spin loop";
  EXPECT_LE(spinning, 150) << "more samples than the CPU time holds";
  const double again = thread_seconds();
  while (thread_seconds() - again < 0.1) (void)compute(100000);  // 0.1 s outside any spin loop
  EXPECT_LE(sampler.drain(loops), 5) << "samples in a compute loop counted as spinning";
  // A child after fork() shares the parent thread's buffer: it closes its copy rather than drain it.
  const pid_t child = fork();
  if (child == 0) _exit(sampler.drain(loops) == 0 && !sampler.is_open() ? 0 : 1);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child drained its parent's samples";
  EXPECT_TRUE(sampler.is_open());
  sampler.close();
  EXPECT_FALSE(sampler.is_open());
  EXPECT_EQ(sampler.drain(loops), 0);
#else
  GTEST_SKIP() << "spin loops are found in x86-64 code only";
#endif
}

}  // namespace
}  // namespace augur::interpose
