// The processor manager's shared memory (docs/formats.md, "The manager's shared memory"): one POSIX
// shared-memory segment per manager, a versioned header and one slot per application, lock-free. The
// thesis' CPUManager interface (seed 003, section 4.5, Table 4.3): the application writes its speedup per
// processor count (cpus_speedup), its reference time (cpus_reference_time) and its predicted times
// (cpus_prediction_time) into its slot; the manager writes the allocation the application applies at its
// next iteration boundary (nth_set_active_threads).
//
// An edge: it opens shared memory and reads /proc. It goes into the user's process (libaugur, the preload
// and OMPT tools): nothing here throws (failures are returned as messages), and the calls an application
// makes per iteration are a few relaxed atomic stores, no system call.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace augur::manager {

inline constexpr std::uint64_t segment_magic = 0x52474d5255475541ULL;  // the bytes "AUGURMGR", little-endian
inline constexpr std::uint32_t protocol_version = 1;
inline constexpr int max_processors = 256;  // speedups are kept for P = 1 .. max_processors
inline constexpr int name_capacity = 64;    // a program's name, with its terminating zero
inline constexpr int policy_capacity = 32;
inline constexpr int default_slots = 64;
inline constexpr std::string_view default_manager_name = "default";

// A slot's word: its state in the low 32 bits, a generation bumped at every claim in the high 32 (the
// compare-and-swap that frees a dead application's slot cannot free the slot of the one after it).
enum class SlotState : std::uint32_t { Free = 0, Claimed = 1, Active = 2 };

struct alignas(64) Slot {
  std::atomic<std::uint64_t> word;  // SlotState | generation << 32
  std::atomic<std::int32_t> pid;
  std::atomic<std::uint64_t> start_time;  // the process's start (clock ticks after boot, /proc/PID/stat): a reused pid is not it
  char name[name_capacity];               // written before the slot becomes Active

  // Written by the application; read consistently through the sequence (odd while a report is written).
  std::atomic<std::uint64_t> report_sequence;
  std::atomic<std::uint64_t> heartbeat_ns;  // CLOCK_MONOTONIC of its last report
  std::atomic<std::int64_t> iterations;     // iterations closed
  std::atomic<std::int32_t> processors;     // threads of its last iteration
  std::atomic<std::int32_t> requested;      // its own allocation (what it runs on without a manager)
  std::atomic<std::int32_t> baseline;       // B, 0 unknown
  std::atomic<double> reference_time;       // T(B), seconds per iteration; 0 unknown (cpus_reference_time)
  std::atomic<double> speedup[max_processors + 1];         // S(P), index P (cpus_speedup)
  std::atomic<double> predicted_time[max_processors + 1];  // ExTime(P), seconds; negative unknown (cpus_prediction_time)
  std::atomic<std::uint8_t> calculated[max_processors + 1];  // 1: PC, 0: PNC

  // Written by the manager.
  std::atomic<std::int32_t> allocation;          // processors to use from the next iteration; 0: no decision yet
  std::atomic<std::uint64_t> allocation_sequence;  // decisions written into this slot
  std::atomic<std::uint64_t> allocated_at_ns;      // CLOCK_MONOTONIC of the last one
};

struct Header {
  std::uint64_t magic;
  std::uint32_t version;
  std::uint32_t header_size;
  std::uint32_t slot_size;
  std::uint32_t slot_count;
  std::uint64_t total_size;
  std::atomic<std::int32_t> manager_pid;  // 0: no manager
  std::atomic<std::uint64_t> manager_start_time;
  std::atomic<std::uint64_t> manager_heartbeat_ns;
  std::atomic<std::int32_t> cpus;
  std::atomic<std::int64_t> quantum_ns;
  std::atomic<std::uint64_t> decisions;      // quanta decided
  std::atomic<std::uint32_t> stop_requested;  // set by `augur manager stop`
  char policy[policy_capacity];
};

static_assert(std::atomic<double>::is_always_lock_free && std::atomic<std::uint64_t>::is_always_lock_free,
              "the shared slots need address-free lock-free atomics");

// Why a segment could not be used.
enum class OpenFailure { None, Absent, Foreign, OtherVersion, Truncated, Denied, Full, BadName, System };

// The calling process's CLOCK_MONOTONIC in nanoseconds (the clock of every time stamp in the segment).
std::uint64_t monotonic_ns() noexcept;
// The start time of process `pid` (field 22 of /proc/PID/stat), 0 when unknown.
std::uint64_t process_start_time(pid_t pid) noexcept;
// True while process `pid` runs and, when `start_time` is known (not 0), is the process that started then.
bool process_alive(pid_t pid, std::uint64_t start_time) noexcept;

