// Programs the unit tests of the actor simulator share (actors_test.cpp, actors_trace_test.cpp).
#pragma once

namespace augur::sim::actors::test {

// A ball between a and b: `rounds` hits (4 unless set), each a compute of 3 and a message of size 20.
inline const char* const ping_pong = R"(param rounds = 4
type Player {
  on serve { send ball(hits = 1) size 20 to b }
  on ball {
    compute 3
    if hits < rounds { send ball(hits = hits + 1) size 20 to sender }
  }
}
player a : Player
player b : Player
start serve to a
)";

}  // namespace augur::sim::actors::test
