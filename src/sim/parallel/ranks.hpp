// Replications over the processes of an MPI launch (docs/sim.md, "Replications over MPI ranks"). An edge
// shared by the simulators' commands: it reads the launcher's environment and talks to MPI; the engines it
// serves stay pure. Launched by mpirun (or srun, mpiexec), each rank runs a contiguous block of the
// replications over its threads (run_replications), and rank 0 gathers every result and combines them in
// replication order: the same figures, to the bit, as one process with any number of threads. Without a
// launch it is one rank and MPI is never touched.
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "augur/sim/engine.hpp"
#include "core/files.hpp"

namespace augur::sim::parallel {

// How this process was started, from the launcher's environment (Open MPI's OMPI_COMM_WORLD_SIZE and
// _RANK, else MPICH's and Slurm's PMI_SIZE and PMI_RANK): `launched` when one of them is set.
struct Launch {
  bool launched = false;
  int rank = 0;
  int size = 1;
};
// `lookup` reads a variable (nullptr when unset); the default reads the process environment.
[[nodiscard]] Launch detect_launch(const std::function<const char*(const char*)>& lookup = nullptr);

// The processes that share the replications. Under a launch, the constructor initialises MPI (unless the
// program did) and the destructor finalises it; otherwise this process alone. Throws std::runtime_error
// when launched with several ranks by an augur built without MPI (each would run every replication).
class Ranks {
public:
  Ranks();
  ~Ranks();
  Ranks(const Ranks&) = delete;
  Ranks& operator=(const Ranks&) = delete;

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  [[nodiscard]] bool root() const { return rank_ == 0; }
  // Every rank's `local`, on rank 0 in rank order; empty on the others. Collective.
  [[nodiscard]] std::vector<std::string> gather(const std::string& local) const;
  // Every rank's `local`, in rank order, on every rank. Collective.
  [[nodiscard]] std::vector<std::string> gather_everywhere(const std::string& local) const;
  // Whether `local` holds on some rank; every rank gets the answer. Collective.
  [[nodiscard]] bool any(bool local) const;

private:
  int rank_ = 0;
  int size_ = 1;
  bool finalise_ = false;
};

// The replications [first, last) rank `rank` of `size` runs: contiguous blocks in rank order, the first
// count % size ranks one more.
[[nodiscard]] std::pair<int, int> share(int count, int rank, int size);

// Thrown on a rank other than 0 when a rank failed: rank 0 reports the error, the others say nothing.
struct FailedOnAnotherRank : std::runtime_error {
  FailedOnAnotherRank() : std::runtime_error("a replication failed on another rank") {}
};

// The output `path` opened on rank 0 (core::OutputFile; nullptr on the other ranks, and when `path` is
// empty), before the replications' collectives (a --trace of replication 0, which is in rank 0's block).
// Collective: when rank 0 cannot open it, rank 0 rethrows its error and the others throw FailedOnAnotherRank.
[[nodiscard]] std::unique_ptr<core::OutputFile> open_output_on_root(const Ranks& ranks, const std::string& path);

// Type-erased core of run_replications_over_ranks: runs this rank's block, produce(index) -> the result's
// bytes, over `threads` threads; rank 0 gets consume(index, bytes) for every index in order. A failure on
// any rank is rethrown on rank 0 (its own exception, or a std::runtime_error "rank R: what") and
// FailedOnAnotherRank elsewhere, after every rank has finished its block.
void run_encoded_over_ranks(const Ranks& ranks, int count, int threads, const std::function<std::string(int index)>& produce,
                            const std::function<void(int index, const std::string& bytes)>& consume);

// The same, but every rank gets consume(index, bytes) for every index in order (a search whose every rank
// goes on from the results: sim/actors' SearchOptions::spread). In rounds of at most 1024 indices a rank, so
// that the results held at once stay bounded. A failure on any rank: as run_encoded_over_ranks.
void run_encoded_on_every_rank(const Ranks& ranks, int count, int threads, const std::function<std::string(int index)>& produce,
                               const std::function<void(int index, const std::string& bytes)>& consume);

// run_replications (engine.hpp) over the ranks: replicate(index) -> Result on any rank and thread (it must
// depend on `index` only); on one rank combine(index, Result&&) as run_replications does, with no encoding;
// on several, encode(const Result&) -> std::string and decode(const std::string&) -> Result carry each
// result to rank 0 (they must give back the same bits: copy doubles whole), where combine(index, Result&&)
// sees every index in order. Only rank 0 combines.
template <typename Replicate, typename Encode, typename Decode, typename Combine>
void run_replications_over_ranks(const Ranks& ranks, int count, int threads, Replicate&& replicate, Encode&& encode, Decode&& decode,
                                 Combine&& combine) {
  if (ranks.size() <= 1) {
    run_replications(count, threads, replicate, combine);
    return;
  }
  run_encoded_over_ranks(
      ranks, count, threads, [&](int index) { return encode(replicate(index)); },
      [&](int index, const std::string& bytes) { combine(index, decode(bytes)); });
}

// Doubles to bytes and back, bit for bit (for encode and decode).
[[nodiscard]] std::string encode_doubles(const std::vector<double>& values);
[[nodiscard]] std::vector<double> decode_doubles(const std::string& bytes);

}  // namespace augur::sim::parallel
