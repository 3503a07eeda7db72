// The probes allocate nothing (issue 2, section 3): every C++ allocation of the process, libaugur's
// included, goes through the replaced operator new below, which counts them.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "augur/augur.h"

namespace {
std::atomic<long> allocations{0};
}

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  throw std::bad_alloc();
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }

namespace {

TEST(Probes, AllocateNothingOnceTheRegionExists) {
  ASSERT_EQ(augur_set_option("summary", "0"), AUGUR_OK);
  ASSERT_EQ(augur_set_option("baseline", "1"), AUGUR_OK);
  ASSERT_EQ(augur_set_option("measure_iterations", "2"), AUGUR_OK);
  ASSERT_EQ(augur_init_parallel_region(1, 2, 5000), AUGUR_OK);
  const long before = allocations.load();
  for (int iteration = 0; iteration < 5000; ++iteration) {
    augur_open_iteration();
    for (int loop = 0; loop < 2; ++loop) {
      augur_init_par();
      augur_end_par();
    }
    augur_close_iteration();
  }
  const long during = allocations.load() - before;
  augur_end_parallel_region();
  double speedup = 0.0;
  EXPECT_EQ(augur_get_speedup(1, &speedup), AUGUR_PC) << "the baseline completed, so the probes did their work";
  EXPECT_EQ(during, 0) << "allocations by 5000 iterations of probes";
}

}  // namespace
