// Manager workloads (docs/formats.md, "Manager workloads"): the jobs `augur manager simulate` runs, each with
// its arrival time, its work (seconds on one processor), the processors it can use and its speedup curve
// (Amdahl's f, a table, or the JSON that `augur speedup --json` or `augur run --json` wrote). Pure: a
// speedup file a job names is read through the FileReader the caller passes in.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace augur::manager {

// The speedups a curve may hold (a table's, a file's): below, the simulation of a job would crawl.
inline constexpr double min_speedup = 0.01;
inline constexpr double max_speedup = 1e6;

// S(P) of a job, the truth the simulation runs on (the policies only see what the job measured of it).
struct SpeedupCurve {
  enum class Kind { amdahl, table };
  Kind kind = Kind::amdahl;
  double serial_fraction = 0.0;                // amdahl: S(P) = 1 / (f + (1 - f) / P)
  std::vector<std::pair<int, double>> points;  // table: (P, S(P)), P increasing, (1, 1) added when absent
  std::string source;                          // "amdahl f=0.05", "table", or the file it came from

  // S(P) for P >= 1: Amdahl's law, or the table interpolated linearly between its points and held at its
  // last value beyond it (a table says nothing past its largest P); 0 for P <= 0.
  [[nodiscard]] double at(int processors) const;
};

struct WorkloadJob {
  std::string name;
  double arrival = 0.0;    // seconds from the start
  double work = 0.0;       // seconds on one processor (> 0)
  int max_processors = 0;  // the processors it can use (its request); 0 = the whole machine
  SpeedupCurve curve;
};

struct Workload {
  std::vector<WorkloadJob> jobs;  // in order of arrival (the file's order among equal arrivals)
};

// Returns the text of a file a workload names (a path relative to the workload's folder is the caller's
// business); throws core::InputError when it cannot.
using FileReader = std::function<std::string(const std::string& path)>;

// The arrivals of a Poisson stream (a job line's poisson=N rate=R seed=S): the first N arrivals of a Poisson
// process that starts at `first`, each after a gap -ln(1 - u) / rate from the one before, u uniform in [0, 1) from the top 53 bits of std::mt19937_64 seeded with
// `seed` (the same numbers on every standard library); each rounded to the millisecond.
[[nodiscard]] std::vector<double> poisson_arrivals(double first, int count, double rate, std::uint64_t seed);

// Parses a workload; errors are core::InputError at file:line:col.
[[nodiscard]] Workload parse_workload(std::string_view text, const std::string& file, const FileReader& read_file);

// The speedup curve in a JSON file: `augur speedup --json` (points[].p with sa_n, else ts) or a
// self-analysis report / `augur run --json` (the first region's speedup entries in state PC). Errors are
// core::InputError naming the file (and the line and column of malformed JSON).
[[nodiscard]] SpeedupCurve parse_speedup_json(std::string_view text, const std::string& file);

}  // namespace augur::manager
