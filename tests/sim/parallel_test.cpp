// Replications over MPI ranks (src/sim/parallel): how a launch is recognised, how the replications are
// shared, and that one rank (no launch) is run_replications itself. The ranks of a real mpirun are tested end
// to end (tests/e2e/actors_parallel_e2e_test.cpp).
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <map>
#include <string>
#include <vector>

#include "sim/parallel/ranks.hpp"

namespace augur::sim::parallel {
namespace {

Launch launch_of(const std::map<std::string, std::string>& environment) {
  return detect_launch([&](const char* name) -> const char* {
    const auto found = environment.find(name);
    return found == environment.end() ? nullptr : found->second.c_str();
  });
}

TEST(Ranks, ALaunchIsRecognisedFromTheLaunchersVariables) {
  EXPECT_FALSE(launch_of({}).launched);
  const Launch open_mpi = launch_of({{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "3"}});
  EXPECT_TRUE(open_mpi.launched);
  EXPECT_EQ(open_mpi.rank, 3);
  EXPECT_EQ(open_mpi.size, 4);
  const Launch pmi = launch_of({{"PMI_SIZE", "2"}, {"PMI_RANK", "0"}});
  EXPECT_TRUE(pmi.launched && pmi.rank == 0 && pmi.size == 2);
  EXPECT_FALSE(launch_of({{"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_RANK", "2"}}).launched) << "rank beyond size";
  EXPECT_FALSE(launch_of({{"PMI_SIZE", "two"}, {"PMI_RANK", "0"}}).launched);
  EXPECT_FALSE(launch_of({{"PMI_SIZE", "2"}}).launched);
}

// Contiguous blocks in rank order cover every replication once; the first count % size get one more.
TEST(Ranks, ReplicationsAreSharedInContiguousBlocks) {
  EXPECT_EQ(share(8, 0, 3), std::make_pair(0, 3));
  EXPECT_EQ(share(8, 1, 3), std::make_pair(3, 6));
  EXPECT_EQ(share(8, 2, 3), std::make_pair(6, 8));
  EXPECT_EQ(share(2, 3, 4), std::make_pair(2, 2));
  for (int count : {0, 1, 7, 100}) {
    for (int size : {1, 2, 3, 16}) {
      int next = 0;
      for (int rank = 0; rank < size; ++rank) {
        const auto [first, last] = share(count, rank, size);
        EXPECT_EQ(first, next);
        EXPECT_GE(last - first, count / size);
        EXPECT_LE(last - first, count / size + 1);
        next = last;
      }
      EXPECT_EQ(next, count);
    }
  }
}

TEST(Ranks, DoublesCrossBitForBit) {
  const std::vector<double> values{1.0 / 3.0, -0.0, 1e-310, 6.02e23};
  const std::vector<double> back = decode_doubles(encode_doubles(values));
  ASSERT_EQ(back.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(std::memcmp(&back[i], &values[i], sizeof(double)), 0);
  EXPECT_TRUE(decode_doubles(encode_doubles({})).empty());
}

// Without a launch: one rank, every replication combined here in order, nothing encoded.
TEST(Ranks, OneRankIsRunReplications) {
  const Ranks ranks;
  ASSERT_EQ(ranks.size(), 1);
  EXPECT_TRUE(ranks.root());
  EXPECT_EQ(ranks.gather("x"), std::vector<std::string>{"x"});
  EXPECT_TRUE(ranks.any(true));
  std::vector<int> seen;
  run_replications_over_ranks(
      ranks, 10, 3, [](int index) { return index * index; }, [](int) -> std::string { throw std::logic_error("no encoding on one rank"); },
      [](const std::string&) -> int { throw std::logic_error("no decoding on one rank"); }, [&](int index, int square) {
        EXPECT_EQ(square, index * index);
        seen.push_back(index);
      });
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

// The results on every rank (one here): each index produced once and consumed in order, over rounds of
// 1024 a rank, the bytes as produced.
TEST(Ranks, EveryRankConsumesEveryResultInOrder) {
  const Ranks ranks;
  EXPECT_EQ(ranks.gather_everywhere("y"), std::vector<std::string>{"y"});
  std::vector<int> seen;
  run_encoded_on_every_rank(
      ranks, 2500, 3, [](int index) { return std::string(static_cast<std::size_t>(index % 7), 'a') + std::to_string(index); },
      [&](int index, const std::string& bytes) {
        EXPECT_EQ(bytes, std::string(static_cast<std::size_t>(index % 7), 'a') + std::to_string(index));
        seen.push_back(index);
      });
  ASSERT_EQ(seen.size(), 2500U);
  for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], static_cast<int>(i));
  run_encoded_on_every_rank(ranks, 0, 2, [](int) -> std::string { throw std::logic_error("nothing to produce"); },
                            [](int, const std::string&) { throw std::logic_error("nothing to consume"); });
}

}  // namespace
}  // namespace augur::sim::parallel
