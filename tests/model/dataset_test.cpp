#include "model/dataset.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace augur::model {
namespace {

const std::string data_directory = AUGUR_MODEL_DATA_DIR;

// The diagnostic of the InputError that parsing `text` raises, or "no error".
std::string error_of(const std::string& file, const std::string& text, const ReadOptions& options = {}) {
  try {
    (void)parse_dataset(file, text, options);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

using Values = std::vector<double>;
using Names = std::vector<std::string>;

TEST(Dataset, ReadsCsvWithRegionsRepetitionsQuotesAndComments) {
  const Dataset dataset = read_dataset(data_directory + "/fft.csv");
  EXPECT_EQ(dataset.file, data_directory + "/fft.csv");
  ASSERT_EQ(dataset.series.size(), 2u);
  const Series& fft = dataset.series[0];
  EXPECT_EQ(fft.region, "fft");
  EXPECT_EQ(fft.metric, "time");
  EXPECT_EQ(fft.parameters, (Names{"N", "P"}));
  EXPECT_EQ(fft.formula, "");
  EXPECT_EQ(fft.origin.line, 3);
  EXPECT_EQ(fft.origin.column, 1);
  ASSERT_EQ(fft.measurements.size(), 3u);
  EXPECT_EQ(fft.measurements[0].point, (Values{1024, 1}));
  EXPECT_EQ(fft.measurements[0].values, (Values{0.04, 0.042, 0.041}));
  EXPECT_EQ(fft.measurements[1].point, (Values{1024, 2}));
  EXPECT_EQ(fft.measurements[1].values, (Values{0.021}));
  EXPECT_EQ(fft.measurements[2].point, (Values{2048, 1}));
  EXPECT_EQ(fft.measurements[2].values, (Values{0.085}));
  const Series& transpose = dataset.series[1];
  EXPECT_EQ(transpose.region, "transpose, all-to-all");
  EXPECT_EQ(transpose.origin.line, 8);
  ASSERT_EQ(transpose.measurements.size(), 1u);
  EXPECT_EQ(transpose.measurements[0].point, (Values{1024, 2}));
  EXPECT_EQ(transpose.measurements[0].values, (Values{0.0031}));
}

TEST(Dataset, CsvDefaultColumns) {
  // "value" is preferred to "time"; without a region column the region is "main"; the metric is the value's name.
  Dataset dataset = parse_dataset("x.csv", "n,time,value\n1,2,3\n");
  ASSERT_EQ(dataset.series.size(), 1u);
  EXPECT_EQ(dataset.series[0].region, "main");
  EXPECT_EQ(dataset.series[0].metric, "value");
  EXPECT_EQ(dataset.series[0].parameters, (Names{"n", "time"}));
  EXPECT_EQ(dataset.series[0].measurements[0].values, (Values{3}));

  dataset = parse_dataset("x.csv", "n,TIME,q\n1,2,3\n");
  EXPECT_EQ(dataset.series[0].metric, "TIME");
  EXPECT_EQ(dataset.series[0].parameters, (Names{"n", "q"}));
  EXPECT_EQ(dataset.series[0].measurements[0].point, (Values{1, 3}));

  // Otherwise the last column that is not region, metric or repetition.
  dataset = parse_dataset("x.csv", "n,p,seconds,Region,Repetition\n1,2,3,a,1\n1,2,4,a,2\n");
  ASSERT_EQ(dataset.series.size(), 1u);
  EXPECT_EQ(dataset.series[0].region, "a");
  EXPECT_EQ(dataset.series[0].metric, "seconds");
  EXPECT_EQ(dataset.series[0].parameters, (Names{"n", "p"}));
  EXPECT_EQ(dataset.series[0].measurements[0].values, (Values{3, 4}));

  // Quoted and padded names, a byte order mark and CRLF line ends.
  dataset = parse_dataset("x.csv", "\xEF\xBB\xBF\"p\" ,\" time \"\r\n4, 1.5\r\n");
  EXPECT_EQ(dataset.series[0].metric, "time");
  EXPECT_EQ(dataset.series[0].parameters, (Names{"p"}));
  EXPECT_EQ(dataset.series[0].measurements[0].point, (Values{4}));
  EXPECT_EQ(dataset.series[0].measurements[0].values, (Values{1.5}));
}

TEST(Dataset, CsvMetricColumnSplitsSeries) {
  const Dataset dataset = parse_dataset("x.csv", "metric,n,value\ntime,1,2\nbytes,1,100\ntime,1,3\ntime,2,5\n");
  ASSERT_EQ(dataset.series.size(), 2u);
  EXPECT_EQ(dataset.series[0].metric, "time");
  EXPECT_EQ(dataset.series[0].origin.line, 2);
  ASSERT_EQ(dataset.series[0].measurements.size(), 2u);
  EXPECT_EQ(dataset.series[0].measurements[0].values, (Values{2, 3}));
  EXPECT_EQ(dataset.series[0].measurements[1].point, (Values{2}));
  EXPECT_EQ(dataset.series[1].metric, "bytes");
  EXPECT_EQ(dataset.series[1].origin.line, 3);
  EXPECT_EQ(dataset.series[1].measurements[0].values, (Values{100}));
}

TEST(Dataset, CsvOptionsChooseValueAndParameterColumns) {
  ReadOptions options;
  options.value_column = "b";
  options.parameter_columns = {"c"};
  const Dataset dataset = parse_dataset("x.csv", "a,b,c,time\nx,2,3,4\n", options);
  EXPECT_EQ(dataset.series[0].metric, "b");
  EXPECT_EQ(dataset.series[0].parameters, (Names{"c"}));
  EXPECT_EQ(dataset.series[0].measurements[0].point, (Values{3}));
  EXPECT_EQ(dataset.series[0].measurements[0].values, (Values{2}));

  EXPECT_EQ(error_of("x.csv", "# c\np,time\n1,2\n", {InputFormat::Csv, "seconds", {}}),
            "x.csv:2:1: no column 'seconds' (the value column) in the header");
  EXPECT_EQ(error_of("x.csv", "p,time\n1,2\n", {InputFormat::Automatic, "", {"q"}}),
            "x.csv:1:1: no column 'q' (a parameter) in the header");
  EXPECT_EQ(error_of("x.csv", "p,time\n1,2\n", {InputFormat::Automatic, "", {"p", "time"}}),
            "x.csv:1:1: column 'time' cannot be both a parameter and the value");
}

TEST(Dataset, CsvReportsBadCellsAtTheirLineAndColumn) {
  EXPECT_EQ(error_of("x.csv", "p,time\n4,abc\n"), "x.csv:2:3: 'abc' is not a number (column 'time')");
  EXPECT_EQ(error_of("x.csv", "p,time\n# comment\n\n4,  inf\n"),
            "x.csv:4:5: 'inf' is not a finite number (column 'time')");
  EXPECT_EQ(error_of("x.csv", "p,time\n4,1e999\n"), "x.csv:2:3: '1e999' is not a finite number (column 'time')");
  EXPECT_EQ(error_of("x.csv", "p,time\n,1\n"), "x.csv:2:1: missing number (column 'p')");
  EXPECT_EQ(error_of("x.csv", "p,time\n4x,1\n"), "x.csv:2:1: '4x' is not a number (column 'p')");
  EXPECT_EQ(error_of("x.csv", "p,time\n+4,1\n"), "x.csv:2:1: '+4' is not a number (column 'p')");
  EXPECT_EQ(error_of("x.csv", "p,time\n4,1,2\n"), "x.csv:2:1: row has 3 fields, the header has 2");
  EXPECT_EQ(error_of("x.csv", "p,time\n4\n"), "x.csv:2:1: row has 1 fields, the header has 2");
  EXPECT_EQ(error_of("x.csv", "region,p,time\n\"main,4,1\n"), "x.csv:2:1: unterminated quoted field");
  EXPECT_EQ(error_of("x.csv", "region,p,time\n\"ma\"\"in\" x,4,1\n"),
            "x.csv:2:10: unexpected text after a quoted field");
  EXPECT_EQ(parse_dataset("x.csv", "region,p,time\n\"ma\"\"in\",4,1\n").series[0].region, "ma\"in");
}

TEST(Dataset, CsvReportsBadHeaders) {
  EXPECT_EQ(error_of("x.csv", "1,2\n3,4\n"), "x.csv:1:1: expected a header row of column names, found numbers");
  EXPECT_EQ(error_of("x.csv", "p,,time\n1,2,3\n"), "x.csv:1:3: empty column name");
  EXPECT_EQ(error_of("x.csv", "p,q,p\n1,2,3\n"), "x.csv:1:5: column 'p' appears twice");
  EXPECT_EQ(error_of("x.csv", "region,metric\na,b\n"), "x.csv:1:1: no value column in the header");
}

TEST(Dataset, ReadsExtraPTextFile) {
  const Dataset dataset = read_dataset(data_directory + "/two_regions.txt");
  ASSERT_EQ(dataset.series.size(), 3u);
  const Values points[] = {{4, 1000}, {8, 1000}, {16, 1000}, {4, 2000}};
  const Series& main = dataset.series[0];
  EXPECT_EQ(main.region, "main");
  EXPECT_EQ(main.metric, "time");
  EXPECT_EQ(main.parameters, (Names{"p", "n"}));
  EXPECT_EQ(main.origin.line, 8);
  EXPECT_EQ(main.origin.column, 1);
  ASSERT_EQ(main.measurements.size(), 4u);
  for (std::size_t index = 0; index < 4; ++index) EXPECT_EQ(main.measurements[index].point, points[index]);
  EXPECT_EQ(main.measurements[0].values, (Values{1.0, 1.1}));
  EXPECT_EQ(main.measurements[2].values, (Values{4.0, 4.2, 4.1}));
  const Series& solve = dataset.series[1];
  EXPECT_EQ(solve.region, "solve");
  EXPECT_EQ(solve.metric, "time");
  EXPECT_EQ(solve.origin.line, 15);
  EXPECT_EQ(solve.measurements[3].values, (Values{1.0}));
  const Series& visits = dataset.series[2];
  EXPECT_EQ(visits.region, "solve");
  EXPECT_EQ(visits.metric, "visits");
  EXPECT_EQ(visits.origin.line, 20);
  EXPECT_EQ(visits.measurements[3].point, (Values{4, 2000}));
  EXPECT_EQ(visits.measurements[3].values, (Values{20}));
}

TEST(Dataset, ExtraPTextPointsFormsAndMetricsAcrossRegions) {
  const Dataset dataset = parse_dataset("x.txt",
                                        "PARAMETER p\nPOINTS 4 8\nPOINTS (16) ( 32 )\nPOINTS (64)(128)\n"
                                        "METRIC bytes\nREGION a\nDATA 1\nDATA 2\nDATA 3\nDATA 4\nDATA 5\nDATA 6\n"
                                        "  REGION   b c  \nDATA 1\nDATA 2\nDATA 3\nDATA 4\nDATA 5\nDATA 6 7\n");
  ASSERT_EQ(dataset.series.size(), 2u);
  EXPECT_EQ(dataset.series[0].region, "a");
  EXPECT_EQ(dataset.series[0].metric, "bytes");
  EXPECT_EQ(dataset.series[0].origin.line, 6);
  EXPECT_EQ(dataset.series[1].region, "b c");
  EXPECT_EQ(dataset.series[1].metric, "bytes");
  EXPECT_EQ(dataset.series[1].origin.column, 3);
  const Values expected[] = {{4}, {8}, {16}, {32}, {64}, {128}};
  ASSERT_EQ(dataset.series[1].measurements.size(), 6u);
  for (std::size_t index = 0; index < 6; ++index) {
    EXPECT_EQ(dataset.series[1].measurements[index].point, expected[index]);
  }
  EXPECT_EQ(dataset.series[1].measurements[5].values, (Values{6, 7}));
}

TEST(Dataset, ExtraPTextReportsDataCounts) {
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 1 2 3\nREGION a\nDATA 1\nDATA 2\nREGION b\n"),
            "x.txt:3:1: REGION 'a' needs one DATA line per point (3), found 2");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 1 2\nREGION a\nMETRIC bytes\nDATA 1\nMETRIC visits\n"),
            "x.txt:4:1: METRIC 'bytes' of REGION 'a' needs one DATA line per point (2), found 1");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 1\nREGION a\nDATA 1\nREGION b\n"),
            "x.txt:5:1: REGION 'b' needs one DATA line per point (1), found 0");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 1 2\nREGION a\nDATA 1\nDATA 2\nDATA 3\n"),
            "x.txt:6:1: more DATA lines than points (2) after REGION 'a'");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4\nDATA 1\n"), "x.txt:3:1: DATA before any REGION");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4\nREGION a\nDATA\n"), "x.txt:4:1: DATA without values");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4\nREGION a\nDATA 1 2x\n"), "x.txt:4:8: '2x' is not a number");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4\nREGION a\nDATA nan\n"),
            "x.txt:4:6: 'nan' is not a finite number");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4\n"), "x.txt: no measurements in the file");
}

