// The performance database: round trips, filters, deletion, the exported tables (schema migrations, bad and
// locked files: store_open_test.cpp).
#include "store/store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/files.hpp"
#include "augur/coupling.hpp"
#include "store_test_support.hpp"

namespace {

using namespace store_test;  // MeasuredRun, test_run, StoreTest, raw_connection, expect_store_error, ...

TEST_F(StoreTest, RoundTripGivesTheRunThatWasStored) {
  const MeasuredRun run = test_run();
  MeasuredRun without_loop = test_run("sp", "A", 1, "2024-05-02T08:00:00Z");
  without_loop.loop.reset();
  without_loop.options.clear();
  without_loop.started.clear();
  std::int64_t first = 0;
  std::int64_t second = 0;
  {
    auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
    first = database->add_run(run, "/data/sp-W.coupling.jsonl");
    second = database->add_run(without_loop);
    EXPECT_NE(first, second);
  }
  auto database = augur::store::open_store(path(), OpenMode::ReadOnly);
  const auto runs = database->load_runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].id, first);
  EXPECT_EQ(runs[0].source, "/data/sp-W.coupling.jsonl");
  EXPECT_FALSE(runs[0].added.empty());
  expect_equal(runs[0].run, run);
  EXPECT_EQ(runs[1].id, second);
  EXPECT_EQ(runs[1].source, "");
  expect_equal(runs[1].run, without_loop);
  const auto one = database->load_run(second);
  ASSERT_TRUE(one.has_value());
  expect_equal(one->run, without_loop);
  EXPECT_FALSE(database->load_run(second + 100).has_value());
}

TEST_F(StoreTest, RoundTripThroughTheMeasurementFile) {
  const MeasuredRun run = test_run();
  const MeasuredRun read = augur::coupling::read_run(augur::coupling::write_run(run), "sp.coupling.jsonl");
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  const std::int64_t id = database->add_run(read, "sp.coupling.jsonl");
  const auto loaded = database->load_run(id);
  ASSERT_TRUE(loaded.has_value());
  expect_equal(loaded->run, read);
  EXPECT_EQ(augur::coupling::write_run(loaded->run), augur::coupling::write_run(read));
}

TEST_F(StoreTest, CouplingValuesOfEveryCompleteLengthAreStored) {
  const MeasuredRun run = test_run();
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  database->add_run(run);
  const augur::store::Table table = database->export_table("couplings");
  ASSERT_EQ(table.columns, (std::vector<std::string>{"id", "run_id", "chain", "kernels", "length", "value",
                                                     "chain_seconds", "sum_alone_seconds"}));
  std::size_t row = 0;
  for (const int length : run.complete_lengths()) {
    for (const auto& expected : augur::coupling::couplings(run, length)) {
      ASSERT_LT(row, table.rows.size());
      const auto& values = table.rows[row++];
      std::string chain;
      for (const int kernel : expected.chain) chain += (chain.empty() ? "" : ",") + std::to_string(kernel);
      EXPECT_EQ(std::get<std::string>(values[2]), chain);
      EXPECT_EQ(std::get<std::int64_t>(values[4]), length);
      EXPECT_EQ(std::get<double>(values[5]), expected.value);
      EXPECT_EQ(std::get<double>(values[6]), expected.time);
      EXPECT_EQ(std::get<double>(values[7]), expected.sum_alone);
    }
  }
  EXPECT_EQ(row, table.rows.size());
  EXPECT_EQ(row, 8u);  // lengths 2 and 3 of a 4-kernel loop
  EXPECT_EQ(std::get<std::string>(table.rows[0][3]), "copy_faces→txinvr");
}

