// --csv of augur fit, predict, speedup and couple report (docs/cli.md): one header row, full precision, names
// quoted as RFC 4180 says. The values are checked against numbers known by construction: measurements that
// follow a formula exactly, the hand-written coupling file of docs/db.md, TS = region time(1) / region time(p).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"
#include "support/self_analysis_runs.hpp"

namespace {

using augur::core::ProcessResult;
using augur::core::run_process;
using augur::e2e::describe;
using Rows = std::vector<std::vector<std::string>>;

const std::string augur_exe = AUGUR_EXE;

// An RFC 4180 reader written for the test: quoted fields with doubled quotes, one record per line (the
// outputs hold no line break inside a field).
Rows parse_csv(const std::string& text) {
  Rows rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(field), field.clear();
    } else if (c == '\n') {
      row.push_back(field), field.clear();
      rows.push_back(row), row.clear();
    } else {
      field += c;
    }
  }
  EXPECT_TRUE(field.empty() && row.empty() && !quoted) << "the last record has no line break:\n" << text;
  return rows;
}

Rows run_csv(const std::vector<std::string>& argv, std::size_t columns) {
  const ProcessResult result = run_process(argv, augur::test::clean_environment());
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  Rows rows = parse_csv(result.standard_output);
  for (const auto& row : rows) EXPECT_EQ(row.size(), columns) << result.standard_output;
  return rows;
}

double number(const std::string& text) { return std::stod(text); }

// time = 3 + 2n + 5m on n, m in 1..3, in a region whose name needs quoting.
std::string linear_data(const augur::e2e::TemporaryDirectory& folder) {
  std::string text = "{\"augur\":\"experiments\",\"version\":1}\n";
  for (int n = 1; n <= 3; ++n) {
    for (int m = 1; m <= 3; ++m) {
      text += "{\"experiment\":\"solve, \\\"inner\\\"\",\"variables\":{\"n\":" + std::to_string(n) + ",\"m\":" + std::to_string(m) +
              "},\"time\":" + std::to_string(3 + 2 * n + 5 * m) + "}\n";
    }
  }
  const std::string path = folder.file("linear.jsonl");
  augur::e2e::write_text(path, text);
  return path;
}

TEST(CsvOutput, FitGivesOneLinePerConstant) {
  augur::e2e::TemporaryDirectory folder;
  const Rows rows = run_csv({augur_exe, "fit", linear_data(folder), "--formula", "c[0] + c[1]*n + c[2]*m", "--csv"}, 9);
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"region", "metric", "segment", "formula", "constant", "value", "std_error", "r2", "smape_percent"}));
  const double expected[] = {3.0, 2.0, 5.0};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::vector<std::string>& row = rows[i + 1];
    EXPECT_EQ(row[0], "solve, \"inner\"");
    EXPECT_EQ(row[1], "time");
    EXPECT_EQ(row[2], "1");
    EXPECT_EQ(row[4], "c[" + std::to_string(i) + "]");
    EXPECT_NEAR(number(row[5]), expected[i], 1e-9);
    EXPECT_NEAR(number(row[7]), 1.0, 1e-12);
  }
}

TEST(CsvOutput, PredictGivesOneLinePerPoint) {
  augur::e2e::TemporaryDirectory folder;
  const Rows rows = run_csv({augur_exe, "predict", linear_data(folder), "--formula", "c[0] + c[1]*n + c[2]*m", "--at", "n=10,m=1",
                             "--at", "n=2,m=2", "--csv"}, 10);
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"region", "metric", "at", "predicted", "lower", "upper", "confidence", "segment", "measured",
                                               "error_percent"}));
  EXPECT_EQ(rows[1][0], "solve, \"inner\"");
  EXPECT_EQ(rows[1][2], "m=1,n=10");
  EXPECT_NEAR(number(rows[1][3]), 3 + 2 * 10 + 5 * 1, 1e-9);
  EXPECT_EQ(rows[1][6], "0.95");
  EXPECT_EQ(rows[1][8], "");  // nothing measured there
  EXPECT_EQ(rows[1][9], "");
  EXPECT_NEAR(number(rows[2][3]), 3 + 2 * 2 + 5 * 2, 1e-9);
  EXPECT_NEAR(number(rows[2][8]), 17.0, 1e-12);
  EXPECT_NEAR(number(rows[2][9]), 0.0, 1e-6);
}

// docs/db.md's hand-written run: C(a→b) = 2.625 / 3, C(b→c) = 5.5 / 5, C(c→a) = 4.2 / 4; summation
// 10·1 + 20·2 + 10·3 = 80 s, as measured.
TEST(CsvOutput, CoupleReportGivesOneLinePerChainOrRun) {
  const std::string toy = std::string(AUGUR_EXAMPLES_DIR) + "/db/toy-S.coupling.jsonl";
  const Rows chains = run_csv({augur_exe, "couple", "report", toy, "--csv"}, 6);
  ASSERT_EQ(chains.size(), 4U);
  EXPECT_EQ(chains[0], (std::vector<std::string>{"source", "length", "chain", "seconds", "sum_alone", "coupling"}));
  const char* names[] = {"a→b", "b→c", "c→a"};
  const double sums[] = {3.0, 5.0, 4.0};
  const double seconds[] = {2.625, 5.5, 4.2};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(chains[i + 1][0], toy);
    EXPECT_EQ(chains[i + 1][1], "2");
    EXPECT_EQ(chains[i + 1][2], names[i]);
    EXPECT_EQ(number(chains[i + 1][3]), seconds[i]);
    EXPECT_EQ(number(chains[i + 1][4]), sums[i]);
    EXPECT_NEAR(number(chains[i + 1][5]), seconds[i] / sums[i], 1e-15);
  }
  const Rows summary = run_csv({augur_exe, "couple", "report", toy, "--summary", "--csv"}, 11);
  ASSERT_EQ(summary.size(), 2U);
  EXPECT_EQ(summary[1][1], "toy");
  EXPECT_EQ(summary[1][2], "S");
  EXPECT_EQ(summary[1][3], "2");
  EXPECT_EQ(number(summary[1][4]), 80.0);
  EXPECT_NEAR(number(summary[1][5]), 80.0, 1e-12);
  EXPECT_NEAR(number(summary[1][6]), 0.0, 1e-12);
  EXPECT_EQ(summary[1][7], "2");
}

// TS = region time at 1 thread / region time at p, from the same lines at full precision.
TEST(CsvOutput, SpeedupGivesOneLinePerThreadCount) {
  const Rows rows = run_csv({augur_exe, "speedup", "--max-threads", "2", "--repeat", "1", "--quiet", "--csv", "--", AUGUR_SWIM_PLAIN_EXE,
                             "256", "200"},
                            18);
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows[0][0], "p");
  EXPECT_EQ(rows[0][2], "region_time_s");
  EXPECT_EQ(rows[0][4], "ts");
  EXPECT_EQ(rows[1][0], "1");
  EXPECT_EQ(rows[2][0], "2");
  EXPECT_EQ(number(rows[1][4]), 1.0);
  EXPECT_NEAR(number(rows[2][4]), number(rows[1][2]) / number(rows[2][2]), 1e-12 * number(rows[2][4]));
  EXPECT_EQ(run_process({augur_exe, "speedup", "--csv", "--json", "--", AUGUR_SWIM_PLAIN_EXE}).exit_code, 2);  // one or the other
}

}  // namespace
