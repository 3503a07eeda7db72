// The workload format's reader (docs/formats.md, "Manager workloads").
#include "manager/workload.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <random>
#include <nlohmann/json.hpp>

#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"

namespace augur::manager {

double SpeedupCurve::at(int processors) const {
  if (processors <= 0) return 0.0;
  if (kind == Kind::amdahl) return 1.0 / (serial_fraction + (1.0 - serial_fraction) / processors);
  if (points.empty()) return static_cast<double>(processors);
  if (processors >= points.back().first) return points.back().second;
  for (std::size_t index = 1; index < points.size(); ++index) {
    const auto& [high_p, high_s] = points[index];
    if (processors > high_p) continue;
    const auto& [low_p, low_s] = points[index - 1];
    return low_s + (high_s - low_s) * (processors - low_p) / static_cast<double>(high_p - low_p);
  }
  return points.back().second;
}

namespace {

struct Token {
  std::string_view text;
  std::size_t offset = 0;  // in the whole workload
};

std::vector<Token> split_line(std::string_view line, std::size_t offset) {
  std::vector<Token> tokens;
  std::size_t at = 0;
  while (at < line.size()) {
    if (line[at] == ' ' || line[at] == '\t' || line[at] == '\r') {
      ++at;
      continue;
    }
    if (line[at] == '#') break;
    const std::size_t start = at;
    while (at < line.size() && line[at] != ' ' && line[at] != '\t' && line[at] != '\r' && line[at] != '#') ++at;
    tokens.push_back({line.substr(start, at - start), offset + start});
  }
  return tokens;
}

double parse_number(const core::SourceText& source, std::string_view text, std::size_t offset, const char* what) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    source.fail(offset, std::string(what) + ": expected a number, found '" + std::string(text) + "'");
  }
  return value;
}

int parse_count(const core::SourceText& source, std::string_view text, std::size_t offset, const char* what) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > 1000000) {
    source.fail(offset, std::string(what) + ": expected a whole number from 1 to 1000000, found '" + std::string(text) + "'");
  }
  return value;
}

// Sorts the points, adds (1, 1) when absent, and checks them.
void finish_table(SpeedupCurve& curve, const std::function<void(const std::string&)>& fail) {
  std::sort(curve.points.begin(), curve.points.end());
  for (std::size_t index = 1; index < curve.points.size(); ++index) {
    if (curve.points[index].first == curve.points[index - 1].first) {
      fail("two speedups for " + std::to_string(curve.points[index].first) + " processors");
    }
  }
  if (curve.points.empty()) fail("no speedup in the table");
  if (curve.points.front().first != 1) curve.points.insert(curve.points.begin(), {1, 1.0});
}

SpeedupCurve parse_table(const core::SourceText& source, std::string_view text, std::size_t offset) {
  SpeedupCurve curve;
  curve.kind = SpeedupCurve::Kind::table;
  curve.source = "table";
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find(',', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view pair = text.substr(at, end - at);
    const std::size_t colon = pair.find(':');
    if (colon == std::string_view::npos) {
      source.fail(offset + at, "table: expected P:S, found '" + std::string(pair) + "'");
    }
    const int processors = parse_count(source, pair.substr(0, colon), offset + at, "table");
    const double speedup = parse_number(source, pair.substr(colon + 1), offset + at + colon + 1, "table");
    if (!(speedup >= min_speedup && speedup <= max_speedup)) {
      source.fail(offset + at + colon + 1, "table: a speedup must be from 0.01 to 1000000");
    }
    curve.points.emplace_back(processors, speedup);
    at = end + 1;
  }
  finish_table(curve, [&](const std::string& message) { source.fail(offset, "table: " + message); });
  return curve;
}

// One `job` line's key=value fields after its name.
struct JobFields {
  std::map<std::string, Token> values;  // key -> the token of its value
};

