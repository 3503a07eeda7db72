// Cache level specifications (src/sim/cache/cache_spec.cpp, `augur cache sim --cache`): a spec that parses
// is written back and parsed again to the same level, and a small one simulates a few accesses.
#include <string>

#include "augur/core/diagnostics.hpp"
#include "fuzz_common.hpp"
#include "sim/cache/cache_sim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur::sim::cache;
  if (size > 4096) return 0;
  const std::string text = augur::fuzz::text_of(data, size);
  CacheSpec spec;
  try {
    spec = parse_cache_spec(text, "--cache");
  } catch (const augur::core::InputError&) {
    return 0;
  }
  augur::fuzz::expect(spec.size % (spec.line * spec.assoc) == 0, "a geometry that does not divide", text);
  const CacheSpec again = parse_cache_spec(format_cache_spec(spec), "--cache");
  augur::fuzz::expect(again.size == spec.size && again.assoc == spec.assoc && again.line == spec.line &&
                          again.policy == spec.policy && again.write == spec.write && again.allocate == spec.allocate,
                      "the spec written back reads differently", text);
  if (spec.lines() <= 4096) {
    spec.name = "level";  // alone, l1i would be refused as a split first level without l1d
    CacheHierarchy hierarchy({spec});
    for (std::uint64_t address = 0; address < 64 * spec.line; address += spec.line / 2 + 1) {
      hierarchy.access({address, 3, address % 3 == 0 ? AccessKind::Write : AccessKind::Read});
    }
    const LevelStatistics& s = hierarchy.levels()[0].statistics();
    augur::fuzz::expect(s.compulsory + s.capacity + s.conflict == s.misses(), "the 3C do not sum to the misses", text);
  }
  return 0;
}
