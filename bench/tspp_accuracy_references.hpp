// The reference file of bench_tspp_accuracy (--references FILE): each system's reference in each regime,
// computed the first time (exact chain or simulator) and read back afterwards, so that a before/after of a
// method costs only its predictions. Format (text, one record a line, numbers in %.17g):
//
//   augur-tspp-references 1 seed=S replications=R exact-states=N
//   SYSTEM REGIME KIND COMPLETION [TASKS RESOURCES RESIDENCE_1 .. RESIDENCE_TASKS R_11 .. R_TASKS,RESOURCES]
//
// The header names the settings the references depend on (the benchmark's --seed, --replications and
// --exact-states): a file written with other settings is refused. SYSTEM counts from 0 in the order the
// systems are drawn, REGIME from 1 in the order of bench::regimes() (whatever --regimes picks), KIND is
// "exact" (the exact chain within --exact-states states; then each task's mean residence time and its
// residence time at each resource follow, for the table of where the errors come from) or "simulated"
// (the simulator, R replications seeded SYSTEM + 1). Records are appended as they are computed and flushed
// one by one: a run stopped half-way leaves the records it finished, and the next run computes the rest.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "augur/tspp_predictor.hpp"

namespace bench {

// The reference completion time of a system in a regime: exact when the chain fits, else simulated.
struct Reference {
  double completion = 0.0;
  bool exact = false;
  augur::tspp::Prediction prediction;  // when exact: each task's residence.mean and residence_at
};

class ReferenceFile {
public:
  ReferenceFile() = default;

  // Reads FILE if it exists (exits 2 on a header of other settings or a malformed record), else creates it.
  ReferenceFile(std::string path, unsigned long long seed, int replications, long exact_states) : path_(std::move(path)) {
    char header[160];
    std::snprintf(header, sizeof header, "augur-tspp-references 1 seed=%llu replications=%d exact-states=%ld", seed,
                  replications, exact_states);
    std::ifstream in(path_);
    std::string line;
    if (in && std::getline(in, line)) {
      if (line != header) fail("its header is '" + line + "', this run's would be '" + header + "'");
      for (int number = 2; std::getline(in, line); ++number) read_record(line, number);
    } else {
      write_line(header);
    }
  }

  [[nodiscard]] bool enabled() const { return !path_.empty(); }
  [[nodiscard]] std::size_t size() const { return records_.size(); }

  [[nodiscard]] std::optional<Reference> find(int system, int regime) const {
    const auto found = records_.find({system, regime});
    if (found == records_.end()) return std::nullopt;
    return found->second;
  }

  void add(int system, int regime, const Reference& reference) {
    std::ostringstream line;
    line.precision(17);
    line << system << ' ' << regime << ' ' << (reference.exact ? "exact" : "simulated") << ' ' << reference.completion;
    if (reference.exact) {
      const auto& tasks = reference.prediction.tasks;
      const std::size_t resources = tasks.empty() ? 0 : tasks[0].residence_at.size();
      line << ' ' << tasks.size() << ' ' << resources;
      for (const auto& task : tasks) line << ' ' << task.residence.mean;
      for (const auto& task : tasks) {
        for (double value : task.residence_at) line << ' ' << value;
      }
    }
    write_line(line.str());
    records_[{system, regime}] = reference;
  }

private:
  [[noreturn]] void fail(const std::string& why) const {
    std::fprintf(stderr, "bench_tspp_accuracy: --references %s: %s\n", path_.c_str(), why.c_str());
    std::exit(2);
  }

  void write_line(const std::string& line) const {
    std::FILE* out = std::fopen(path_.c_str(), "a");
    if (out == nullptr) fail("cannot be written");
    std::fprintf(out, "%s\n", line.c_str());
    std::fclose(out);
  }

  void read_record(const std::string& line, int number) {
    std::istringstream in(line);
    int system = -1;
    int regime = 0;
    std::string kind;
    Reference reference;
    in >> system >> regime >> kind >> reference.completion;
    reference.exact = kind == "exact";
    bool good = static_cast<bool>(in) && system >= 0 && regime >= 1 && (reference.exact || kind == "simulated");
    if (good && reference.exact) {
      std::size_t tasks = 0;
      std::size_t resources = 0;
      in >> tasks >> resources;
      good = static_cast<bool>(in) && tasks < 100000 && resources < 1000;
      reference.prediction.tasks.resize(good ? tasks : 0);
      for (auto& task : reference.prediction.tasks) in >> task.residence.mean;
      for (auto& task : reference.prediction.tasks) {
        task.residence_at.resize(resources);
        for (double& value : task.residence_at) in >> value;
      }
      good = good && static_cast<bool>(in);
    }
    std::string rest;
    if (!good || (in >> rest)) fail("line " + std::to_string(number) + " is not a record");
    records_[{system, regime}] = std::move(reference);
  }

  std::string path_;
  std::map<std::pair<int, int>, Reference> records_;
};

}  // namespace bench
