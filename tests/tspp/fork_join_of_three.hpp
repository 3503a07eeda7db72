// A system shared by the exact and pruned methods' tests: a fork-join of three tasks of Exp(1), Exp(1/2) and
// Exp(1/3) on resources of their own, then d (Exp(1)) after the join, and its expectation by hand.
#pragma once

#include <string>

namespace augur::tspp::fixtures {

inline const std::string fork_join_of_three =
    "resource r1 <- queuing; r2 <- queuing; r3 <- queuing;\n"
    "task a <- { r1: 1; } b <- { r2: 2; } c <- { r3: 3; } d <- { r1: 1; }\n"
    "structure { [ a; b; c; ] d; }";

// E[max of Exp(1), Exp(1/2), Exp(1/3)] by inclusion and exclusion: the sum of the means, less the mean of
// the minimum of every pair, plus the mean of the minimum of all three.
inline constexpr double fork_join_of_three_join =
    1.0 + 2.0 + 3.0 - 1.0 / 1.5 - 1.0 / (4.0 / 3.0) - 1.0 / (5.0 / 6.0) + 1.0 / (11.0 / 6.0);

}  // namespace augur::tspp::fixtures
