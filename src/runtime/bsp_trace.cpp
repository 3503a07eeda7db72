// libaugur: superstep traces for the OBSP* model (seed 001, section 2; the format in docs/formats.md,
// "BSP superstep traces"). Per rank, machine and superstep: the computation time W, the bytes in and
// out, the incoming partners, how the superstep ended, and the sub-machine run inside it.
//
// One trace per process, recorded from one thread (the one that communicates); calls from several threads
// are serialised by the trace's mutex (their supersteps go into the one trace). Misuse is warned once.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "augur/augur.h"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "internal.hpp"

namespace augur::runtime {
namespace {

struct Frame {
  std::string machine;          // "/", "/1:0/", ...
  int pid = 0;
  int nprocs = 1;
  int superstep = 1;
  double superstep_start = 0.0;
  double communicate_at = -1.0;  // when augur_bsp_communicate was called in this superstep
  double child_entered = -1.0;
  double child_elapsed = 0.0;
  double before_child = 0.0;
  std::string child;
};

struct SuperstepRecord {
  std::string machine;
  int pid = 0;
  int nprocs = 1;
  int superstep = 1;
  double work = 0.0;
  long bytes_in = 0;
  long bytes_out = 0;
  std::vector<int> partners;
  int sync = AUGUR_BSP_NONE;
  double end = 0.0;
  std::string child;
  double before_child = 0.0;
};

enum Misuse { NotRunning, AlreadyRunning, BadArguments, BadKind, BadPartners, NoneWithCommunication, SecondPartition,
              NothingToLeave, PartitionAfterCommunicate, MisuseCount };

struct Trace {
  std::mutex mutex;  // everything below but `warned`; taken by every entry point
  bool running = false;
  int rank = 0;
  double origin = 0.0;
  std::vector<Frame> frames;
  std::vector<SuperstepRecord> records;
  std::atomic<bool> warned[MisuseCount] = {};
};

Trace& trace() {
  static Trace* instance = new Trace;  // never destroyed: threads may record while the program exits
  return *instance;
}

// One message per kind of misuse.
void misuse(Misuse kind, const std::string& message) {
  if (trace().warned[kind].exchange(true)) return;
  warn(message + " (warned once)");
}

// The message for a call made while no trace runs.
void not_running(const char* function) {
  misuse(NotRunning, std::string(function) + "(): no trace running (" +
                         (settings().mode == Mode::Off ? "augur is off: AUGUR_MODE=off" : "augur_bsp_start first") + "); ignored");
}

double now() { return monotonic_seconds() - trace().origin; }

// Ends the open superstep of the innermost machine at time `at` and starts the next one.
void close_superstep(int kind, long bytes_in, long bytes_out, int partner_count, const int* partners, double at) {
  Trace& state = trace();
  Frame& frame = state.frames.back();
  SuperstepRecord record;
  record.machine = frame.machine;
  record.pid = frame.pid;
  record.nprocs = frame.nprocs;
  record.superstep = frame.superstep;
  const double computation_end = frame.communicate_at >= 0.0 ? frame.communicate_at : at;
  record.work = std::max(0.0, computation_end - frame.superstep_start - frame.child_elapsed);
  record.bytes_in = std::max(0L, bytes_in);
  record.bytes_out = std::max(0L, bytes_out);
  if (partners != nullptr && partner_count > 0) record.partners.assign(partners, partners + partner_count);
  std::sort(record.partners.begin(), record.partners.end());
  record.partners.erase(std::unique(record.partners.begin(), record.partners.end()), record.partners.end());
  record.sync = kind;
  record.end = at;
  record.child = frame.child;
  record.before_child = frame.before_child;
  state.records.push_back(std::move(record));
  ++frame.superstep;
  frame.superstep_start = at;
  frame.communicate_at = -1.0;
  frame.child_entered = -1.0;
  frame.child_elapsed = 0.0;
  frame.before_child = 0.0;
  frame.child.clear();
}

// Closes the innermost machine: its open superstep ends without synchronisation.
void leave_machine(double at) {
  Trace& state = trace();
  close_superstep(AUGUR_BSP_NONE, 0, 0, 0, nullptr, at);
  state.frames.pop_back();
  if (state.frames.empty()) return;
  Frame& parent = state.frames.back();
  parent.child_elapsed += at - parent.child_entered;
}

void append_number(std::string& out, double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, std::isfinite(value) ? value : 0.0);
  out.append(buffer, result.ptr);
}

void append_integer(std::string& out, long value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

const char* sync_name(int kind) {
  switch (kind) {
    case AUGUR_BSP_OBLIVIOUS: return "oblivious";
    case AUGUR_BSP_BARRIER: return "barrier";
    default: return "none";
  }
}

}  // namespace
}  // namespace augur::runtime

using namespace augur::runtime;