TEST(Dataset, ExtraPTextReportsPointsKeywordsAndOrder) {
  EXPECT_EQ(error_of("x.txt", "PARAMETER p n\nPOINTS (4 1000) (8)\n"),
            "x.txt:2:17: expected 2 coordinates (p, n), found 1");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p n\nPOINTS 4 1000\n"), "x.txt:2:8: expected 2 coordinates (p, n), found 1");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4 x8\n"), "x.txt:2:10: 'x8' is not a number");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS (4 (8)\n"), "x.txt:2:8: unclosed '('");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS ((4 8))\n"), "x.txt:2:12: expected ')'");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4 )\n"), "x.txt:2:10: unmatched ')'");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS\n"), "x.txt:2:1: POINTS without points");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4\nPARAMETER n\n"), "x.txt:3:1: PARAMETER after POINTS");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPARAMETER q p\n"), "x.txt:2:13: parameter 'p' declared twice");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4\nREGION a\nDATA 1\nPOINTS 8\n"), "x.txt:5:1: POINTS after REGION");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINTS 4\nREGION\n"), "x.txt:3:1: REGION without a name");
  EXPECT_EQ(error_of("x.txt", "PARAMETER p\nPOINT 4\n"),
            "x.txt:2:1: unknown keyword 'POINT' (expected PARAMETER, POINTS, REGION, METRIC or DATA)");
  EXPECT_EQ(error_of("x.txt", "POINTS 4\n", {InputFormat::ExtraPText, "", {}}),
            "x.txt:1:1: POINTS before any PARAMETER");
  EXPECT_EQ(error_of("x.txt", "p,time\n", {InputFormat::ExtraPText, "", {}}),
            "x.txt:1:1: unknown keyword 'p,time' (expected PARAMETER, POINTS, REGION, METRIC or DATA)");
}

