#include "interpose/spin_loops.hpp"

#include <link.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

namespace augur::interpose {
namespace {

// The length of a fence or pause starting at code[at], 0 for none: mfence (0F AE F0), `lock or{l,q} $0,(%rsp)`
// (F0 83 0C 24 00, F0 48 83 0C 24 00: gcc's __sync_synchronize and `#pragma omp flush`), pause (F3 90).
std::size_t fence_at(const std::uint8_t* code, std::size_t size, std::size_t at) {
  const auto matches = [&](std::initializer_list<std::uint8_t> bytes) {
    if (at + bytes.size() > size) return false;
    return std::equal(bytes.begin(), bytes.end(), code + at);
  };
  if (matches({0x0F, 0xAE, 0xF0})) return 3;
  if (matches({0xF0, 0x48, 0x83, 0x0C, 0x24, 0x00})) return 6;
  if (matches({0xF0, 0x83, 0x0C, 0x24, 0x00})) return 5;
  if (matches({0xF3, 0x90})) return 2;
  return 0;
}

// A relative branch at code[at]: its length and its target's offset from `at`; false when none.
bool branch_at(const std::uint8_t* code, std::size_t size, std::size_t at, std::size_t& length, long& target) {
  const std::uint8_t op = code[at];
  if ((op >= 0x70 && op <= 0x7F) || op == 0xEB) {  // jcc rel8, jmp rel8
    if (at + 2 > size) return false;
    length = 2;
    target = 2 + static_cast<std::int8_t>(code[at + 1]);
    return true;
  }
  std::int32_t rel = 0;
  if (op == 0xE9 && at + 5 <= size) {  // jmp rel32
    std::memcpy(&rel, code + at + 1, 4);
    length = 5;
    target = 5 + static_cast<long>(rel);
    return true;
  }
  if (op == 0x0F && at + 6 <= size && code[at + 1] >= 0x80 && code[at + 1] <= 0x8F) {  // jcc rel32
    std::memcpy(&rel, code + at + 2, 4);
    length = 6;
    target = 6 + static_cast<long>(rel);
    return true;
  }
  return false;
}

}  // namespace

std::vector<CodeRange> find_spin_loops(const std::uint8_t* code, std::size_t size, std::uint64_t address) {
  std::vector<CodeRange> loops;
  for (std::size_t at = 0; at < size; ++at) {
    const std::size_t fence = fence_at(code, size, at);
    if (fence == 0) continue;
    // The first backward branch after the fence that lands at or before it, within reach on both sides.
    for (std::size_t from = at + fence; from < size && from < at + fence + spin_loop_reach; ++from) {
      std::size_t length = 0;
      long offset = 0;
      if (!branch_at(code, size, from, length, offset)) continue;
      const long target = static_cast<long>(from) + offset;
      if (target > static_cast<long>(at) || target + static_cast<long>(spin_loop_reach) < static_cast<long>(at) || target < 0) continue;
      loops.push_back({address + static_cast<std::uint64_t>(target), address + from + length});  // SpinLoops merges
      break;
    }
  }
  return loops;
}

SpinLoops::SpinLoops(std::vector<CodeRange> ranges) : ranges_(std::move(ranges)) {
  std::sort(ranges_.begin(), ranges_.end(), [](const CodeRange& a, const CodeRange& b) { return a.begin < b.begin; });
  std::vector<CodeRange> merged;
  for (const CodeRange& range : ranges_) {
    if (!merged.empty() && range.begin <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, range.end);
    } else {
      merged.push_back(range);
    }
  }
  ranges_ = std::move(merged);
}

bool SpinLoops::contains(std::uint64_t address) const {
  auto after = std::upper_bound(ranges_.begin(), ranges_.end(), address, [](std::uint64_t value, const CodeRange& range) { return value < range.begin; });
  return after != ranges_.begin() && address < std::prev(after)->end;
}

