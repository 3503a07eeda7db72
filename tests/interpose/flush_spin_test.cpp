// A thread's spins on flags seen through its flushes (src/interpose/flush_spin.hpp): crafted flush times in,
// the spin out.
#include "interpose/flush_spin.hpp"

#include <gtest/gtest.h>

namespace {

using augur::interpose::FlushSpin;

TEST(FlushSpin, ARunOfFlushesFromOneSiteIsASpin) {
  FlushSpin spin;
  int site = 0;
  // 101 flushes 0.1 us apart: 10 us of spinning (the first flush starts the run; it has no gap before it).
  for (int flush = 0; flush <= 100; ++flush) spin.flush(&site, 1.0 + flush * 1e-7);
  EXPECT_NEAR(spin.take(), 1e-5, 1e-12);
  EXPECT_EQ(spin.take(), 0.0) << "take() starts a new count";
}

TEST(FlushSpin, FlushesFarApartOrFromAnotherSiteAreNotASpin) {
  FlushSpin spin;
  int first = 0;
  int second = 0;
  // A loop that works 5 us between its flushes: every gap is above the limit.
  for (int flush = 0; flush < 10; ++flush) spin.flush(&first, flush * 5e-6);
  EXPECT_EQ(spin.take(), 0.0);
  // Two sites taking turns (a flag written, then another read), 0.5 us apart: no run from one site.
  for (int flush = 0; flush < 10; ++flush) spin.flush(flush % 2 == 0 ? &first : &second, flush * 5e-7);
  EXPECT_EQ(spin.take(), 0.0);
  // A gap at the limit counts, one beyond it does not; a clock that goes back adds nothing.
  spin.flush(&first, 0.0);
  spin.flush(&first, FlushSpin::gap_limit);
  spin.flush(&first, 2.0 * FlushSpin::gap_limit + 1e-9);
  spin.flush(&first, 1e-9);
  EXPECT_DOUBLE_EQ(spin.take(), FlushSpin::gap_limit);
}

TEST(FlushSpin, TakeEndsTheRun) {
  // A spin ending at one barrier and another beginning after it, at the same site: the gap across the
  // barrier is not spinning.
  FlushSpin spin;
  int site = 0;
  spin.flush(&site, 0.0);
  spin.flush(&site, 5e-7);
  EXPECT_NEAR(spin.take(), 5e-7, 1e-15);
  spin.flush(&site, 8e-7);
  EXPECT_EQ(spin.take(), 0.0);
}

}  // namespace
