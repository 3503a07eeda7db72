// End-to-end tests of what augur plot draws: the gnuplot script (-o FILE.gp) line by line, and the SVG
// gnuplot makes of it. References are computed by hand from the data, never copied from the output.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;  // describe, contains, read_text, write_text, TemporaryDirectory

using augur::core::ProcessResult;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;
const std::string fft_t3e = std::string(AUGUR_EXAMPLES_DIR) + "/model/fft_t3e.csv";
const std::string fft_formula = "fft[0] + fft[1]*log(P) + fft[2]*(N/P)*log(N/P) + fft[3]*N*(P-1)/P";

bool gnuplot_installed() { return augur::core::run_process({"sh", "-c", "command -v gnuplot"}).succeeded(); }

ProcessResult plot(const Arguments& arguments) {
  Arguments argv{augur_exe, "plot"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has_line(const std::string& text, const std::string& line) {
  const std::vector<std::string> lines = lines_of(text);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// The script augur plot writes for `arguments` (with -o DIR/plot.gp).
std::string script_of(const TemporaryDirectory& directory, Arguments arguments, ProcessResult* result = nullptr) {
  const std::string output = directory.file("plot.gp");
  arguments.insert(arguments.end(), {"-o", output});
  const ProcessResult ran = plot(arguments);
  EXPECT_EQ(ran.exit_code, 0) << describe(ran);
  if (result != nullptr) *result = ran;
  return std::filesystem::exists(output) ? read_text(output) : "";
}

// The rows of a data block `$name << EOD` ... `EOD`, blank lines kept as empty strings.
std::vector<std::string> block_of(const std::string& script, const std::string& name) {
  std::vector<std::string> rows;
  bool inside = false;
  for (const std::string& line : lines_of(script)) {
    if (line == "$" + name + " << EOD") {
      inside = true;
    } else if (inside && line == "EOD") {
      return rows;
    } else if (inside) {
      rows.push_back(line);
    }
  }
  ADD_FAILURE() << "no data block $" << name;
  return rows;
}

std::vector<double> numbers(const std::string& row) {
  std::vector<double> values;
  std::istringstream in(row);
  for (double value = 0; in >> value;) values.push_back(value);
  return values;
}

TEST(PlotScript, PlainTickLabelsAndUnitsOnTheAxes) {
  TemporaryDirectory directory;
  const std::string script = script_of(directory, {fft_t3e, "--formula", fft_formula, "--x", "P"});
  EXPECT_TRUE(has_line(script, "set format x \"%g\"")) << script.substr(0, 800);
  EXPECT_TRUE(has_line(script, "set format y \"%g\""));
  EXPECT_TRUE(has_line(script, "set xlabel \"P (processors)\" noenhanced"));
  EXPECT_TRUE(has_line(script, "set ylabel \"time (s)\" noenhanced"));
  // P = 1 .. 32, every one a power of two: a log2 axis, ticks at 1, 2, 4, ...
  EXPECT_TRUE(has_line(script, "set logscale x 2"));
  EXPECT_TRUE(has_line(script, "set xrange [1:64]"));
  EXPECT_FALSE(contains(script, "set terminal png")) << "a .gp script draws SVG";
}

// The x axis takes its unit from the parameter's name as the y axis does from the metric's; N gives none.
TEST(PlotScript, TheXAxisUnitComesFromTheParameterName) {
  TemporaryDirectory directory;
  const std::string data = directory.file("sizes.csv");
  write_text(data, "size_bytes,latency_us\n1024,3\n2048,5\n4096,9\n8192,17\n");
  const std::string script = script_of(directory, {data, "--formula", "c[0] + c[1]*size_bytes"});
  EXPECT_TRUE(has_line(script, "set xlabel \"size_bytes (bytes)\" noenhanced")) << script.substr(0, 800);
  EXPECT_TRUE(has_line(script, "set ylabel \"latency_us (µs)\" noenhanced"));
  const std::string fft = script_of(directory, {fft_t3e, "--formula", fft_formula, "--x", "N"});
  EXPECT_TRUE(has_line(fft, "set xlabel \"N\" noenhanced")) << fft.substr(0, 800);
}

TEST(PlotScript, TheExtrapolationRegionIsShadedAndTheBandNamedInTheLegend) {
  TemporaryDirectory directory;
  const std::string script = script_of(directory, {fft_t3e, "--formula", fft_formula, "--x", "P", "--confidence", "0.9"});
  // Extrapolation begins at the largest measured P, 32, and runs to --extend 2 × 32.
  EXPECT_TRUE(has_line(script, "set object 1 rect from first 32, graph 0 to graph 1, graph 1 behind fillcolor rgb '#ececec' fillstyle solid 1.0 noborder"));
  EXPECT_TRUE(has_line(script, "plot keyentry with filledcurves lc rgb '#909090' fillstyle transparent solid 0.4 noborder title \"90% prediction band\", \\"));
  EXPECT_TRUE(has_line(script, "     keyentry with filledcurves lc rgb '#ececec' fillstyle solid 1.0 border lc rgb '#c0c0c0' title \"extrapolation (P > 32)\", \\"));
  EXPECT_TRUE(has_line(script, "     $model0 using 1:3:4 with filledcurves lc 1 fillstyle transparent solid 0.2 noborder notitle, \\"));
  EXPECT_TRUE(has_line(script, "     $measured0 using 1:2:3:4 with yerrorbars pt 7 lc 1 title \"measured (N=2097152)\", \\"));
  EXPECT_TRUE(has_line(script, "     $model0 using 1:2 with lines lw 2 lc 1 title \"model (N=2097152)\""));
  // The measured block: Table 1's six times, as written in the data.
  EXPECT_EQ(block_of(script, "measured0"), (std::vector<std::string>{"1 11.7748 11.7748 11.7748", "2 6.0036 6.0036 6.0036", "4 3.212 3.212 3.212",
                                                                       "8 1.8939 1.8939 1.8939", "16 1.275 1.275 1.275", "32 0.9664 0.9664 0.9664"}));

  // Without extrapolation (--extend 1) there is no region to shade and no legend entry for it.
  const std::string inside = script_of(directory, {fft_t3e, "--formula", fft_formula, "--x", "P", "--extend", "1"});
  EXPECT_FALSE(contains(inside, "set object 1 rect"));
  EXPECT_FALSE(contains(inside, "extrapolation"));
  EXPECT_TRUE(contains(inside, "title \"95% prediction band\""));
}

// c[0]/P in segments: each segment is its own gnuplot data block (two blank lines between them), so that
// no line is drawn across the jump. Within a block value × P is one constant; across blocks it differs.
TEST(PlotScript, SegmentsAreSeparateDataBlocks) {
  TemporaryDirectory directory;
  const std::string script = script_of(directory, {fft_t3e, "--formula", "c[0]/P", "--segments", "auto", "--x", "P"});
  std::vector<std::vector<std::vector<double>>> blocks(1);
  int blanks = 0;
  for (const std::string& row : block_of(script, "model0")) {
    if (row.empty()) {
      ++blanks;
      continue;
    }
    if (blanks >= 2) blocks.emplace_back();
    EXPECT_NE(blanks, 1) << "an unexpected gap";
    blanks = 0;
    blocks.back().push_back(numbers(row));
  }
  ASSERT_EQ(blocks.size(), 2u) << script;
  std::vector<double> constants;
  for (const auto& block : blocks) {
    ASSERT_GE(block.size(), 2u);
    const double constant = block.front()[0] * block.front()[1];
    for (const auto& row : block) {
      ASSERT_EQ(row.size(), 4u);
      EXPECT_NEAR(row[0] * row[1], constant, 1e-9 * constant) << "one segment's constant along its block";
      EXPECT_LE(row[2], row[1]);
      EXPECT_GE(row[3], row[1]);
    }
    constants.push_back(constant);
  }
  EXPECT_LT(blocks[0].back()[0], blocks[1].front()[0]);
  EXPECT_GT(std::abs(constants[0] - constants[1]), 0.01 * constants[0]) << "the segments jump";
}

// The data fit 11 - P exactly: on the log axes (P spans 1 .. 8) the model is ≤ 0 from P = 11 to the end
// of the picture, 16; those values are left out, with a note in the picture and on stderr.
TEST(PlotScript, ANegativeModelIsClippedOnLogAxesWithANote) {
  TemporaryDirectory directory;
  const std::string data = directory.file("falling.csv");
  write_text(data, "P,time\n1,10\n2,9\n4,7\n8,3\n");
  ProcessResult result;
  const std::string script = script_of(directory, {data, "--formula", "c[0] + c[1]*P"}, &result);
  const std::string note = "model ≤ 0 for P from 11 to 16: not drawn on the log axis";
  EXPECT_TRUE(contains(result.standard_error, "augur plot: note: " + note + "\n")) << describe(result);
  EXPECT_TRUE(has_line(script, "set label 1 \"" + note + "\" at graph 0.98, graph 0.04 right front noenhanced")) << script;
  EXPECT_TRUE(has_line(script, "set logscale x 2"));
  double last = 0;
  for (const std::string& row : block_of(script, "model0")) {
    if (row.empty()) continue;
    const std::vector<double> values = numbers(row);
    ASSERT_EQ(values.size(), 4u);
    EXPECT_GT(values[1], 0) << row;
    EXPECT_NEAR(values[1], 11 - values[0], 1e-9);
    last = values[0];
  }
  EXPECT_LT(last, 11);
  EXPECT_GT(last, 10.5);
}

// gnuplot draws the script to SVG: the legend and the axes' labels are there, and every tick label is a plain
// number (1, 2, 0.5: never 10.0000000).
TEST(PlotPicture, TheSvgHasTheLegendAndPlainTickLabels) {
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  TemporaryDirectory directory;
  const std::string output = directory.file("fft.svg");
  const ProcessResult result = plot({fft_t3e, "--formula", fft_formula, "--x", "P", "-o", output});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const std::string svg = read_text(output);
  for (const std::string text : {">95% prediction band<", ">extrapolation (P > 32)<", ">measured (N=2097152)<", ">model (N=2097152)<",
                                 ">time (s)<", ">P (processors)<"}) {
    EXPECT_TRUE(contains(svg, text)) << text;
  }
  EXPECT_FALSE(contains(svg, "10.0000000"));
  const std::regex tick(R"(<tspan font-family="sans" >\s*([^<]*)</tspan>)");
  int ticks = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tick); it != std::sregex_iterator(); ++it, ++ticks) {
    EXPECT_TRUE(std::regex_match((*it)[1].str(), std::regex(R"(\d+(\.\d*[1-9])?)"))) << "tick label '" << (*it)[1] << "'";
  }
  EXPECT_GE(ticks, 10) << "P: 1 .. 64 in powers of two, time: 0.1 .. 100";
  // The script of -o FILE.gp draws the same picture on stdout.
  const std::string script = directory.file("fft.gp");
  ASSERT_EQ(plot({fft_t3e, "--formula", fft_formula, "--x", "P", "-o", script}).exit_code, 0);
  const ProcessResult drawn = augur::core::run_process({"gnuplot", script});
  ASSERT_TRUE(drawn.succeeded()) << describe(drawn);
  EXPECT_EQ(drawn.standard_output, svg);
}

}  // namespace
