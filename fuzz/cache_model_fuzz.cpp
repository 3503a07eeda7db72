// The program model of the cache methods (src/sim/cache/model.cpp): parse; a model that parses is expanded
// (its first accesses, src/sim/cache/model_trace.cpp), and every access must lie inside one array of the
// layout, as the parser's range checks promise.
#include <algorithm>
#include <vector>

#include "fuzz_common.hpp"
#include "sim/cache/model.hpp"
#include "sim/cache/model_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > fuzz::max_input) return 0;
  sim::cache::Model model;
  try {
    model = sim::cache::parse_model(core::SourceText("input.model", fuzz::text_of(data, size)), {});
  } catch (const core::InputError&) {
    return 0;
  }
  sim::cache::ModelTrace trace(model, sim::RandomStream(1, 0));
  std::vector<sim::cache::Access> buffer(1024);
  for (int batch = 0; batch < 4; ++batch) {
    const std::size_t count = trace.read(buffer);
    if (count == 0) break;
    for (std::size_t k = 0; k < count; ++k) {
      const sim::cache::Access& access = buffer[k];
      const bool inside =
          std::any_of(model.arrays.begin(), model.arrays.end(), [&](const sim::cache::ModelArray& array) {
            return access.address >= array.base && access.address + access.size <= array.base + array.bytes &&
                   (access.address - array.base) % array.element_size == 0 && access.size == array.element_size;
          });
      fuzz::expect(inside, "an access falls outside every array", std::to_string(access.address));
    }
  }
  return 0;
}
