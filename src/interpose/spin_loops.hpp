// Spin-wait loops in the loaded machine code (docs/self-analysis.md, "Spins in the code, sampled"). gcc
// compiles NPB LU's
//   while (flag[j - 1] == 0) { #pragma omp flush }
// to an inline fence (`lock orq $0,(%rsp)`, or `mfence`) in a loop of a few instructions: no runtime call
// marks it, unlike libomp's __kmpc_flush (flush_spin.hpp). Such a loop is found in the code itself: a fence or a
// `pause` followed, within `reach` bytes, by a branch back to at most `reach` bytes before it. The bytes are
// not decoded into instructions, so a byte pattern inside another instruction can make a false range: inside a
// hot compute loop, its samples (pc_sampler.hpp) would count as spinning (none seen in NPB's gcc builds).
//
// x86-64 only (elsewhere no loop is found and spins count as work).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace augur::interpose {

struct CodeRange {
  std::uint64_t begin = 0;  // the loop's first byte (the branch's target)
  std::uint64_t end = 0;    // past the branch
};

// How far a loop's branch may lie after its fence, and its target before it, in bytes.
constexpr std::size_t spin_loop_reach = 48;

// The spin loops in `size` bytes of code whose first byte is at `address`, one range per fence, in the
// order of their fences (ranges of fences in one loop overlap: SpinLoops merges them).
[[nodiscard]] std::vector<CodeRange> find_spin_loops(const std::uint8_t* code, std::size_t size, std::uint64_t address);

class SpinLoops {
public:
  SpinLoops() = default;
  explicit SpinLoops(std::vector<CodeRange> ranges);
  // The loops in the executable segments of the program and of its own libraries (dl_iterate_phdr): not the
  // system's (under /lib, /lib64, /usr/lib, /usr/lib64), not the vDSO, and not an object holding one of the
  // `skip` addresses (the tool's own library; libgomp's and the C library's, wherever they are installed:
  // their waits for a lock stay work, and a program without loops of its own is not sampled at all).
  [[nodiscard]] static SpinLoops of_process(const std::vector<const void*>& skip);
  [[nodiscard]] bool contains(std::uint64_t address) const;
  [[nodiscard]] bool empty() const { return ranges_.empty(); }
  [[nodiscard]] std::size_t size() const { return ranges_.size(); }

private:
  std::vector<CodeRange> ranges_;  // sorted, not overlapping
};

}  // namespace augur::interpose