TEST(Dataset, ReadsAugurExperimentRecordsAndExtraPJsonLines) {
  const Dataset dataset = read_dataset(data_directory + "/records.jsonl");
  ASSERT_EQ(dataset.series.size(), 4u);
  const Series& time = dataset.series[0];
  EXPECT_EQ(time.region, "fft");
  EXPECT_EQ(time.metric, "time");
  EXPECT_EQ(time.parameters, (Names{"N", "P"}));
  EXPECT_EQ(time.formula, "fft[0]+fft[1]*log(P)");
  EXPECT_EQ(time.origin.line, 2);
  ASSERT_EQ(time.measurements.size(), 2u);
  EXPECT_EQ(time.measurements[0].point, (Values{1024, 4}));
  EXPECT_EQ(time.measurements[0].values, (Values{0.0123, 0.0125}));
  EXPECT_EQ(time.measurements[1].point, (Values{1024, 8}));
  EXPECT_EQ(time.measurements[1].values, (Values{0.0071}));
  const Series& cycles = dataset.series[1];
  EXPECT_EQ(cycles.region, "fft");
  EXPECT_EQ(cycles.metric, "PAPI_TOT_CYC");
  EXPECT_EQ(cycles.formula, "fft[0]+fft[1]*log(P)");
  EXPECT_EQ(cycles.measurements[0].values, (Values{123, 130}));
  EXPECT_EQ(cycles.measurements[1].values, (Values{70}));
  const Series& halo = dataset.series[2];
  EXPECT_EQ(halo.region, "halo");
  EXPECT_EQ(halo.parameters, (Names{"P"}));
  EXPECT_EQ(halo.formula, "");
  EXPECT_EQ(halo.origin.line, 7);
  const Series& solve = dataset.series[3];
  EXPECT_EQ(solve.region, "main->solve");
  EXPECT_EQ(solve.metric, "time");
  EXPECT_EQ(solve.parameters, (Names{"n", "p"}));
  EXPECT_EQ(solve.origin.line, 8);
  ASSERT_EQ(solve.measurements.size(), 2u);
  EXPECT_EQ(solve.measurements[0].point, (Values{10, 4}));
  EXPECT_EQ(solve.measurements[0].values, (Values{1.5}));
  EXPECT_EQ(solve.measurements[1].point, (Values{10, 8}));
  EXPECT_EQ(solve.measurements[1].values, (Values{0.8, 0.9}));
}

