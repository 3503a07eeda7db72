// Cache traces (src/sim/cache/trace_reader.cpp, `augur cache sim`): the format detected as augur cache sim
// does, every access read in small batches and simulated on a two-level hierarchy; the counts must agree
// (misses at most the accesses, the 3C summing to the misses).
#include <sstream>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "fuzz_common.hpp"
#include "sim/cache/cache_sim.hpp"
#include "sim/cache/trace_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur::sim::cache;
  if (size > augur::fuzz::max_input) return 0;
  const std::string text = augur::fuzz::text_of(data, size);
  std::istringstream input(text);
  CacheHierarchy hierarchy({parse_cache_spec("l1:size=256,assoc=2,line=16", "fuzz"),
                            parse_cache_spec("l2:size=1K,assoc=full,line=32,policy=plru", "fuzz")});
  try {
    const auto reader = open_trace(input, "input", TraceFormat::Detect);
    std::vector<Access> buffer(5);
    for (std::size_t count = 0; (count = reader->read(buffer)) > 0;) {
      for (std::size_t i = 0; i < count; ++i) {
        augur::fuzz::expect(buffer[i].size >= 1, "an access of size 0", text);
        hierarchy.access(buffer[i]);
      }
    }
  } catch (const augur::core::InputError&) {
    return 0;
  }
  for (const CacheLevel& level : hierarchy.levels()) {
    const LevelStatistics& s = level.statistics();
    augur::fuzz::expect(s.misses() <= s.accesses, "more misses than accesses", text);
    augur::fuzz::expect(s.compulsory + s.capacity + s.conflict == s.misses(), "the 3C do not sum to the misses", text);
  }
  return 0;
}
