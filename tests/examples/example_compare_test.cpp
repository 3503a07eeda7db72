// Unit tests of the comparison the example tests and the documentation test share (example_compare.hpp):
// exact by default, masks on both sides, runs of blanks in masked text, relative tolerance on numbers,
// CRLF, and the diff printed on a failure.
#include <gtest/gtest.h>

#include <string>

#include "example_compare.hpp"

namespace {

using augur::examples::compare;
using augur::examples::Filter;

TEST(ExampleCompare, EqualTextsMatchAndAnyDifferenceFailsWithoutAFilter) {
  EXPECT_FALSE(compare("a 1.5\nb\n", "a 1.5\nb\n", Filter{}).has_value());
  EXPECT_TRUE(compare("a 1.5\nb\n", "a 1.6\nb\n", Filter{}).has_value());
  EXPECT_TRUE(compare("a  1.5\n", "a 1.5\n", Filter{}).has_value());  // blanks count when nothing is masked
  EXPECT_TRUE(compare("a\nb\n", "a\n", Filter{}).has_value());
}

TEST(ExampleCompare, MasksApplyToBothSidesAndOnlyToWhatTheyMatch) {
  const Filter filter{{R"([0-9]+\.[0-9]+( (s|ms|us))?)"}, 0.0};
  EXPECT_FALSE(compare("T(B)=695.5 us  f=0.0778\n", "T(B)=1.005 ms  f=0.0217\n", filter).has_value());
  EXPECT_TRUE(compare("T(B)=695.5 us, 357 iterations\n", "T(B)=1.005 ms, 356 iterations\n", filter).has_value());
  EXPECT_TRUE(compare("state PC 1.5\n", "state PNC 1.5\n", filter).has_value());
}

TEST(ExampleCompare, MasksApplyToEachLineSoThatTheyCanAnchorAtItsEnd) {
  const Filter filter{{"(PC|PNC) .*$"}, 0.0};
  EXPECT_FALSE(compare("1 PC 1.0 -\n2 PC 2.0 1.9\n", "1 PC 1.1 0.9\n2 PNC 2.1 -\n", filter).has_value());
  EXPECT_TRUE(compare("1 PC 1.0 -\n", "2 PC 1.0 -\n", filter).has_value());
}

TEST(ExampleCompare, MaskedTablesMayWidenTheirColumns) {
  const Filter filter{{R"([0-9]+\.[0-9]+)"}, 0.0};
  EXPECT_FALSE(compare("p      T(p)\n1     1.005\n", "p       T(p)\n1    12.005\n", filter).has_value());
}

TEST(ExampleCompare, ToleranceComparesNumbersRelativelyAndTheRestExactly) {
  const Filter filter{{}, 0.05};
  EXPECT_FALSE(compare("time 1.00 s, 3 runs\n", "time 1.04 s, 3 runs\n", filter).has_value());
  EXPECT_TRUE(compare("time 1.00 s, 3 runs\n", "time 1.06 s, 3 runs\n", filter).has_value());
  EXPECT_TRUE(compare("time 1.00 s, 3 runs\n", "time 1.00 ms, 3 runs\n", filter).has_value());
  EXPECT_TRUE(compare("time 1.00 s\n", "time 1.00 s 2\n", filter).has_value());
  EXPECT_FALSE(compare("error -2.5e-03\n", "error -2.55e-03\n", filter).has_value());
}

TEST(ExampleCompare, CarriageReturnsBeforeLineEndsAreNotCompared) {
  EXPECT_FALSE(compare("id,value\r\n1,0.5\r\n", "id,value\n1,0.5\n", Filter{}).has_value());
}

TEST(ExampleCompare, TheDiffShowsKeptRemovedAndAddedLinesInOrder) {
  const auto difference = compare("a\nb\nc\n", "a\nB\nc\nd\n", Filter{});
  ASSERT_TRUE(difference.has_value());
  EXPECT_EQ(*difference, "--- expected\n+++ actual\n a\n-b\n+B\n c\n+d\n");
}

}  // namespace