TEST(Dataset, JsonLinesDefaultsAndLateFormula) {
  const Dataset dataset = parse_dataset("x.jsonl",
                                        "{\"params\":{\"p\":2},\"value\":1}\n"
                                        "{\"params\":{\"p\":2},\"value\":2,\"metric\":\"bytes\",\"callpath\":null}\n"
                                        "{\"experiment\":\"e\",\"variables\":{},\"time\":3}\n"
                                        "{\"experiment\":\"e\",\"variables\":{},\"time\":4,\"formula\":\"e[0]\"}\n");
  ASSERT_EQ(dataset.series.size(), 3u);
  EXPECT_EQ(dataset.series[0].region, "main");
  EXPECT_EQ(dataset.series[0].metric, "time");
  EXPECT_EQ(dataset.series[1].region, "main");
  EXPECT_EQ(dataset.series[1].metric, "bytes");
  EXPECT_EQ(dataset.series[2].parameters, Names{});
  EXPECT_EQ(dataset.series[2].formula, "e[0]");
  ASSERT_EQ(dataset.series[2].measurements.size(), 1u);
  EXPECT_EQ(dataset.series[2].measurements[0].point, Values{});
  EXPECT_EQ(dataset.series[2].measurements[0].values, (Values{3, 4}));
}

TEST(Dataset, JsonLinesReportsBadRecords) {
  const std::string fft = "{\"experiment\":\"fft\",\"variables\":{\"P\":4},\"time\":1";
  EXPECT_EQ(
      error_of("x.jsonl", "{\"experiment\":\"fft\",}\n"),
      "x.jsonl:1:21: invalid JSON: syntax error while parsing object key - unexpected '}'; expected string literal");
  EXPECT_EQ(error_of("x.jsonl", fft + "}\n\n" + fft + "\n"),
            "x.jsonl:3:49: invalid JSON: syntax error while parsing object - unexpected end of input; expected '}'");
  EXPECT_EQ(error_of("x.jsonl", "{\"experiment\":\"fft\",\"variables\":{\"P\":4}}\n"),
            "x.jsonl:1:1: missing key 'time'");
  EXPECT_EQ(error_of("x.jsonl", "{\"experiment\":\"fft\",\"time\":1}\n"), "x.jsonl:1:1: missing key 'variables'");
  EXPECT_EQ(error_of("x.jsonl", "{\"experiment\":7,\"variables\":{},\"time\":1}\n"),
            "x.jsonl:1:1: 'experiment' must be a string");
  EXPECT_EQ(error_of("x.jsonl", "{\"experiment\":\"fft\",\"variables\":[4],\"time\":1}\n"),
            "x.jsonl:1:1: 'variables' must be an object");
  EXPECT_EQ(error_of("x.jsonl", "{\"experiment\":\"fft\",\"variables\":{\"P\":\"4\"},\"time\":1}\n"),
            "x.jsonl:1:1: variable 'P' must be a number");
  EXPECT_EQ(error_of("x.jsonl", "{\"experiment\":\"fft\",\"variables\":{\"P\":4},\"time\":null}\n"),
            "x.jsonl:1:1: 'time' must be a number");
  EXPECT_EQ(error_of("x.jsonl", fft + ",\"rank\":0.5}\n"), "x.jsonl:1:1: 'rank' must be an integer");
  EXPECT_EQ(error_of("x.jsonl", fft + ",\"counters\":{\"cycles\":true}}\n"),
            "x.jsonl:1:1: counter 'cycles' must be a number");
  EXPECT_EQ(error_of("x.jsonl", fft + ",\"formula\":3}\n"), "x.jsonl:1:1: 'formula' must be a string");
  EXPECT_EQ(error_of("x.jsonl", fft + ",\"counters\":{\"time\":1}}\n"),
            "x.jsonl:1:1: counter 'time' would be taken for the metric 'time'");
  EXPECT_EQ(error_of("x.jsonl", fft + "e999}\n"), "x.jsonl:1:1: invalid JSON: number overflow parsing '1e999'");
  EXPECT_EQ(error_of("x.jsonl", fft + "}\n{\"experiment\":\"fft\",\"variables\":{\"N\":1,\"P\":4},\"time\":1}\n"),
            "x.jsonl:2:1: variables (N, P) differ from (P) of experiment 'fft' at line 1");
  EXPECT_EQ(error_of("x.jsonl", fft + ",\"formula\":\"a\"}\n" + fft + ",\"formula\":\"b\"}\n"),
            "x.jsonl:2:1: formula 'b' differs from 'a' of experiment 'fft' at line 1");
  EXPECT_EQ(error_of("x.jsonl", "{\"params\":{\"p\":1},\"value\":[]}\n"),
            "x.jsonl:1:1: 'value' must not be an empty array");
  EXPECT_EQ(error_of("x.jsonl", "{\"params\":{\"p\":1},\"value\":[1,\"2\"]}\n"),
            "x.jsonl:1:1: 'value' must be a number");
  EXPECT_EQ(error_of("x.jsonl", "{\"params\":{\"p\":1},\"value\":\"1\"}\n"),
            "x.jsonl:1:1: 'value' must be a number or an array of numbers");
  EXPECT_EQ(error_of("x.jsonl", "{\"params\":{\"p\":1}}\n"), "x.jsonl:1:1: missing key 'value'");
  EXPECT_EQ(error_of("x.jsonl", "{\"params\":{\"p\":1},\"value\":1,\"callpath\":2}\n"),
            "x.jsonl:1:1: 'callpath' must be a string");
  EXPECT_EQ(error_of("x.jsonl", "{\"params\":{\"p\":1},\"value\":1}\n{\"params\":{\"q\":1},\"value\":1}\n"),
            "x.jsonl:2:1: parameters (q) differ from (p) of region 'main', metric 'time' at line 1");
  EXPECT_EQ(error_of("x.jsonl", "{\"params\":{\"p\":1},\"value\":1}\n[1]\n"), "x.jsonl:2:1: expected a JSON object");
  EXPECT_EQ(error_of("x.jsonl", "{\"value\":1}\n"),
            "x.jsonl:1:1: a record needs the key 'experiment' (augur) or 'params' (Extra-P)");
}