// How a job line's copies arrive: `repeat` copies `every` seconds apart, or `poisson` copies at Poisson
// arrivals of `rate` per second drawn from `seed`.
struct Stream {
  int count = 1;
  double every = 0.0;
  bool poisson = false;
  double rate = 0.0;
  std::uint64_t seed = 1;
};

// The stream fields of a job line: repeat= and every=, or poisson=, rate= and seed=.
Stream parse_stream(const core::SourceText& source, const std::function<const Token*(const char*)>& value, std::size_t where) {
  Stream stream;
  const Token* poisson = value("poisson");
  if (poisson != nullptr && (value("repeat") || value("every"))) source.fail(poisson->offset, "poisson: give either repeat= and every= or poisson= and rate=");
  if (poisson == nullptr) {
    for (const char* key : {"rate", "seed"}) {
      if (const Token* alone = value(key)) source.fail(alone->offset, std::string(key) + ": only with poisson=");
    }
  }
  if (const Token* count = value("repeat")) stream.count = parse_count(source, count->text, count->offset, "repeat");
  if (const Token* gap = value("every")) {
    stream.every = parse_number(source, gap->text, gap->offset, "every");
    if (stream.every < 0.0 || stream.every > 1e9) source.fail(gap->offset, "every: must be from 0 to 1e9 seconds");
  }
  if (poisson == nullptr) return stream;
  stream.poisson = true;
  stream.count = parse_count(source, poisson->text, poisson->offset, "poisson");
  const Token* rate = value("rate");
  if (rate == nullptr) source.fail(where, "poisson: rate= is required (arrivals per second)");
  stream.rate = parse_number(source, rate->text, rate->offset, "rate");
  if (!(stream.rate >= 1e-9 && stream.rate <= 1e9)) source.fail(rate->offset, "rate: must be from 1e-9 to 1e9 arrivals per second");
  if (const Token* seed = value("seed")) {
    const auto [end, error] = std::from_chars(seed->text.data(), seed->text.data() + seed->text.size(), stream.seed);
    if (error != std::errc() || end != seed->text.data() + seed->text.size()) {
      source.fail(seed->offset, "seed: expected a whole number from 0 to 2^64 - 1, found '" + std::string(seed->text) + "'");
    }
  }
  return stream;
}

WorkloadJob parse_job(const core::SourceText& source, const std::vector<Token>& tokens, const FileReader& read_file,
                      Stream& stream) {
  if (tokens.size() < 2) source.fail(tokens[0].offset, "job: expected a name after 'job'");
  WorkloadJob job;
  job.name = std::string(tokens[1].text);
  if (job.name.find('=') != std::string::npos) source.fail(tokens[1].offset, "job: expected a name before the fields, found '" + job.name + "'");
  std::map<std::string, Token> fields;
  for (std::size_t index = 2; index < tokens.size(); ++index) {
    const Token& token = tokens[index];
    const std::size_t equals = token.text.find('=');
    if (equals == std::string_view::npos || equals == 0) {
      source.fail(token.offset, "expected key=value, found '" + std::string(token.text) + "'");
    }
    const std::string key(token.text.substr(0, equals));
    static const std::vector<std::string> keys{"arrival", "work", "max", "amdahl", "table", "speedup", "repeat", "every", "poisson", "rate", "seed"};
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      source.fail(token.offset, "unknown key '" + key + "' (expected arrival, work, max, amdahl, table, speedup, repeat, every, poisson, rate or seed)");
    }
    if (fields.contains(key)) source.fail(token.offset, "'" + key + "' given twice");
    fields[key] = {token.text.substr(equals + 1), token.offset + equals + 1};
  }
  const auto value = [&](const char* key) -> const Token* {
    const auto found = fields.find(key);
    return found == fields.end() ? nullptr : &found->second;
  };
  if (const Token* arrival = value("arrival")) {
    job.arrival = parse_number(source, arrival->text, arrival->offset, "arrival");
    if (job.arrival < 0.0 || job.arrival > 1e12) source.fail(arrival->offset, "arrival: must be from 0 to 1e12 seconds");
  }
  const Token* work = value("work");
  if (work == nullptr) source.fail(tokens[1].offset, "job '" + job.name + "': work= is required");
  job.work = parse_number(source, work->text, work->offset, "work");
  if (!(job.work > 0.0)) source.fail(work->offset, "work: must be above 0");
  if (job.work > 1e12) source.fail(work->offset, "work: at most 1e12 seconds");
  if (const Token* max = value("max")) job.max_processors = parse_count(source, max->text, max->offset, "max");
  const int curves = (value("amdahl") ? 1 : 0) + (value("table") ? 1 : 0) + (value("speedup") ? 1 : 0);
  if (curves != 1) source.fail(tokens[1].offset, "job '" + job.name + "': give exactly one of amdahl=, table= and speedup=");
  if (const Token* amdahl = value("amdahl")) {
    job.curve.serial_fraction = parse_number(source, amdahl->text, amdahl->offset, "amdahl");
    if (job.curve.serial_fraction < 0.0 || job.curve.serial_fraction > 1.0) source.fail(amdahl->offset, "amdahl: f must be in [0, 1]");
    job.curve.source = "amdahl f=" + std::string(amdahl->text);
  } else if (const Token* table = value("table")) {
    job.curve = parse_table(source, table->text, table->offset);
  } else {
    const Token* file = value("speedup");
    if (file->text.empty()) source.fail(file->offset, "speedup: expected a file name");
    const std::string path(file->text);
    try {
      job.curve = parse_speedup_json(read_file(path), path);
    } catch (const core::InputError& error) {
      source.fail(file->offset, "speedup: " + std::string(error.what()));
    }
  }
  stream = parse_stream(source, value, tokens[1].offset);
  return job;
}

}  // namespace