namespace {

struct Segment {
  std::uintptr_t begin = 0;
  std::size_t size = 0;
};

// What dl_iterate_phdr's callback collects: no allocation and no exception under the loader's lock.
struct Collect {
  const std::uintptr_t* skip = nullptr;
  std::size_t skips = 0;
  static constexpr std::size_t capacity = 512;
  Segment segments[capacity];
  std::size_t count = 0;
};

bool system_object(const char* name) {
  for (const char* system : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/"})  // the runtime's and the C library's
    if (std::strncmp(name, system, std::strlen(system)) == 0) return true;
  return std::strstr(name, "linux-vdso") != nullptr;
}

int collect_object(dl_phdr_info* info, std::size_t, void* data) noexcept {
  auto& state = *static_cast<Collect*>(data);
  if (info->dlpi_name != nullptr && system_object(info->dlpi_name)) return 0;
  for (int index = 0; index < info->dlpi_phnum; ++index) {  // an object holding a skipped address is left out
    const ElfW(Phdr)& header = info->dlpi_phdr[index];
    const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr;
    if (header.p_type != PT_LOAD) continue;
    for (std::size_t skip = 0; skip < state.skips; ++skip)
      if (state.skip[skip] >= begin && state.skip[skip] < begin + header.p_memsz) return 0;
  }
  for (int index = 0; index < info->dlpi_phnum && state.count < Collect::capacity; ++index) {
    const ElfW(Phdr)& header = info->dlpi_phdr[index];
    if (header.p_type != PT_LOAD || (header.p_flags & PF_X) == 0 || (header.p_flags & PF_R) == 0) continue;
    state.segments[state.count++] = {info->dlpi_addr + header.p_vaddr, static_cast<std::size_t>(header.p_filesz)};
  }
  return 0;
}

// Reads `size` bytes of this process at `address` into `out` with process_vm_readv, which fails (EFAULT)
// where a plain read would fault (a library rewritten on disk while mapped, text made unreadable); where the
// call itself is not allowed (seccomp), reads directly. False when the bytes cannot be read.
bool read_own(std::uintptr_t address, std::size_t size, std::uint8_t* out) {
  iovec local{out, size};
  iovec remote{reinterpret_cast<void*>(address), size};
  const ssize_t got = ::process_vm_readv(::getpid(), &local, 1, &remote, 1, 0);
  if (got == static_cast<ssize_t>(size)) return true;
  if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
    std::memcpy(out, reinterpret_cast<const void*>(address), size);
    return true;
  }
  return false;
}

}  // namespace

SpinLoops SpinLoops::of_process(const std::vector<const void*>& skip) {
#if defined(__x86_64__)
  std::vector<std::uintptr_t> skips;
  for (const void* address : skip) skips.push_back(reinterpret_cast<std::uintptr_t>(address));
  auto state = std::make_unique<Collect>();
  state->skip = skips.data();
  state->skips = skips.size();
  dl_iterate_phdr(collect_object, state.get());
  // In chunks that overlap by more than a loop can span (a branch's target reach before its fence, the fence,
  // reach after it, the branch), so that every loop lies whole in one chunk.
  constexpr std::size_t chunk = 1 << 16;
  constexpr std::size_t overlap = 2 * spin_loop_reach + 32;
  std::vector<std::uint8_t> bytes(chunk + overlap);
  std::vector<CodeRange> ranges;
  for (std::size_t index = 0; index < state->count; ++index) {
    const Segment& segment = state->segments[index];
    for (std::size_t at = 0; at < segment.size; at += chunk) {
      const std::size_t length = std::min(chunk + overlap, segment.size - at);
      if (!read_own(segment.begin + at, length, bytes.data())) break;
      const std::vector<CodeRange> found = find_spin_loops(bytes.data(), length, segment.begin + at);
      ranges.insert(ranges.end(), found.begin(), found.end());
    }
  }
  return SpinLoops(std::move(ranges));
#else
  (void)skip;
  return {};
#endif
}

}  // namespace augur::interpose