TEST(Dataset, JsonLinesHeader) {
  const std::string record = "{\"experiment\":\"e\",\"variables\":{\"P\":1},\"time\":1}\n";
  EXPECT_EQ(parse_dataset("x.jsonl", "{\"augur\":\"experiments\",\"version\":1}\n" + record).series.size(), 1u);
  EXPECT_EQ(error_of("x.jsonl", "{\"augur\":\"experiments\",\"version\":2}\n" + record),
            "x.jsonl:1:1: augur experiments version 2 is not supported (expected 1)");
  EXPECT_EQ(error_of("x.jsonl", "{\"augur\":\"experiments\"}\n" + record), "x.jsonl:1:1: missing key 'version'");
  EXPECT_EQ(error_of("x.jsonl", "{\"augur\":\"report\",\"version\":1}\n"),
            "x.jsonl:1:1: unknown header 'augur': 'report' (expected 'experiments')");
  EXPECT_EQ(error_of("x.jsonl", record + "{\"augur\":\"experiments\",\"version\":1}\n"),
            "x.jsonl:2:1: the header {\"augur\": ...} must be the first line");
  EXPECT_EQ(error_of("x.jsonl", "# records\n{\"augur\":\"experiments\",\"version\":1}\n"),
            "x.jsonl: no measurements in the file");
}