std::vector<double> poisson_arrivals(double first, int count, double rate, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::vector<double> arrivals;
  double time = first;
  for (int index = 0; index < count; ++index) {
    const double uniform = static_cast<double>(generator() >> 11) * 0x1.0p-53;  // in [0, 1)
    time += -std::log1p(-uniform) / rate;
    arrivals.push_back(std::round(time * 1000.0) / 1000.0);
  }
  return arrivals;
}

Workload parse_workload(std::string_view text, const std::string& file, const FileReader& read_file) {
  const core::SourceText source(file, std::string(text));
  Workload workload;
  std::size_t offset = 0;
  constexpr std::size_t max_jobs = 1000000;
  while (offset < text.size()) {
    std::size_t end = text.find('\n', offset);
    if (end == std::string_view::npos) end = text.size();
    const std::vector<Token> tokens = split_line(text.substr(offset, end - offset), offset);
    if (!tokens.empty()) {
      if (tokens[0].text != "job") source.fail(tokens[0].offset, "expected 'job', found '" + std::string(tokens[0].text) + "'");
      Stream stream;
      const WorkloadJob job = parse_job(source, tokens, read_file, stream);
      if (workload.jobs.size() + static_cast<std::size_t>(stream.count) > max_jobs) {
        source.fail(tokens[0].offset, "more than 1000000 jobs");
      }
      const std::vector<double> arrivals = stream.poisson ? poisson_arrivals(job.arrival, stream.count, stream.rate, stream.seed)
                                                          : std::vector<double>();
      for (int copy = 0; copy < stream.count; ++copy) {
        WorkloadJob each = job;
        each.arrival = stream.poisson ? arrivals[static_cast<std::size_t>(copy)] : job.arrival + copy * stream.every;
        if (stream.count > 1) each.name += "." + std::to_string(copy + 1);
        workload.jobs.push_back(std::move(each));
      }
    }
    offset = end + 1;
  }
  if (workload.jobs.empty()) throw core::InputError({file, 0, 0}, "no job in the workload");
  std::stable_sort(workload.jobs.begin(), workload.jobs.end(),
                   [](const WorkloadJob& a, const WorkloadJob& b) { return a.arrival < b.arrival; });
  return workload;
}

}  // namespace augur::manager
