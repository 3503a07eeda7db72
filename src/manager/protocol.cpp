// The manager's shared-memory segment: creating, opening and checking it (protocol.hpp).
#include "manager/protocol.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

namespace augur::manager {

std::uint64_t monotonic_ns() noexcept {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(now.tv_nsec);
}

namespace {

// Fields 3 (state) and 22 (starttime) of /proc/PID/stat; false when the file cannot be read.
bool read_stat(pid_t pid, char& state, std::uint64_t& start_time) noexcept {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  const int descriptor = ::open(path, O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return false;
  char buffer[1024];
  const ssize_t length = ::read(descriptor, buffer, sizeof buffer - 1);
  ::close(descriptor);
  if (length <= 0) return false;
  buffer[length] = '\0';
  const char* cursor = std::strrchr(buffer, ')');  // the command name may hold spaces and parentheses
  if (cursor == nullptr || cursor[1] != ' ') return false;
  cursor += 2;
  state = *cursor;
  for (int field = 3; field < 22; ++field) {
    cursor = std::strchr(cursor, ' ');
    if (cursor == nullptr) return false;
    ++cursor;
  }
  start_time = std::strtoull(cursor, nullptr, 10);
  return true;
}

constexpr std::size_t header_bytes = (sizeof(Header) + alignof(Slot) - 1) / alignof(Slot) * alignof(Slot);

std::string quoted(std::string_view name) {
  return "'" + std::string(name) + "'";
}

Segment::Opened failed(OpenFailure failure, std::string error) {
  Segment::Opened opened;
  opened.failure = failure;
  opened.error = std::move(error);
  return opened;
}

// What is wrong with a mapped segment of `size` bytes, or an empty string.
std::string check_layout(const Header& header, std::size_t size, const std::string& shm, OpenFailure& failure) {
  if (size < sizeof(std::uint64_t) * 2 || header.magic != segment_magic) {
    failure = OpenFailure::Foreign;
    return "is not an augur manager's segment (no magic number)";
  }
  if (header.version != protocol_version) {
    failure = OpenFailure::OtherVersion;
    return "has layout version " + std::to_string(header.version) + ", this augur speaks version " +
           std::to_string(protocol_version) + ": another augur's manager; stop it with that augur, or remove /dev/shm" + shm;
  }
  if (size < sizeof(Header) || header.header_size != header_bytes || header.slot_size != sizeof(Slot) ||
      header.total_size != header_bytes + static_cast<std::uint64_t>(header.slot_count) * sizeof(Slot) ||
      header.total_size > size) {
    failure = OpenFailure::Truncated;
    return "has sizes that do not fit its version (" + std::to_string(size) + " bytes)";
  }
  return "";
}

}  // namespace

std::uint64_t process_start_time(pid_t pid) noexcept {
  char state = 0;
  std::uint64_t start = 0;
  return read_stat(pid, state, start) ? start : 0;
}

bool process_alive(pid_t pid, std::uint64_t start_time) noexcept {
  if (pid <= 0) return false;
  if (::kill(pid, 0) != 0 && errno != EPERM) return false;
  char state = 0;
  std::uint64_t start = 0;
  if (!read_stat(pid, state, start)) return true;  // no /proc: kill's answer
  if (state == 'Z' || state == 'X') return false;   // a zombie has ended
  return start_time == 0 || start == start_time;
}

std::string check_manager_name(std::string_view name) {
  if (name.empty()) return "a manager's name must not be empty";
  if (name.size() > 64) return "a manager's name has at most 64 characters";
  for (const char c : name) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                         c == '.' || c == '-';
    if (!allowed) return "a manager's name is made of letters, digits, '_', '.' and '-'";
  }
  return "";
}

std::string segment_name(std::string_view name) {
  return "/augur-manager-" + std::to_string(::getuid()) + "-" + std::string(name);
}

Segment::Segment(void* base, std::size_t size, std::string name)
    : header_(static_cast<Header*>(base)),
      slots_(reinterpret_cast<Slot*>(static_cast<char*>(base) + header_bytes)),
      size_(size),
      name_(std::move(name)) {}

Segment::~Segment() {
  ::munmap(header_, size_);
}

Segment::Opened Segment::open(std::string_view name) {
  try {
    if (std::string problem = check_manager_name(name); !problem.empty()) return failed(OpenFailure::BadName, problem);
    const std::string shm = segment_name(name);
    const int descriptor = ::shm_open(shm.c_str(), O_RDWR | O_CLOEXEC, 0);
    if (descriptor < 0) {
      const int error = errno;
      if (error == ENOENT) return failed(OpenFailure::Absent, "no manager " + quoted(name) + " (no segment " + shm + ")");
      return failed(error == EACCES ? OpenFailure::Denied : OpenFailure::System,
                    "the manager's segment " + shm + ": " + std::strerror(error));
    }
    struct stat status {};
    if (::fstat(descriptor, &status) != 0 || status.st_size < static_cast<off_t>(sizeof(std::uint64_t) * 2)) {
      ::close(descriptor);
      return failed(OpenFailure::Truncated, "the manager's segment " + shm + " is empty or being created");
    }
    const auto size = static_cast<std::size_t>(status.st_size);
    void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
    const int map_error = errno;
    ::close(descriptor);
    if (base == MAP_FAILED) return failed(OpenFailure::System, "the manager's segment " + shm + ": " + std::strerror(map_error));
    std::unique_ptr<Segment> segment(new Segment(base, size, std::string(name)));
    OpenFailure failure = OpenFailure::None;
    if (std::string problem = check_layout(segment->header(), size, shm, failure); !problem.empty()) {
      return failed(failure, "the segment " + shm + " " + problem);
    }
    Opened opened;
    opened.segment = std::move(segment);
    return opened;
  } catch (const std::bad_alloc&) {
    return failed(OpenFailure::System, "out of memory");
  }
}

Segment::Opened Segment::create(std::string_view name, int cpus, std::int64_t quantum_ns, std::string_view policy, int slots) {
  try {
    if (std::string problem = check_manager_name(name); !problem.empty()) return failed(OpenFailure::BadName, problem);
    const std::string shm = segment_name(name);
    Opened existing = open(name);
    if (existing.segment != nullptr) {
      Header& header = existing.segment->header();
      const pid_t running = header.manager_pid.load();
      if (running != 0 && running != ::getpid() && process_alive(running, header.manager_start_time.load())) {
        return failed(OpenFailure::Denied, "a manager " + quoted(name) + " runs already (pid " + std::to_string(running) + ")");
      }
      // A dead manager's segment: adopted, with its applications.
    } else if (existing.failure != OpenFailure::Absent) {
      return existing;
    } else {
      const int descriptor = ::shm_open(shm.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (descriptor < 0) {
        const int error = errno;
        return failed(error == EEXIST ? OpenFailure::Denied : OpenFailure::System,
                      "cannot create the manager's segment " + shm + ": " + std::strerror(error));
      }
      const std::size_t size = header_bytes + static_cast<std::size_t>(slots) * sizeof(Slot);
      void* base = MAP_FAILED;
      if (::ftruncate(descriptor, static_cast<off_t>(size)) == 0) {
        base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
      }
      const int error = errno;
      ::close(descriptor);
      if (base == MAP_FAILED) {
        ::shm_unlink(shm.c_str());
        return failed(OpenFailure::System, "cannot create the manager's segment " + shm + ": " + std::strerror(error));
      }
      // A new segment is zero-filled: every slot Free. The magic goes last, so a reader that sees it sees the rest.
      auto* header = static_cast<Header*>(base);
      header->version = protocol_version;
      header->header_size = static_cast<std::uint32_t>(header_bytes);
      header->slot_size = static_cast<std::uint32_t>(sizeof(Slot));
      header->slot_count = static_cast<std::uint32_t>(slots);
      header->total_size = size;
      std::atomic_thread_fence(std::memory_order_release);
      reinterpret_cast<std::atomic<std::uint64_t>*>(&header->magic)->store(segment_magic, std::memory_order_release);
      existing.segment.reset(new Segment(base, size, std::string(name)));
    }
    Header& header = existing.segment->header();
    header.cpus.store(cpus);
    header.quantum_ns.store(quantum_ns);
    header.stop_requested.store(0);
    header.decisions.store(0);
    std::snprintf(header.policy, sizeof header.policy, "%.*s", static_cast<int>(policy.size()), policy.data());
    header.manager_heartbeat_ns.store(monotonic_ns());
    header.manager_start_time.store(process_start_time(::getpid()));
    header.manager_pid.store(::getpid());
    return existing;
  } catch (const std::bad_alloc&) {
    return failed(OpenFailure::System, "out of memory");
  }
}

bool Segment::remove(std::string_view name) noexcept {
  try {
    return ::shm_unlink(segment_name(name).c_str()) == 0;
  } catch (...) {
    return false;
  }
}

}  // namespace augur::manager
