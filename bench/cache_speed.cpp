// Speed of the exact cache simulator (augur cache sim, docs/cache.md): line accesses per second of one level,
// 32 KiB 8-way with 64-byte lines under each policy and fully associative (512 ways, the hash index), with
// and without the 3C classification, on a synthetic stream generated in memory (a buffer of 2^22 accesses
// replayed: 70% a sequential sweep of 256 KiB, 25% a hot 16 KiB region, 5% scattered over 16 MiB; a quarter
// of them writes). Medians of 5
// interleaved rounds, per second of the thread's CPU time. Prints figures; never fails.
//   build/bin/bench_cache_speed [ACCESSES]   (default 10^8)
// One level once, for counting instructions (valgrind --tool=callgrind
// --toggle-collect='augur::sim::cache::CacheHierarchy::run*'):
//   build/bin/bench_cache_speed ACCESSES SPEC 3c|no-3c
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <time.h>
#include <vector>

#include "augur/core/stats.hpp"
#include "core/table.hpp"
#include "sim/cache/cache_sim.hpp"
#include "bench_arguments.hpp"

namespace cache = augur::sim::cache;

namespace {

// Serves `total` accesses from a buffer, replayed from the start when it runs out.
class ReplaySource final : public cache::AccessSource {
public:
  ReplaySource(const std::vector<cache::Access>& accesses, std::uint64_t total) : accesses_(accesses), left_(total) {}
  std::size_t read(std::span<cache::Access> buffer) override {
    std::size_t count = 0;
    while (count < buffer.size() && left_ > 0) {
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>({buffer.size() - count, accesses_.size() - position_, left_}));
      std::copy_n(accesses_.begin() + static_cast<long>(position_), take, buffer.begin() + static_cast<long>(count));
      count += take;
      left_ -= take;
      position_ = (position_ + take) % accesses_.size();
    }
    return count;
  }

private:
  const std::vector<cache::Access>& accesses_;
  std::size_t position_ = 0;
  std::uint64_t left_;
};

// CPU time of this thread: the figures do not depend on what else the machine runs (it is shared).
double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

std::vector<cache::Access> synthetic_stream(std::size_t count) {
  std::vector<cache::Access> accesses(count);
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  const auto next = [&state] {  // xorshift64*
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
  };
  std::uint64_t sweep = 0;
  for (cache::Access& access : accesses) {
    const std::uint64_t draw = next();
    const std::uint64_t choice = draw % 100;
    if (choice < 70) {
      access.address = 0x10000000 + (sweep % (256 << 10));  // sequential over 256 KiB, 8-byte steps
      sweep += 8;
    } else if (choice < 95) {
      access.address = 0x20000000 + ((draw >> 8) % (16 << 10));  // a hot 16 KiB region
    } else {
      access.address = 0x40000000 + ((draw >> 8) % (16 << 20));  // scattered over 16 MiB
    }
    access.address &= ~std::uint64_t{7};
    access.size = 8;
    access.kind = (draw >> 40) % 4 == 0 ? cache::AccessKind::Write : cache::AccessKind::Read;
  }
  return accesses;
}

// One run of one level: its counts on stdout (the same stream, so that two builds' counts can be compared).
int run_once(const std::vector<cache::Access>& accesses, std::uint64_t total, const std::string& spec, bool classify) {
  cache::CacheHierarchy hierarchy({cache::parse_cache_spec(spec, "bench")}, classify);
  ReplaySource source(accesses, total);
  hierarchy.run(source);
  const auto& s = hierarchy.levels()[0].statistics();
  std::printf("%s %s: accesses %llu, misses %llu (reads %llu, writes %llu), compulsory %llu, capacity %llu, "
              "conflict %llu, writebacks %llu\n",
              spec.c_str(), classify ? "3c" : "no-3c", static_cast<unsigned long long>(s.accesses),
              static_cast<unsigned long long>(s.misses()), static_cast<unsigned long long>(s.read_misses),
              static_cast<unsigned long long>(s.write_misses), static_cast<unsigned long long>(s.compulsory),
              static_cast<unsigned long long>(s.capacity), static_cast<unsigned long long>(s.conflict),
              static_cast<unsigned long long>(s.writebacks));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_cache_speed [ACCESSES]            (default 1e8)\n"
                                "       bench_cache_speed ACCESSES SPEC 3c|no-3c  (one level once, for callgrind)\n"
                                "The exact cache simulator: line accesses per CPU second, medians of 5 rounds",
                                {}, 3);
  const std::uint64_t total = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100'000'000ULL;
  const std::vector<cache::Access> accesses = synthetic_stream(std::size_t{1} << 22);
  if (argc > 3) return run_once(accesses, total, argv[2], std::string(argv[3]) == "3c");
  struct Case {
    std::string spec;
    bool classify;
    std::vector<double> rates;
    double miss_rate = 0.0;
  };
  std::vector<Case> cases;
  for (const char* policy : {"lru", "fifo", "random", "plru"}) {
    for (const bool classify : {false, true}) cases.push_back({std::string("l1:size=32K,assoc=8,line=64,policy=") + policy, classify, {}});
  }
  for (const bool classify : {false, true}) cases.push_back({"l1:size=32K,assoc=full,line=64,policy=lru", classify, {}});
  constexpr int rounds = 5;
  for (int round = 0; round < rounds; ++round) {
    for (Case& c : cases) {
      cache::CacheHierarchy hierarchy({cache::parse_cache_spec(c.spec, "bench")}, c.classify);
      ReplaySource source(accesses, total);
      const double start = thread_seconds();
      hierarchy.run(source);
      const double seconds = thread_seconds() - start;
      const auto& statistics = hierarchy.levels()[0].statistics();
      c.rates.push_back(static_cast<double>(statistics.accesses) / seconds);
      c.miss_rate = statistics.miss_rate();
    }
    std::fprintf(stderr, "bench_cache_speed: round %d of %d\n", round + 1, rounds);
  }
  augur::core::TextTable table({"level", "3C", "miss rate", "median M accesses per CPU s", "min", "max"});
  for (const Case& c : cases) {
    const auto [low, high] = std::minmax_element(c.rates.begin(), c.rates.end());
    table.add_row({c.spec, c.classify ? "yes" : "no", augur::core::format_number(c.miss_rate * 100.0, 2) + "%",
                   augur::core::format_number(augur::core::median(c.rates) / 1e6, 1), augur::core::format_number(*low / 1e6, 1),
                   augur::core::format_number(*high / 1e6, 1)});
  }
  std::printf("Exact cache simulation, one level, %llu accesses of 8 bytes per run (a 2^22-access synthetic stream "
              "replayed), %d interleaved rounds\n\n%s",
              static_cast<unsigned long long>(total), rounds, table.render().c_str());
  return 0;
}