TEST_F(StoreTest, AddingSeveralRunsIsAllOrNothing) {
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  database->add_run(test_run());
  MeasuredRun other_kernels = test_run("sp", "B", 2, "2024-05-03T00:00:00Z");
  other_kernels.kernels[2].calls = 3;
  expect_store_error(
      [&] {
        database->add_runs({{test_run("sp", "C"), "c"}, {other_kernels, "b"}});
      },
      ErrorKind::Invalid, path(), "x_solve ×2");
  expect_store_error(
      [&] {
        database->add_runs({{test_run("bt", "C"), "c"}, {test_run(), "again"}});
      },
      ErrorKind::Duplicate, path(), "already stored as run 1");
  EXPECT_EQ(database->load_runs().size(), 1u);
  EXPECT_EQ(database->applications().size(), 1u);  // "bt" rolled back too
  EXPECT_EQ(rows_of(*database, "measurements"), static_cast<std::int64_t>(test_run().chains.size()));
  EXPECT_EQ(rows_of(*database, "runs"), 1);
  EXPECT_EQ(rows_of(*database, "datasets"), 1);
  // A run with no start time is never taken for a duplicate.
  MeasuredRun unstamped = test_run();
  unstamped.started.clear();
  database->add_run(unstamped);
  database->add_run(unstamped);
  EXPECT_EQ(database->load_runs().size(), 3u);
}

TEST_F(StoreTest, RunsThatCannotBeStoredAreRefused) {
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  MeasuredRun twice = test_run();
  twice.chains.push_back(twice.chains.front());
  expect_store_error([&] { database->add_run(twice, "twice.jsonl"); }, ErrorKind::Invalid, path(),
                     "from twice.jsonl: chain 0 is measured twice");
  MeasuredRun outside = test_run();
  outside.chains.push_back({{1, 9}, timing(1.0, {})});
  expect_store_error([&] { database->add_run(outside); }, ErrorKind::Invalid, path(), "outside 0..3");
  MeasuredRun nameless = test_run("");
  expect_store_error([&] { database->add_run(nameless); }, ErrorKind::Invalid, path(), "no application");
  EXPECT_TRUE(database->load_runs().empty());
  EXPECT_TRUE(database->applications().empty());
}

TEST_F(StoreTest, AnApplicationWithoutRunsTakesNewKernels) {
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  const std::int64_t id = database->add_run(test_run());
  MeasuredRun changed = test_run("sp", "W", 2, "2024-06-01T00:00:00Z");
  changed.kernels[3].name = "add_all";
  expect_store_error([&] { database->add_run(changed); }, ErrorKind::Invalid, path(), "delete the 1 stored runs");
  ASSERT_TRUE(database->delete_run(id));
  const std::int64_t again = database->add_run(changed);
  expect_equal(database->load_run(again)->run, changed);
  EXPECT_EQ(database->kernels("sp").back().name, "add_all");
}

TEST_F(StoreTest, FiltersSelectRuns) {
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  MeasuredRun other_machine = test_run("sp", "W", 2, "2024-05-05T00:00:00Z");
  other_machine.machine = test_machine("node9", "Other CPU");
  database->add_runs({{test_run("sp", "W", 1), ""},
                      {test_run("sp", "W", 2), ""},
                      {test_run("sp", "A", 2), ""},
                      {test_run("bt", "W", 1), ""},
                      {other_machine, ""}});
  const auto count = [&](const augur::store::RunFilter& filter) {
    const auto loaded = database->load_runs(filter);
    EXPECT_EQ(loaded.size(), database->runs(filter).size());
    return loaded.size();
  };
  EXPECT_EQ(count({}), 5u);
  EXPECT_EQ(count({"sp", "", "", std::nullopt}), 4u);
  EXPECT_EQ(count({"bt", "", "", std::nullopt}), 1u);
  EXPECT_EQ(count({"", "", "A", std::nullopt}), 1u);
  EXPECT_EQ(count({"", "", "", 2}), 3u);
  EXPECT_EQ(count({"sp", "", "W", 2}), 2u);
  EXPECT_EQ(count({"", test_machine().machine_class(), "", std::nullopt}), 4u);
  EXPECT_EQ(count({"", other_machine.machine.machine_class(), "", std::nullopt}), 1u);
  EXPECT_EQ(count({"lu", "", "", std::nullopt}), 0u);
  const auto two = database->load_runs({"sp", "", "W", 2});
  expect_equal(two[0].run, test_run("sp", "W", 2));
  EXPECT_EQ(database->machines().size(), 2u);
  EXPECT_EQ(database->machines()[0].runs, 4);
  const auto applications = database->applications();
  ASSERT_EQ(applications.size(), 2u);
  EXPECT_EQ(applications[0].name, "bt");
  EXPECT_EQ(applications[1].name, "sp");
  EXPECT_EQ(applications[1].runs, 4);
  EXPECT_EQ(applications[1].datasets, 2);
  EXPECT_EQ(applications[1].kernels, 4);
  EXPECT_EQ(database->kernels().size(), 8u);
  EXPECT_EQ(database->kernels("sp").size(), 4u);
  const auto summaries = database->runs({"sp", "", "A", std::nullopt});
  ASSERT_EQ(summaries.size(), 1u);
  EXPECT_EQ(summaries[0].processors, 2);
  EXPECT_EQ(summaries[0].measurements, 12);
  EXPECT_EQ(summaries[0].couplings, 8);
  ASSERT_TRUE(summaries[0].loop_seconds.has_value());
  EXPECT_EQ(*summaries[0].loop_seconds, 123.456789);
}

