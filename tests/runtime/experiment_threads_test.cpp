// CALL experiments recorded by short-lived threads (issue 15, item 14: 40,000 threads each doing one
// experiment left 385 MB until exit). A thread's log is handed to the process log at the thread's exit
// and freed: the memory follows the records not yet reported, not the number of threads there were.
// CTest runs each test in a process of its own, so each sets its options before augur's first use.
#include <gtest/gtest.h>
#include <malloc.h>
#include <pthread.h>

#include <cstddef>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "augur/augur.h"
#include "experiment_support.hpp"

namespace {

using augur::test::read_lines;
using augur::test::temporary_path;

// Bytes the C allocator has handed out and not had back (every arena, and the blocks it mapped).
long long heap_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<long long>(info.uordblks + info.hblkhd);
}

struct Job {
  int experiment = 0;
  int instances = 1;
  double value = 0.0;
};

void* record_instances(void* argument) {
  const Job& job = *static_cast<const Job*>(argument);
  for (int instance = 0; instance < job.instances; ++instance) {
    const double values[] = {job.value, static_cast<double>(instance)};
    augur_experiment_begin(job.experiment, values);
    augur_experiment_end(job.experiment);
  }
  return nullptr;
}

// Runs `count` threads one after the other, each recording `instances` instances; the job's value is
// the thread's number.
void run_threads(int experiment, int first, int count, int instances) {
  for (int index = first; index < first + count; ++index) {
    Job job{experiment, instances, static_cast<double>(index)};
    pthread_t thread;
    ASSERT_EQ(pthread_create(&thread, nullptr, record_instances, &job), 0);
    ASSERT_EQ(pthread_join(thread, nullptr), 0);  // the thread's exit handlers have run
  }
}

TEST(ExperimentThreads, TheLogOfAnExitedThreadIsFreed) {
  const std::string path = temporary_path("freed.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  const int experiment = augur_experiment_declare("short", "short[0] + short[1]*N", "N,I");
  ASSERT_GE(experiment, 0);
  run_threads(experiment, 0, 50, 1);  // the allocator's arenas and augur's first use, before measuring
  ASSERT_EQ(augur_experiment_report(nullptr), 50);
  const long long before = heap_in_use();
  if (before == 0) GTEST_SKIP() << "mallinfo2 reports nothing here (a sanitizer's allocator)";

  constexpr int waves = 4;
  constexpr int threads_per_wave = 500;
  for (int wave = 0; wave < waves; ++wave) {
    run_threads(experiment, 50 + wave * threads_per_wave, threads_per_wave, 1);
    EXPECT_EQ(augur_experiment_report(nullptr), threads_per_wave);
  }
  // Every record was written; what the threads' logs held is back with the allocator. With a log kept
  // per exited thread (before issue 15) the heap grew by 78 MB here.
  const long long growth = heap_in_use() - before;
  EXPECT_LT(growth, 16LL << 20) << "the heap grew by " << growth << " bytes over " << waves * threads_per_wave
                                << " threads of one instance each";
  EXPECT_EQ(read_lines(path).size(), 1U + 50U + waves * threads_per_wave);
}

TEST(ExperimentThreads, RecordsOfExitedThreadsKeepTheirValuesUntilReported) {
  const std::string path = temporary_path("kept.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  const int experiment = augur_experiment_declare("kept", "kept[0] + kept[1]*N", "N,I");
  ASSERT_GE(experiment, 0);
  constexpr int threads = 20;
  constexpr int instances = 3;
  run_threads(experiment, 0, threads, instances);
  // Recorded on this thread too, before and after: its log lives on beside the process log.
  Job own{experiment, 2, 100.0};
  record_instances(&own);
  ASSERT_EQ(augur_experiment_report("kept"), threads * instances + 2);
  EXPECT_EQ(augur_experiment_report(nullptr), 0);  // nothing left anywhere

  std::map<int, std::vector<int>> instances_by_thread;
  const std::vector<nlohmann::json> lines = read_lines(path);
  ASSERT_EQ(lines.size(), 1U + threads * instances + 2);
  for (std::size_t index = 1; index < lines.size(); ++index) {
    const nlohmann::json& variables = lines[index]["variables"];
    instances_by_thread[variables["N"].get<int>()].push_back(variables["I"].get<int>());
  }
  ASSERT_EQ(instances_by_thread.size(), static_cast<std::size_t>(threads + 1));
  for (int thread = 0; thread < threads; ++thread) {
    EXPECT_EQ(instances_by_thread[thread], (std::vector<int>{0, 1, 2})) << "thread " << thread;
  }
  EXPECT_EQ(instances_by_thread[100], (std::vector<int>{0, 1}));
}

}  // namespace