TEST(Dataset, DetectsFormatsAndRejectsEmptyInput) {
  EXPECT_EQ(parse_dataset("x", "# Extra-P\n\nPARAMETER p\nPOINTS 1\nREGION r\nDATA 2\n").series[0].region, "r");
  EXPECT_EQ(parse_dataset("x", "\n  {\"params\":{\"p\":1},\"value\":2}\n").series[0].region, "main");
  EXPECT_EQ(parse_dataset("x", "PARAMETERS,time\n1,2\n").series[0].parameters, Names{"PARAMETERS"});
  EXPECT_EQ(error_of("x", "PARAMETERS,time\n1,2\n", {InputFormat::JsonLines, "", {}}),
            "x:1:1: invalid JSON: syntax error while parsing value - invalid literal; last read: 'P'");
  EXPECT_EQ(error_of("x.csv", ""), "x.csv: no measurements in the file");
  EXPECT_EQ(error_of("x.csv", "\n  # only a comment\n\n"), "x.csv: no measurements in the file");
  EXPECT_EQ(error_of("x.csv", "p,time\n"), "x.csv: no measurements in the file");
  EXPECT_EQ(error_of("x.txt", "", {InputFormat::ExtraPText, "", {}}), "x.txt: no measurements in the file");
  EXPECT_EQ(error_of("x.jsonl", "", {InputFormat::JsonLines, "", {}}), "x.jsonl: no measurements in the file");
}