TEST_F(StoreTest, DeletingARunRemovesItsMeasurementsAndCouplings) {
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  const std::int64_t first = database->add_run(test_run("sp", "W"));
  const std::int64_t second = database->add_run(test_run("sp", "A"));
  // What it returns is the run it deleted, as its transaction found it.
  const std::optional<augur::store::RunSummary> deleted = database->delete_run(first);
  ASSERT_TRUE(deleted.has_value());
  EXPECT_EQ(deleted->id, first);
  EXPECT_EQ(deleted->application, "sp");
  EXPECT_EQ(deleted->dataset, "W");
  EXPECT_EQ(deleted->processors, 2);
  EXPECT_EQ(deleted->measurements, 12);
  EXPECT_FALSE(database->delete_run(first));
  EXPECT_FALSE(database->delete_run(999));
  const auto runs = database->load_runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].id, second);
  EXPECT_EQ(rows_of(*database, "measurements"), 12);
  EXPECT_EQ(rows_of(*database, "couplings"), 8);
  EXPECT_EQ(rows_of(*database, "runs"), 1);
  EXPECT_EQ(rows_of(*database, "machines"), 1);
  EXPECT_EQ(rows_of(*database, "applications"), 1);
  EXPECT_EQ(rows_of(*database, "datasets"), 2);  // datasets stay
  EXPECT_TRUE(database->check_integrity().empty());
}

TEST(StoreFormats, CsvQuotesWhatNeedsQuoting) {
  augur::store::Table table;
  table.columns = {"id", "name", "value", "note"};
  table.rows.push_back({std::int64_t{1}, std::string("plain"), 0.1, std::monostate{}});
  table.rows.push_back({std::int64_t{-2}, std::string("a,b"), 1e-300, std::string("say \"hi\"")});
  table.rows.push_back({std::int64_t{3}, std::string("two\nlines"), 123456789.0, std::string(" padded ")});
  table.rows.push_back({std::int64_t{4}, std::string(""), 1.0 / 3.0, std::string("crlf\r\n")});
  EXPECT_EQ(augur::store::to_csv(table),
            "id,name,value,note\r\n"
            "1,plain,0.1,\r\n"
            "-2,\"a,b\",1e-300,\"say \"\"hi\"\"\"\r\n"
            "3,\"two\nlines\",123456789,\" padded \"\r\n"
            "4,,0.3333333333333333,\"crlf\r\n\"\r\n");
}

TEST(StoreFormats, JsonKeepsTypesAndEmbedsJsonColumns) {
  augur::store::Table table;
  table.columns = {"id", "samples", "name", "missing"};
  table.json_columns = {"samples"};
  table.rows.push_back({std::int64_t{1}, std::string("[1.5,2]"), std::string("[not json]"), std::monostate{}});
  const auto json = nlohmann::json::parse(augur::store::to_json(table));
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json[0]["id"], 1);
  EXPECT_EQ(json[0]["samples"], nlohmann::json::parse("[1.5,2]"));
  EXPECT_EQ(json[0]["name"], "[not json]");
  EXPECT_TRUE(json[0]["missing"].is_null());
}

