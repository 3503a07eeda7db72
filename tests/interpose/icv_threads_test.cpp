// The thread control of libaugur_ompt: which value goes into the ICV nthreads-var at each region's begin.
#include "interpose/icv_threads.hpp"

#include <gtest/gtest.h>

namespace {

using augur::interpose::IcvThreadControl;

TEST(IcvThreadControl, SetsTheBaselineInsideIterationsAndGivesTheAllocationBackAfter) {
  IcvThreadControl threads(4);
  EXPECT_EQ(threads.allocated_processors(), 4);
  threads.observe(4);
  EXPECT_EQ(threads.decide(4, false), 0);  // outside iterations: the program's value stays
  threads.set_active_threads(1);           // the engine asks for the baseline B = 1
  threads.observe(4);
  EXPECT_EQ(threads.decide(4, true), 1);   // set before the team forms
  EXPECT_EQ(threads.held(), 1);
  threads.observe(1);                      // next region: the ICV still holds our 1, not a change by the program
  EXPECT_EQ(threads.allocated_processors(), 4);
  EXPECT_EQ(threads.decide(1, true), 0);   // already 1
  threads.set_active_threads(4);
  threads.observe(1);
  EXPECT_EQ(threads.decide(1, true), 4);   // back to the allocation
  EXPECT_EQ(threads.held(), 0);
  threads.set_active_threads(1);
  threads.observe(4);
  EXPECT_EQ(threads.decide(4, false), 0);  // outside an iteration the allocation holds, whatever is active
}

TEST(IcvThreadControl, TheProgramsOwnSettingIsTheNewAllocation) {
  IcvThreadControl threads(4);
  threads.set_active_threads(2);
  threads.observe(4);
  EXPECT_EQ(threads.decide(4, true), 2);
  threads.observe(3);  // the program called omp_set_num_threads(3) between regions
  EXPECT_EQ(threads.allocated_processors(), 3);
  EXPECT_EQ(threads.held(), 0);
  threads.set_active_threads(3);
  EXPECT_EQ(threads.decide(3, true), 0);
  threads.observe(2);  // and then 2, with nothing of ours held
  EXPECT_EQ(threads.allocated_processors(), 2);
}

}  // namespace
