// The manager workload reader and the speedup JSON reader (src/manager/workload.hpp): the input is read as a
// workload whose speedup files are the input itself, and as speedup JSON. A workload that parses has its jobs
// in order of arrival, positive work and speedups that are positive and finite; a small one is simulated
// under a policy the input picks, and its outcome must be sane (responses >= 0, utilization <= 1).
#include <cmath>

#include "augur/core/diagnostics.hpp"
#include "fuzz_common.hpp"
#include "manager/simulate.hpp"
#include "manager/workload.hpp"

namespace {

using namespace augur::manager;

void check_curve(const SpeedupCurve& curve, const std::string& text) {
  for (int processors = 1; processors <= 300; processors += 7) {
    const double speedup = curve.at(processors);
    augur::fuzz::expect(std::isfinite(speedup) && speedup > 0.0, "a speedup not positive and finite", text);
  }
}

void simulate_small(const Workload& workload, std::size_t size, const std::string& text) {
  double total = 0.0;
  for (const WorkloadJob& job : workload.jobs) {
    if (job.arrival > 500.0) return;
    total += job.work;
  }
  if (workload.jobs.size() > 20 || total > 50.0) return;
  SimulationOptions options;
  const auto& policies = all_policies();
  options.policy.policy = policies[size % policies.size()];
  options.policy.cpus = static_cast<int>(1 + size % 17);
  options.policy.multiprogramming_level = static_cast<int>(size % 3);
  const SimulationResult result = simulate(workload, options);
  for (const JobOutcome& job : result.jobs) {
    augur::fuzz::expect(job.response_time >= 0.0 && job.finish >= job.start, "a job that ends before it starts", text);
  }
  augur::fuzz::expect(result.utilization <= 1.0 + 1e-9, "a utilization above 1", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > augur::fuzz::max_input) return 0;
  const std::string text = augur::fuzz::text_of(data, size);
  try {
    const Workload workload = parse_workload(text, "input.workload", [&](const std::string&) { return text; });
    for (std::size_t index = 0; index < workload.jobs.size(); ++index) {
      const WorkloadJob& job = workload.jobs[index];
      augur::fuzz::expect(job.work > 0.0 && job.arrival >= 0.0, "a job with no work or a negative arrival", text);
      if (index > 0) augur::fuzz::expect(workload.jobs[index - 1].arrival <= job.arrival, "jobs out of order", text);
      if (index < 8) check_curve(job.curve, text);
    }
    simulate_small(workload, size, text);
  } catch (const augur::core::InputError&) {
  }
  try {
    check_curve(parse_speedup_json(text, "input.json"), text);
  } catch (const augur::core::InputError&) {
  }
  return 0;
}
