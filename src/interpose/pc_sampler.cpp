#include "interpose/pc_sampler.hpp"

#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace augur::interpose {
namespace {

std::atomic<unsigned long> forks{0};

void count_fork() noexcept { forks.fetch_add(1, std::memory_order_relaxed); }

// Copies `size` bytes at ring offset `at` (a record may wrap at the buffer's end).
void copy_from_ring(const unsigned char* data, std::size_t ring, std::uint64_t at, void* out, std::size_t size) {
  const std::size_t offset = at & (ring - 1);
  const std::size_t first = size < ring - offset ? size : ring - offset;
  std::memcpy(out, data + offset, first);
  if (first < size) std::memcpy(static_cast<unsigned char*>(out) + first, data, size - first);
}

}  // namespace

unsigned long fork_generation() noexcept { return forks.load(std::memory_order_relaxed); }

RingCount count_ring(const unsigned char* data, std::size_t size, std::uint64_t tail, std::uint64_t head, const SpinLoops& loops) {
  RingCount count;
  if (head - tail > size) tail = head - size;  // never more than the buffer holds
  while (tail < head) {
    perf_event_header record{};
    copy_from_ring(data, size, tail, &record, sizeof record);
    if (record.size < sizeof record || record.size > head - tail) break;  // never written so by the kernel
    if (record.type == PERF_RECORD_SAMPLE && record.size >= sizeof record + sizeof(std::uint64_t)) {
      std::uint64_t address = 0;
      copy_from_ring(data, size, tail + sizeof record, &address, sizeof address);
      ++count.recorded;
      if (loops.contains(address)) ++count.in_loops;
    } else if (record.type == PERF_RECORD_LOST && record.size >= sizeof record + 2 * sizeof(std::uint64_t)) {
      std::uint64_t lost = 0;  // after the event's id
      copy_from_ring(data, size, tail + sizeof record + sizeof(std::uint64_t), &lost, sizeof lost);
      count.lost += static_cast<long>(lost);
    }
    tail += record.size;
  }
  return count;
}

bool PcSampler::open(std::string* reason) noexcept {
  if (map_ != nullptr) return true;
  static std::atomic_flag registered = ATOMIC_FLAG_INIT;
  if (!registered.test_and_set()) (void)pthread_atfork(nullptr, nullptr, count_fork);
  perf_event_attr attributes{};
  attributes.size = sizeof attributes;
  attributes.type = PERF_TYPE_SOFTWARE;
  attributes.config = PERF_COUNT_SW_TASK_CLOCK;
  attributes.sample_period = period_ns;
  attributes.sample_type = PERF_SAMPLE_IP;
  attributes.exclude_kernel = 1;  // the user's code only (allowed up to perf_event_paranoid 2)
  attributes.exclude_hv = 1;
  const long fd = ::syscall(SYS_perf_event_open, &attributes, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) {
    if (reason != nullptr) *reason = std::string("perf_event_open: ") + std::strerror(errno);
    return false;
  }
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  // One page of 16-byte samples: 256, a quarter second of CPU time between two drains (the lost ones are counted).
  // Small, because the kernel charges the mapping to the user's locked memory (perf_event_mlock_kb, 516 KiB
  // by default: 8 KiB a thread leaves room for 64 threads).
  const std::size_t size = page + page;
  void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, static_cast<int>(fd), 0);
  const int error = errno;
  ::close(static_cast<int>(fd));  // the mapping holds the event
  if (map == MAP_FAILED) {
    if (reason != nullptr) *reason = std::string("mmap of the sample buffer: ") + std::strerror(error);
    return false;
  }
  map_ = map;
  map_size_ = size;
  data_size_ = size - page;
  fork_generation_ = fork_generation();
  return true;
}

void PcSampler::close() noexcept {
  if (map_ != nullptr) ::munmap(map_, map_size_);
  map_ = nullptr;
}

long PcSampler::drain(const SpinLoops& loops) noexcept {
  if (map_ == nullptr) return 0;
  if (fork_generation() != fork_generation_) {  // a child: the buffer is its parent thread's
    close();
    return 0;
  }
  auto* header = static_cast<perf_event_mmap_page*>(map_);
  const std::uint64_t head = __atomic_load_n(&header->data_head, __ATOMIC_ACQUIRE);
  const std::uint64_t tail = header->data_tail;
  if (head == tail) return 0;
  // Where the data lies (older kernels leave data_offset 0: one page after the header).
  const std::size_t offset = header->data_offset != 0 ? static_cast<std::size_t>(header->data_offset) : map_size_ - data_size_;
  const std::size_t size = header->data_size != 0 ? static_cast<std::size_t>(header->data_size) : data_size_;
  const RingCount count = count_ring(static_cast<const unsigned char*>(map_) + offset, size, tail, head, loops);
  __atomic_store_n(&header->data_tail, head, __ATOMIC_RELEASE);
  if (count.lost <= 0 || count.recorded <= 0) return count.in_loops;
  // The lost samples, in the proportion of the recorded ones (a window longer than the buffer holds).
  return count.in_loops + static_cast<long>(static_cast<double>(count.in_loops) * static_cast<double>(count.lost) / static_cast<double>(count.recorded) + 0.5);
}

}  // namespace augur::interpose
