// What the tests of the performance database share (store_test.cpp, store_crash_test.cpp): a run with
// every chain of length 2 and 3, comparisons, a fixture with a fresh folder, and a raw SQLite connection.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "augur/coupling.hpp"
#include "core/files.hpp"
#include "store/store.hpp"

namespace store_test {

using MeasuredRun = augur::coupling::Run;
using augur::coupling::Timing;
using augur::store::ErrorKind;
using augur::store::OpenMode;
using augur::store::StoreError;

inline augur::coupling::Machine test_machine(const std::string& hostname = "node1",
                                             const std::string& cpu = "Test CPU 3000") {
  augur::coupling::Machine machine;
  machine.hostname = hostname;
  machine.cpu_model = cpu;
  machine.cores = 2;
  machine.l1d_bytes = 32768;
  machine.l2_bytes = 1048576;
  machine.l3_bytes = 33554432;
  machine.memory_bytes = 25769803776;
  return machine;
}

inline Timing timing(double seconds, std::vector<double> samples, std::int64_t repetitions = 1) {
  Timing result;
  result.seconds = seconds;
  result.ci_low = seconds * 0.9;
  result.ci_high = seconds * 1.1 + 1e-17;
  result.samples = std::move(samples);
  result.repetitions = repetitions;
  return result;
}

// Four kernels, alone, in every chain of length 2 and 3, and the whole loop.
inline MeasuredRun test_run(const std::string& application = "sp", const std::string& dataset = "W", int threads = 2,
                            const std::string& started = "2024-05-01T10:00:00Z") {
  MeasuredRun run;
  run.application = application;
  run.dataset = dataset;
  run.problem_size = 36.0 * 36 * 36;
  run.footprint_bytes = 1.0 / 3.0 * 1e7;
  run.iterations = 400;
  run.threads = threads;
  run.ranks = 1;
  run.machine = test_machine();
  run.started = started;
  run.options = {{"samples", "7"}, {"min_time", "0.2"}, {"note", "comma, \"quote\""}};
  run.kernels = {{"copy_faces", 1}, {"txinvr", 1}, {"x_solve", 2}, {"add", 1}};
  const double alone[] = {0.1 / 3, 0.0123456789, 0.25, 1e-7};
  for (int kernel = 0; kernel < 4; ++kernel) {
    run.chains.push_back(
        {{kernel}, timing(alone[kernel], {alone[kernel], alone[kernel] * 1.01, alone[kernel] * 0.99}, 1000)});
  }
  for (int length = 2; length <= 3; ++length) {
    for (int first = 0; first < 4; ++first) {
      const auto chain = augur::coupling::cyclic_chain(first, length, 4);
      double sum = 0;
      for (const int kernel : chain) sum += alone[kernel];
      run.chains.push_back({chain, timing(sum * (0.9 + 0.01 * first + 0.02 * length), {sum}, 100 + first)});
    }
  }
  run.loop = timing(123.456789, {123.456789, 124.0, 122.5, 123.0, 125.1, 121.9});
  return run;
}

inline void expect_equal(const Timing& actual, const Timing& expected, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(actual.seconds, expected.seconds);
  EXPECT_EQ(actual.ci_low, expected.ci_low);
  EXPECT_EQ(actual.ci_high, expected.ci_high);
  EXPECT_EQ(actual.samples, expected.samples);
  EXPECT_EQ(actual.repetitions, expected.repetitions);
}

inline void expect_equal(const MeasuredRun& actual, const MeasuredRun& expected) {
  EXPECT_EQ(actual.application, expected.application);
  EXPECT_EQ(actual.dataset, expected.dataset);
  EXPECT_EQ(actual.problem_size, expected.problem_size);
  EXPECT_EQ(actual.footprint_bytes, expected.footprint_bytes);
  EXPECT_EQ(actual.iterations, expected.iterations);
  EXPECT_EQ(actual.threads, expected.threads);
  EXPECT_EQ(actual.ranks, expected.ranks);
  EXPECT_EQ(actual.machine.hostname, expected.machine.hostname);
  EXPECT_EQ(actual.machine.cpu_model, expected.machine.cpu_model);
  EXPECT_EQ(actual.machine.cores, expected.machine.cores);
  EXPECT_EQ(actual.machine.l1d_bytes, expected.machine.l1d_bytes);
  EXPECT_EQ(actual.machine.l2_bytes, expected.machine.l2_bytes);
  EXPECT_EQ(actual.machine.l3_bytes, expected.machine.l3_bytes);
  EXPECT_EQ(actual.machine.memory_bytes, expected.machine.memory_bytes);
  EXPECT_EQ(actual.started, expected.started);
  EXPECT_EQ(actual.options, expected.options);
  ASSERT_EQ(actual.kernels.size(), expected.kernels.size());
  for (std::size_t index = 0; index < expected.kernels.size(); ++index) {
    EXPECT_EQ(actual.kernels[index].name, expected.kernels[index].name);
    EXPECT_EQ(actual.kernels[index].calls, expected.kernels[index].calls);
  }
  ASSERT_EQ(actual.chains.size(), expected.chains.size());
  for (std::size_t index = 0; index < expected.chains.size(); ++index) {
    EXPECT_EQ(actual.chains[index].first, expected.chains[index].first);
    expect_equal(actual.chains[index].second, expected.chains[index].second, "chain " + std::to_string(index));
  }
  ASSERT_EQ(actual.loop.has_value(), expected.loop.has_value());
  if (expected.loop) expect_equal(*actual.loop, *expected.loop, "loop");
}

inline std::int64_t rows_of(augur::store::PerformanceStore& database, const std::string& table) {
  for (const auto& [name, rows] : database.counts()) {
    if (name == table) return rows;
  }
  ADD_FAILURE() << "no table " << table;
  return -1;
}

class StoreTest : public ::testing::Test {
 protected:
  augur::core::TemporaryFolder folder{"augur-store-test"};
  [[nodiscard]] std::string path(const std::string& name = "performance.db") const {
    return (folder.path() / name).string();
  }
};

// Runs SQL on the file through a connection of its own; returns that connection (closed by the caller).
inline sqlite3* raw_connection(const std::string& path) {
  sqlite3* database = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &database), SQLITE_OK);
  return database;
}

inline void raw_execute(sqlite3* database, const std::string& sql) {
  char* message = nullptr;
  const int code = sqlite3_exec(database, sql.c_str(), nullptr, nullptr, &message);
  EXPECT_EQ(code, SQLITE_OK) << (message != nullptr ? message : "");
  sqlite3_free(message);
}

// Expects `action` to throw a StoreError of `kind` whose message names `file`.
template <typename Action>
inline void expect_store_error(Action action, ErrorKind kind, const std::string& file,
                               const std::string& fragment = "") {
  try {
    action();
    ADD_FAILURE() << "no StoreError";
  } catch (const StoreError& error) {
    EXPECT_EQ(static_cast<int>(error.kind()), static_cast<int>(kind)) << error.what();
    EXPECT_NE(std::string(error.what()).find(file), std::string::npos) << error.what();
    if (!fragment.empty()) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    }
  }
}

}  // namespace store_test
