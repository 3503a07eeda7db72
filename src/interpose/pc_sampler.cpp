#include "interpose/pc_sampler.hpp"

#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace augur::interpose {

PcSampler::~PcSampler() {
  if (map_ != nullptr) ::munmap(map_, map_size_);
  if (fd_ >= 0) ::close(fd_);
}

bool PcSampler::open(std::string& reason) {
  if (fd_ >= 0) return true;
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
    reason = std::string("perf_event_open: ") + std::strerror(errno);
    return false;
  }
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  data_size_ = 4 * page;  // 16 bytes a sample: 1,000 samples, a second of CPU time between two drains
  map_size_ = page + data_size_;
  void* map = ::mmap(nullptr, map_size_, PROT_READ | PROT_WRITE, MAP_SHARED, static_cast<int>(fd), 0);
  if (map == MAP_FAILED) {
    reason = std::string("mmap of the sample buffer: ") + std::strerror(errno);
    ::close(static_cast<int>(fd));
    return false;
  }
  fd_ = static_cast<int>(fd);
  map_ = map;
  return true;
}

long PcSampler::drain(const SpinLoops& loops) {
  if (map_ == nullptr) return 0;
  auto* header = static_cast<perf_event_mmap_page*>(map_);
  const std::uint64_t head = __atomic_load_n(&header->data_head, __ATOMIC_ACQUIRE);
  std::uint64_t tail = header->data_tail;
  if (head == tail) return 0;
  const auto* data = static_cast<const unsigned char*>(map_) + (map_size_ - data_size_);
  // Copies `size` bytes at ring offset `at` (a record may wrap at the buffer's end).
  const auto copy = [&](std::uint64_t at, void* out, std::size_t size) {
    const std::size_t offset = at % data_size_;
    const std::size_t first = size < data_size_ - offset ? size : data_size_ - offset;
    std::memcpy(out, data + offset, first);
    if (first < size) std::memcpy(static_cast<unsigned char*>(out) + first, data, size - first);
  };
  long found = 0;
  while (tail < head) {
    perf_event_header record{};
    copy(tail, &record, sizeof record);
    if (record.size < sizeof record) break;  // never written so by the kernel: stop rather than loop
    if (record.type == PERF_RECORD_SAMPLE && record.size >= sizeof record + sizeof(std::uint64_t)) {
      std::uint64_t address = 0;
      copy(tail + sizeof record, &address, sizeof address);
      if (loops.contains(address)) ++found;
    }
    tail += record.size;
  }
  __atomic_store_n(&header->data_tail, head, __ATOMIC_RELEASE);
  return found;
}

}  // namespace augur::interpose
