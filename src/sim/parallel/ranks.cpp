// Replications over the ranks of an MPI launch (ranks.hpp, docs/sim.md "Replications over MPI ranks").
#include "sim/parallel/ranks.hpp"

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <numeric>
#include <stdexcept>

#ifdef AUGUR_HAVE_MPI
#include <mpi.h>
#endif

namespace augur::sim::parallel {
namespace {

// A non-negative whole number, or -1.
int whole_number(const char* text) {
  if (text == nullptr || *text == '\0') return -1;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return *end == '\0' && value >= 0 && value <= INT_MAX ? static_cast<int>(value) : -1;
}

#ifdef AUGUR_HAVE_MPI
// Where each rank's text goes in a gathered whole: its length and its offset, in rank order.
struct Layout {
  std::vector<int> counts;
  std::vector<int> displacements;

  explicit Layout(const std::vector<long long>& lengths) : counts(lengths.begin(), lengths.end()), displacements(counts.size(), 0) {
    for (std::size_t r = 1; r < counts.size(); ++r) displacements[r] = displacements[r - 1] + counts[r - 1];
  }
  [[nodiscard]] std::size_t total() const { return counts.empty() ? 0U : static_cast<std::size_t>(displacements.back() + counts.back()); }
  [[nodiscard]] std::vector<std::string> pieces(const std::string& all) const {
    std::vector<std::string> result;
    for (std::size_t r = 0; r < counts.size(); ++r)
      result.push_back(all.substr(static_cast<std::size_t>(displacements[r]), static_cast<std::size_t>(counts[r])));
    return result;
  }
};
#endif

}  // namespace

Launch detect_launch(const std::function<const char*(const char*)>& lookup) {
  const auto read = [&](const char* name) { return lookup ? lookup(name) : std::getenv(name); };  // NOLINT(concurrency-mt-unsafe)
  for (const auto& [size_name, rank_name] : {std::pair{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"}, std::pair{"PMI_SIZE", "PMI_RANK"}}) {
    const int size = whole_number(read(size_name));
    const int rank = whole_number(read(rank_name));
    if (size >= 1 && rank >= 0 && rank < size) return {true, rank, size};
  }
  return {};
}

Ranks::Ranks() {
  const Launch launch = detect_launch();
  if (!launch.launched) return;
#ifdef AUGUR_HAVE_MPI
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised == 0) {
    MPI_Init(nullptr, nullptr);
    finalise_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#else
  if (launch.size > 1)
    throw std::runtime_error("launched as " + std::to_string(launch.size) +
                             " MPI ranks, but this augur was built without MPI (scripts/setup.sh installs Open MPI; configure again)");
#endif
}

Ranks::~Ranks() {
#ifdef AUGUR_HAVE_MPI
  if (finalise_) MPI_Finalize();
#endif
}

std::vector<std::string> Ranks::gather(const std::string& local) const {
  if (size_ <= 1) return {local};
#ifdef AUGUR_HAVE_MPI
  long long length = static_cast<long long>(local.size());
  std::vector<long long> lengths(root() ? static_cast<std::size_t>(size_) : 0U);
  MPI_Gather(&length, 1, MPI_LONG_LONG, lengths.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  // Rank 0's verdict goes to every rank before any text moves, so that none is left waiting.
  int fits = root() ? static_cast<int>(std::accumulate(lengths.begin(), lengths.end(), 0LL) <= INT_MAX) : 0;
  MPI_Bcast(&fits, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (fits == 0) throw std::runtime_error("the replications' results exceed 2 GB on rank 0: run fewer replications at once");
  Layout layout(lengths);
  std::string all(root() ? layout.total() : 0U, '\0');
  MPI_Gatherv(local.data(), static_cast<int>(local.size()), MPI_CHAR, all.data(), layout.counts.data(), layout.displacements.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  return layout.pieces(all);
#else
  return {local};
#endif
}

std::vector<std::string> Ranks::gather_everywhere(const std::string& local) const {
  if (size_ <= 1) return {local};
#ifdef AUGUR_HAVE_MPI
  long long length = static_cast<long long>(local.size());
  std::vector<long long> lengths(static_cast<std::size_t>(size_));
  MPI_Allgather(&length, 1, MPI_LONG_LONG, lengths.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD);
  // Every rank sees the same lengths, so every rank gives the same verdict.
  if (std::accumulate(lengths.begin(), lengths.end(), 0LL) > INT_MAX) throw std::runtime_error("the results of one round exceed 2 GB");
  Layout layout(lengths);
  std::string all(layout.total(), '\0');
  MPI_Allgatherv(local.data(), static_cast<int>(local.size()), MPI_CHAR, all.data(), layout.counts.data(), layout.displacements.data(),
                 MPI_CHAR, MPI_COMM_WORLD);
  return layout.pieces(all);
#else
  return {local};
#endif
}

bool Ranks::any(bool local) const {
  if (size_ <= 1) return local;
#ifdef AUGUR_HAVE_MPI
  int mine = local ? 1 : 0;
  int some = 0;
  MPI_Allreduce(&mine, &some, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return some != 0;
#else
  return local;
#endif
}

std::pair<int, int> share(int count, int rank, int size) {
  const int base = count / size;
  const int extra = count % size;
  const int first = rank * base + std::min(rank, extra);
  return {first, first + base + (rank < extra ? 1 : 0)};
}

namespace {

void append_piece(std::string& block, const std::string& piece) {
  const std::uint64_t length = piece.size();
  block.append(reinterpret_cast<const char*>(&length), sizeof length);
  block += piece;
}

std::string message_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& error) {
    return error.what();
  } catch (...) {
    return "unknown error";
  }
}

}  // namespace

std::unique_ptr<core::OutputFile> open_output_on_root(const Ranks& ranks, const std::string& path) {
  std::unique_ptr<core::OutputFile> output;
  std::exception_ptr cannot_open;
  try {
    if (!path.empty() && ranks.root()) output = std::make_unique<core::OutputFile>(path);
  } catch (...) {
    cannot_open = std::current_exception();
  }
  if (ranks.any(cannot_open != nullptr)) {
    if (cannot_open) std::rethrow_exception(cannot_open);
    throw FailedOnAnotherRank();
  }
  return output;
}

namespace {

// Runs produce(index) for index in [first, last) over `threads` threads: the results, each its length (8
// bytes) then its bytes. A failure on any rank is rethrown on rank 0 (its own, or "rank R: what") and
// FailedOnAnotherRank elsewhere, after every rank has finished its block. Collective.
std::string run_block(const Ranks& ranks, int first, int last, int threads, const std::function<std::string(int index)>& produce) {
  std::string block;
  std::exception_ptr failure;
  try {
    run_replications(
        last - first, threads, [&](int index) { return produce(first + index); }, [&](int, std::string&& bytes) { append_piece(block, bytes); });
  } catch (...) {
    failure = std::current_exception();
  }
  if (ranks.any(failure != nullptr)) {
    // "!" marks a failed rank (its message may be empty).
    const std::vector<std::string> messages = ranks.gather(failure ? "!" + message_of(failure) : "");
    if (!ranks.root()) throw FailedOnAnotherRank();
    if (failure) std::rethrow_exception(failure);
    for (std::size_t r = 0; r < messages.size(); ++r)
      if (!messages[r].empty()) throw std::runtime_error("rank " + std::to_string(r) + ": " + messages[r].substr(1));
  }
  return block;
}

// consume(index, bytes) for each result of the blocks, in order, from `index`; returns the index after.
int consume_blocks(const std::vector<std::string>& blocks, int index, const std::function<void(int index, const std::string& bytes)>& consume) {
  for (const std::string& piece : blocks) {
    for (std::size_t at = 0; at < piece.size();) {
      std::uint64_t length = 0;
      std::memcpy(&length, piece.data() + at, sizeof length);
      at += sizeof length;
      consume(index++, piece.substr(at, static_cast<std::size_t>(length)));
      at += static_cast<std::size_t>(length);
    }
  }
  return index;
}

}  // namespace

void run_encoded_over_ranks(const Ranks& ranks, int count, int threads, const std::function<std::string(int index)>& produce,
                            const std::function<void(int index, const std::string& bytes)>& consume) {
  const auto [first, last] = share(count, ranks.rank(), ranks.size());
  const std::vector<std::string> blocks = ranks.gather(run_block(ranks, first, last, threads, produce));
  if (!ranks.root()) return;
  [[maybe_unused]] const int end = consume_blocks(blocks, 0, consume);
  assert(end == count && "run_encoded_over_ranks: every replication gathered");
}

void run_encoded_on_every_rank(const Ranks& ranks, int count, int threads, const std::function<std::string(int index)>& produce,
                               const std::function<void(int index, const std::string& bytes)>& consume) {
  const int round = 1024 * ranks.size();
  for (int begin = 0; begin < count; begin += round) {
    const auto [first, last] = share(std::min(round, count - begin), ranks.rank(), ranks.size());
    const std::vector<std::string> blocks = ranks.gather_everywhere(run_block(ranks, begin + first, begin + last, threads, produce));
    [[maybe_unused]] const int end = consume_blocks(blocks, begin, consume);
    assert(end == begin + std::min(round, count - begin) && "run_encoded_on_every_rank: every result gathered");
  }
}

std::string encode_doubles(const std::vector<double>& values) {
  std::string bytes(values.size() * sizeof(double), '\0');
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<double> decode_doubles(const std::string& bytes) {
  std::vector<double> values(bytes.size() / sizeof(double));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(double));
  return values;
}

}  // namespace augur::sim::parallel