TEST(Dataset, ReadDatasetNamesAFileItCannotRead) {
  const std::string path = data_directory + "/no-such-file.csv";
  try {
    (void)read_dataset(path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), path + ": cannot read: No such file or directory");
  }
}

TEST(Dataset, AggregatesRepetitions) {
  const Values values = {3, 1, 2, 10};
  EXPECT_DOUBLE_EQ(aggregate(values, Aggregate::Mean), 4.0);
  EXPECT_DOUBLE_EQ(aggregate(values, Aggregate::Median), 2.5);
  EXPECT_DOUBLE_EQ(aggregate(values, Aggregate::Minimum), 1.0);
  EXPECT_DOUBLE_EQ(aggregate(values, Aggregate::Maximum), 10.0);
  EXPECT_DOUBLE_EQ(aggregate({7}, Aggregate::Median), 7.0);
  EXPECT_TRUE(std::isnan(aggregate({}, Aggregate::Maximum)));
  EXPECT_EQ(parse_aggregate("mean"), Aggregate::Mean);
  EXPECT_EQ(parse_aggregate("median"), Aggregate::Median);
  EXPECT_EQ(parse_aggregate("min"), Aggregate::Minimum);
  EXPECT_EQ(parse_aggregate("max"), Aggregate::Maximum);
  try {
    (void)parse_aggregate("average");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), "unknown aggregate 'average' (expected mean, median, min or max)");
  }
}

}  // namespace
}  // namespace augur::model
