// Speed of the exact expansion of program models (augur cache trace, docs/cache.md): accesses per second of
// ModelTrace alone (batches of 8192 into memory) and with augur's binary writer behind it (into a stream
// that discards), on the six example models scaled to 2-5 × 10^7 accesses. Medians of 3 interleaved rounds.
// Prints figures; never fails.
//   build/bin/bench_cache_model_speed
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "augur/core/stats.hpp"
#include "core/files.hpp"
#include "core/table.hpp"
#include "sim/cache/model.hpp"
#include "sim/cache/model_trace.hpp"
#include "sim/cache/trace_writer.hpp"
#include "bench_arguments.hpp"

namespace cache = augur::sim::cache;

namespace {

class DiscardBuffer final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize count) override { return count; }
};

struct Case {
  std::string model;
  augur::core::Bindings defines;
  cache::Model parsed;
  std::uint64_t accesses = 0;
  std::vector<double> expand_rates;
  std::vector<double> write_rates;
};

// Accesses per second of one full expansion, written in augur's format when `write`.
double run(Case& c, bool write) {
  cache::ModelTrace trace(c.parsed, augur::sim::RandomStream(1, 0));
  DiscardBuffer discard;
  std::ostream out(&discard);
  cache::TraceWriter writer(out, cache::TraceFormat::Augur);
  std::vector<cache::Access> batch(8192);
  std::uint64_t total = 0;
  std::uint64_t checksum = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t count; (count = trace.read(batch)) > 0;) {
    total += count;
    if (write) {
      writer.write(std::span<const cache::Access>(batch.data(), count));
    } else {
      checksum += batch[count - 1].address;  // keeps the expansion from being optimised away
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  c.accesses = total + (checksum == ~std::uint64_t{0} ? 1 : 0);
  return static_cast<double>(total) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_cache_model_speed\n"
                                "Expansion of the example program models into traces: accesses per second, medians of 3 rounds",
                                {}, 0);
  const std::string folder = std::string(AUGUR_EXAMPLES_DIR) + "/cache/models/";
  std::vector<Case> cases = {
      {"ab_loop", {{"N", 1e7}}, {}, 0, {}, {}},
      {"matmul", {{"N", 256}}, {}, 0, {}, {}},
      {"matmul_tiled", {{"N", 256}, {"T", 16}}, {}, 0, {}, {}},
      {"stencil2d", {{"N", 1024}, {"T", 4}}, {}, 0, {}, {}},
      {"transpose", {{"N", 4096}}, {}, 0, {}, {}},
      {"linked_walk", {{"WALKS", 200000}}, {}, 0, {}, {}},
  };
  for (Case& c : cases) {
    const std::string path = folder + c.model + ".model";
    c.parsed = cache::parse_model(augur::core::SourceText(path, augur::core::read_file(path)), c.defines);
  }
  constexpr int rounds = 3;
  for (int round = 0; round < rounds; ++round) {
    for (Case& c : cases) {
      c.expand_rates.push_back(run(c, false));
      c.write_rates.push_back(run(c, true));
    }
    std::fprintf(stderr, "bench_cache_model_speed: round %d of %d\n", round + 1, rounds);
  }
  augur::core::TextTable table({"model", "defines", "accesses", "expansion M accesses/s", "with the binary writer"});
  for (const Case& c : cases) {
    std::string defines;
    for (const auto& [name, value] : c.defines)
      defines += (defines.empty() ? "" : " ") + name + "=" + augur::core::format_shortest(value);
    table.add_row({c.model, defines, std::to_string(c.accesses),
                   augur::core::format_number(augur::core::median(c.expand_rates) / 1e6, 1),
                   augur::core::format_number(augur::core::median(c.write_rates) / 1e6, 1)});
  }
  std::printf("Exact expansion of the example models (seed 1), medians of %d interleaved rounds\n\n%s", rounds,
              table.render().c_str());
  return 0;
}