extern "C" {

int augur_bsp_start(int rank, int pid, int nprocs) {
  try {
    if (settings().mode == Mode::Off) return AUGUR_ERROR;
    Trace& state = trace();
    std::lock_guard lock(state.mutex);
    if (state.running) {
      misuse(AlreadyRunning, "augur_bsp_start(): the trace is already running; ignored");
      return AUGUR_ERROR;
    }
    if (rank < 0 || nprocs < 1 || pid < 0 || pid >= nprocs) {
      misuse(BadArguments, "augur_bsp_start(" + std::to_string(rank) + ", " + std::to_string(pid) + ", " + std::to_string(nprocs) +
             "): needs rank >= 0 and 0 <= pid < nprocs; ignored");
      return AUGUR_ERROR;
    }
    state.running = true;
    state.rank = rank;
    state.origin = monotonic_seconds();
    state.frames.clear();
    state.frames.reserve(32);
    state.records.reserve(256);
    Frame top;
    top.machine = "/";
    top.pid = pid;
    top.nprocs = nprocs;
    state.frames.push_back(top);
    return AUGUR_OK;
  } catch (const std::exception& error) {
    warn(std::string("augur_bsp_start(): ") + error.what());
    return AUGUR_ERROR;
  }
}

void augur_bsp_communicate(void) {
  try {
    Trace& state = trace();
    std::lock_guard lock(state.mutex);
    if (!state.running) {
      not_running("augur_bsp_communicate");
      return;
    }
    Frame& frame = state.frames.back();
    if (frame.communicate_at < 0.0) frame.communicate_at = now();
  } catch (...) {  // the lock could not be taken: nothing recorded
  }
}

void augur_bsp_sync(int kind, long bytes_in, long bytes_out, int partner_count, const int* partners) {
  try {
    const double clock = monotonic_seconds();  // before the lock: the time of the call
    Trace& state = trace();
    std::lock_guard lock(state.mutex);
    const double at = clock - state.origin;
    if (!state.running) {
      not_running("augur_bsp_sync");
      return;
    }
    if (kind != AUGUR_BSP_NONE && kind != AUGUR_BSP_OBLIVIOUS && kind != AUGUR_BSP_BARRIER) {
      misuse(BadKind, "augur_bsp_sync(): kind " + std::to_string(kind) + " is not AUGUR_BSP_NONE, _OBLIVIOUS or _BARRIER; taken as a barrier");
      kind = AUGUR_BSP_BARRIER;
    }
    const Frame& frame = state.frames.back();
    if (kind == AUGUR_BSP_NONE && (bytes_in != 0 || bytes_out != 0 || partner_count != 0)) {
      misuse(NoneWithCommunication, "augur_bsp_sync(AUGUR_BSP_NONE): a superstep without synchronisation has no communication; its bytes and "
             "partners are recorded as none");
      bytes_in = bytes_out = 0;
      partner_count = 0;
    }
    if (partner_count < 0 || (partner_count > 0 && partners == nullptr)) {
      misuse(BadPartners, "augur_bsp_sync(): bad partner list; recorded without partners");
      partner_count = 0;
    }
    for (int index = 0; index < partner_count; ++index) {
      if (partners[index] < 0 || partners[index] >= frame.nprocs) {
        misuse(BadPartners, "augur_bsp_sync(): partner " + std::to_string(partners[index]) + " is not a pid of the current machine (0.." +
               std::to_string(frame.nprocs - 1) + "); recorded without partners");
        partner_count = 0;
        break;
      }
    }
    close_superstep(kind, bytes_in, bytes_out, partner_count, partners, at);
  } catch (const std::exception& error) {
    warn(std::string("augur_bsp_sync(): ") + error.what());
  }
}

int augur_bsp_partition(int group, int pid, int nprocs) {
  try {
    const double clock = monotonic_seconds();  // before the lock: the time of the call
    Trace& state = trace();
    std::lock_guard lock(state.mutex);
    const double at = clock - state.origin;
    if (!state.running) {
      not_running("augur_bsp_partition");
      return AUGUR_ERROR;
    }
    Frame& parent = state.frames.back();
    if (!parent.child.empty()) {
      misuse(SecondPartition, "augur_bsp_partition(): a second partition in superstep " + std::to_string(parent.superstep) + " of machine " +
             parent.machine + " (one per superstep); ignored");
      return AUGUR_ERROR;
    }
    if (group < 0 || nprocs < 1 || pid < 0 || pid >= nprocs || nprocs > parent.nprocs) {
      misuse(BadArguments, "augur_bsp_partition(" + std::to_string(group) + ", " + std::to_string(pid) + ", " + std::to_string(nprocs) +
             "): needs group >= 0, 0 <= pid < nprocs <= the parent's size; ignored");
      return AUGUR_ERROR;
    }
    if (parent.communicate_at >= 0.0) {
      // A sub-machine after augur_bsp_communicate: its task is computation of this superstep, so the
      // communication is taken to start after it (at the next augur_bsp_communicate, or at the sync).
      misuse(PartitionAfterCommunicate, "augur_bsp_partition() after augur_bsp_communicate() in superstep " +
                                            std::to_string(parent.superstep) + " of machine " + parent.machine +
                                            ": the communication is taken to start after the sub-machine");
      parent.communicate_at = -1.0;
    }
    parent.before_child = std::max(0.0, at - parent.superstep_start);
    parent.child = parent.machine + std::to_string(parent.superstep) + ":" + std::to_string(group) + "/";
    parent.child_entered = at;
    Frame child;
    child.machine = parent.child;
    child.pid = pid;
    child.nprocs = nprocs;
    child.superstep_start = at;
    state.frames.push_back(std::move(child));
    return AUGUR_OK;
  } catch (const std::exception& error) {
    warn(std::string("augur_bsp_partition(): ") + error.what());
    return AUGUR_ERROR;
  }
}

void augur_bsp_done(void) {
  try {
    const double clock = monotonic_seconds();  // before the lock: the time of the call
    Trace& state = trace();
    std::lock_guard lock(state.mutex);
    const double at = clock - state.origin;
    if (!state.running || state.frames.size() < 2) {
      if (!state.running) {
        not_running("augur_bsp_done");
        return;
      }
      misuse(NothingToLeave, "augur_bsp_done(): no sub-machine to leave (augur_bsp_partition first); ignored");
      return;
    }
    leave_machine(at);
  } catch (const std::exception& error) {
    warn(std::string("augur_bsp_done(): ") + error.what());
  }
}

int augur_bsp_stop(void) {
  try {
    const double clock = monotonic_seconds();  // before the lock: the time of the call
    Trace& state = trace();
    std::lock_guard lock(state.mutex);
    const double at = clock - state.origin;
    if (!state.running) return static_cast<int>(state.records.size());
    while (!state.frames.empty()) leave_machine(at);
    state.running = false;
    return static_cast<int>(state.records.size());
  } catch (const std::exception& error) {
    warn(std::string("augur_bsp_stop(): ") + error.what());
    return AUGUR_ERROR;
  }
}

int augur_bsp_serialize(char** buffer, unsigned long* length) {
  try {
    if (buffer == nullptr || length == nullptr) {
      warn("augur_bsp_serialize(): buffer and length must not be NULL");
      return AUGUR_ERROR;
    }
    *buffer = nullptr;
    *length = 0;
    Trace& state = trace();
    std::lock_guard lock(state.mutex);
    std::string out;
    out.reserve(state.records.size() * 160);
    for (const SuperstepRecord& record : state.records) {
      out += "{\"rank\":";
      append_integer(out, state.rank);
      out += ",\"machine\":" + augur::core::json_quoted(record.machine) + ",\"pid\":";
      append_integer(out, record.pid);
      out += ",\"nprocs\":";
      append_integer(out, record.nprocs);
      out += ",\"superstep\":";
      append_integer(out, record.superstep);
      out += ",\"work\":";
      append_number(out, record.work);
      out += ",\"in\":";
      append_integer(out, record.bytes_in);
      out += ",\"out\":";
      append_integer(out, record.bytes_out);
      out += ",\"partners\":[";
      for (std::size_t index = 0; index < record.partners.size(); ++index) {
        if (index > 0) out += ',';
        append_integer(out, record.partners[index]);
      }
      out += "],\"sync\":\"";
      out += sync_name(record.sync);
      out += "\",\"end\":";
      append_number(out, record.end);
      if (!record.child.empty()) {
        out += ",\"child\":" + augur::core::json_quoted(record.child) + ",\"before_child\":";
        append_number(out, record.before_child);
      }
      out += "}\n";
    }
    const int count = static_cast<int>(state.records.size());
    *buffer = static_cast<char*>(std::malloc(out.size() + 1));
    if (*buffer == nullptr) {
      warn("augur_bsp_serialize(): out of memory");
      return AUGUR_ERROR;
    }
    std::memcpy(*buffer, out.data(), out.size());
    (*buffer)[out.size()] = '\0';
    *length = out.size();
    state.records.clear();
    return count;
  } catch (const std::exception& error) {
    warn(std::string("augur_bsp_serialize(): ") + error.what());
    return AUGUR_ERROR;
  }
}

int augur_bsp_write(const char* path, int ranks, const char* buffer, unsigned long length) {
  try {
    std::string target = path != nullptr ? path : "";
    if (target.empty()) target = settings().bsp_trace;
    if (target.empty()) return AUGUR_OK;
    target = expand_path(target);
    if (ranks < 1 || (buffer == nullptr && length > 0)) {
      warn("augur_bsp_write(): needs ranks >= 1 and a buffer");
      return AUGUR_ERROR;
    }
    std::string content = "{\"augur\":\"bsp\",\"version\":1,\"ranks\":" + std::to_string(ranks) + "}\n";
    if (length > 0) content.append(buffer, length);
    augur::core::write_file_atomically(target, content);
    return AUGUR_OK;
  } catch (const std::exception& error) {
    warn(std::string("superstep trace: ") + error.what() + "; no trace written");
    return AUGUR_ERROR;
  }
}

}  // extern "C"