TEST_F(StoreTest, ExportedTablesQuoteNamesAndEmbedSamples) {
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  database->add_run(test_run("sp, \"class W\""), "/runs/a,b.jsonl");
  const std::string applications = augur::store::to_csv(database->export_table("applications"));
  EXPECT_EQ(applications, "id,name\r\n1,\"sp, \"\"class W\"\"\"\r\n");
  const auto runs = nlohmann::json::parse(augur::store::to_json(database->export_table("runs")));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["application"], "sp, \"class W\"");
  EXPECT_EQ(runs[0]["options"]["samples"], "7");
  EXPECT_EQ(runs[0]["application_samples"].size(), 6u);
  EXPECT_EQ(runs[0]["source"], "/runs/a,b.jsonl");
  EXPECT_EQ(runs[0]["processors"], 2);
  for (const std::string& name : augur::store::table_names()) {
    EXPECT_FALSE(database->export_table(name).columns.empty()) << name;
  }
  expect_store_error([&] { (void)database->export_table("sqlite_master"); }, ErrorKind::Invalid, path(), "no table");
}

TEST(StorePath, DefaultPathFollowsTheEnvironment) {
  const auto saved = [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value == nullptr ? std::nullopt : std::optional<std::string>(value);
  };
  const auto restore = [](const char* name, const std::optional<std::string>& value) {
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  };
  const auto augur_db = saved("AUGUR_DB");
  const auto xdg = saved("XDG_DATA_HOME");
  const auto home = saved("HOME");
  ::setenv("AUGUR_DB", "/somewhere/perf.db", 1);
  EXPECT_EQ(augur::store::default_store_path(), "/somewhere/perf.db");
  ::setenv("AUGUR_DB", "", 1);
  ::setenv("XDG_DATA_HOME", "/xdg", 1);
  EXPECT_EQ(augur::store::default_store_path(), "/xdg/augur/performance.db");
  ::unsetenv("XDG_DATA_HOME");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(augur::store::default_store_path(), "/home/someone/.local/share/augur/performance.db");
  ::unsetenv("HOME");
  EXPECT_THROW((void)augur::store::default_store_path(), StoreError);
  restore("AUGUR_DB", augur_db);
  restore("XDG_DATA_HOME", xdg);
  restore("HOME", home);
}

}  // namespace

TEST_F(StoreTest, AddedRunsAreCountedAndTheStoreDescribed) {
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  const std::int64_t earlier = database->add_run(test_run("bt", "W", 1));
  const std::vector<std::pair<MeasuredRun, std::string>> runs = {{test_run("sp", "W", 2), "a.jsonl"},
                                                                 {test_run("sp", "A", 4), "b.jsonl"}};
  const std::vector<augur::store::AddedRun> added = database->add_runs(runs);
  ASSERT_EQ(added.size(), 2u);
  EXPECT_GT(added[0].id, earlier);
  EXPECT_GT(added[1].id, added[0].id);
  const auto summaries = database->runs();
  for (const augur::store::AddedRun& run : added) {
    for (const augur::store::RunSummary& summary : summaries) {
      if (summary.id == run.id) {
        EXPECT_EQ(run.couplings, summary.couplings);
      }
    }
    EXPECT_GT(run.couplings, 0);
  }
  // A run already stored: nothing of the batch is stored.
  EXPECT_THROW((void)database->add_runs({{test_run("sp", "C", 8), ""}, runs[0]}), StoreError);
  EXPECT_EQ(database->runs().size(), 3u);

  const auto only_sp = augur::store::applications_named(*database, "sp");
  ASSERT_EQ(only_sp.size(), 1u);
  EXPECT_EQ(only_sp[0].name, "sp");
  EXPECT_EQ(only_sp[0].runs, 2);
  EXPECT_EQ(augur::store::applications_named(*database, "").size(), 2u);
  EXPECT_TRUE(augur::store::applications_named(*database, "lu").empty());

  const augur::store::StoreDescription description = augur::store::describe_store(*database);
  EXPECT_EQ(description.location, database->location());
  EXPECT_EQ(description.schema_version, augur::store::current_schema_version());
  EXPECT_EQ(description.known_schema_version, augur::store::current_schema_version());
  EXPECT_TRUE(description.problems.empty());
  ASSERT_EQ(description.rows.size(), augur::store::table_names().size());
  for (const auto& [table, count] : description.rows) {
    if (table == "runs") {
      EXPECT_EQ(count, 3);
    }
  }
}
