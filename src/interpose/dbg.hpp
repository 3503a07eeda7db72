// DEBUG ONLY (not committed): per-barrier stamps of threads 0 and 1 around the real libgomp call.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include "runtime/system_clock.hpp"
namespace dbg {
constexpr int N = 20000;
struct Stamps { double entry[N]; double exit[N]; int n = 0; };
inline Stamps stamps[2];
inline double courtesy_sum[2]; inline long courtesy_n[2];
inline double tool_sum[4]; inline long tool_n[4];  // 0: bookkeeping plain, 1: bookkeeping boundary, 2: arrival..barrier entry (master), 3: sample
inline void enter(int t, int level) { if (t > 1 || level != 1) return; auto& s = stamps[t]; if (s.n < N) s.entry[s.n] = augur::runtime::read_clock(CLOCK_MONOTONIC); }
inline void leave(int t, int level) { if (t > 1 || level != 1) return; auto& s = stamps[t]; if (s.n < N) s.exit[s.n++] = augur::runtime::read_clock(CLOCK_MONOTONIC); }
struct Dump { ~Dump() {
  const char* path = std::getenv("DBG_OUT"); if (!path) return;
  FILE* f = std::fopen(path, "w"); if (!f) return;
  int n = std::min(stamps[0].n, stamps[1].n);
  for (int i = 0; i < n; ++i) std::fprintf(f, "%d %.9f %.9f %.9f %.9f\n", i, stamps[0].entry[i], stamps[0].exit[i], stamps[1].entry[i], stamps[1].exit[i]);
  std::fclose(f);
  const char* p2 = std::getenv("DBG_SUM"); if (!p2) return; FILE* g = std::fopen(p2, "w");
  for (int k = 0; k < 4; ++k) std::fprintf(g, "tool%d n=%ld mean_us=%.3f\n", k, tool_n[k], tool_n[k] ? tool_sum[k] / (double)tool_n[k] * 1e6 : 0.0);
  std::fprintf(g, "arrive n=%ld mean_us=%.3f\n", courtesy_n[0], courtesy_n[0] ? courtesy_sum[0] / (double)courtesy_n[0] * 1e6 : 0.0);
  std::fprintf(g, "courtesy n=%ld mean_us=%.3f\n", courtesy_n[1], courtesy_n[1] ? courtesy_sum[1] / (double)courtesy_n[1] * 1e6 : 0.0);
  std::fclose(g);
} };
inline Dump dump;
}