// An empty string when `name` may name a manager (1 to 64 of [A-Za-z0-9_.-]), else why not.
std::string check_manager_name(std::string_view name);
// The segment of manager `name`: "/augur-manager-UID-NAME" (one per user and name).
std::string segment_name(std::string_view name);

// A mapped segment. Made by create (the manager) or open (applications, `augur manager status|stop`).
class Segment {
public:
  struct Opened;
  ~Segment();
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;

  // Creates the segment of `name` for a new manager, or adopts an existing one of this version whose
  // manager is dead (its applications keep their slots). Refuses a running manager's segment, a foreign
  // one, one of another version.
  static Opened create(std::string_view name, int cpus, std::int64_t quantum_ns, std::string_view policy, int slots = default_slots);
  // Opens the segment of a running or dead manager; checks its magic, version and sizes.
  static Opened open(std::string_view name);
  // Removes the name of manager `name`'s segment (mappings stay valid); false when it was not there.
  static bool remove(std::string_view name) noexcept;

  [[nodiscard]] Header& header() const noexcept { return *header_; }
  [[nodiscard]] int slot_count() const noexcept { return static_cast<int>(header_->slot_count); }
  [[nodiscard]] Slot& slot(int index) const noexcept { return slots_[index]; }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }  // the manager's name

private:
  Segment(void* base, std::size_t size, std::string name);
  Header* header_;
  Slot* slots_;
  std::size_t size_;
  std::string name_;
};

struct Segment::Opened {
  std::unique_ptr<Segment> segment;  // null on failure
  OpenFailure failure = OpenFailure::None;
  std::string error;  // lower case, no final period; names the segment
};

// ---- The application's side ---------------------------------------------------------------------

// One application's slot. Every member is noexcept; the per-iteration ones make no system call.
class Connection {
public:
  // Claims a free slot of manager `name` (freeing the slots of dead applications first when all are
  // taken). `requested`: the application's own processor count.
  struct Result;
  static Result connect(std::string_view name, pid_t pid, std::string_view program, int requested);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // The manager's allocation, 0 when it has decided none yet.
  [[nodiscard]] int allocation() const noexcept { return slot_->allocation.load(std::memory_order_relaxed); }
  // The heartbeat: at each iteration's end (iterations closed, threads of that iteration).
  void report_iteration(std::uint64_t now_ns, long iterations, int processors) noexcept;
  // cpus_speedup(P, sp) with cpus_prediction_time(P, t) (t negative: unknown); P beyond max_processors is dropped.
  void report_speedup(int processors, double speedup, double predicted_seconds) noexcept;
  // cpus_reference_time(t) with its B.
  void report_reference(double seconds, int baseline) noexcept;
  // Gives the slot back (at the application's exit).
  void disconnect() noexcept;
  [[nodiscard]] int slot_index() const noexcept { return index_; }
  [[nodiscard]] Segment& segment() const noexcept { return *segment_; }

private:
  Connection(std::unique_ptr<Segment> segment, int index);
  void begin_report() noexcept;
  void end_report() noexcept;
  std::unique_ptr<Segment> segment_;
  Slot* slot_;
  int index_;
  std::uint64_t word_;  // the slot's word while this connection holds it
  bool connected_ = true;
};

struct Connection::Result {
  std::unique_ptr<Connection> connection;  // null on failure
  OpenFailure failure = OpenFailure::None;
  std::string error;
};

// ---- The manager's side -------------------------------------------------------------------------

struct ProcessorReport {
  int processors = 0;
  double speedup = 0.0;
  double predicted_time = -1.0;  // seconds; negative unknown
};

// One application as the manager sees it: a consistent copy of its slot.
struct Application {
  int slot = 0;
  std::uint64_t word = 0;
  pid_t pid = 0;
  std::uint64_t start_time = 0;
  std::string name;
  std::uint64_t heartbeat_ns = 0;
  long iterations = 0;
  int processors = 0;
  int requested = 0;
  int baseline = 0;
  double reference_time = 0.0;
  std::vector<ProcessorReport> calculated;  // the PC counts, ascending
  int allocation = 0;
  std::uint64_t allocation_sequence = 0;
};

// The Active slots, each copied consistently.
std::vector<Application> read_applications(const Segment& segment);
// Frees the slot of `application` if its process is dead (and the slot still its own); true if freed.
bool reclaim_if_dead(Segment& segment, const Application& application) noexcept;
// Writes a decision into an application's slot.
void write_allocation(Segment& segment, int slot, int processors, std::uint64_t now_ns) noexcept;

}  // namespace augur::manager
