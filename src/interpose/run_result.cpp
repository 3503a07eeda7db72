#include "interpose/run_result.hpp"

#include <algorithm>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "augur/core/diagnostics.hpp"
#include "augur/dpd.hpp"
#include "core/json_line.hpp"

namespace augur::interpose {
namespace {

using nlohmann::json;

// Reads the fields of an interposition file with a message naming the file and the field. A missing (or
// null) field takes its default, as the preload omits what it did not measure; a wrong type is an error.
class FieldReader {
 public:
  explicit FieldReader(const std::string& file) : file_(file) {}

  template <typename T>
  T get_or(const json& object, const char* key, T fallback, const std::string& where) const {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return fallback;
    return core::json_field_as<T>(*found, key, where, file_);
  }

  [[noreturn]] void fail(const std::string& message) const { throw core::InputError({file_, 0, 0}, message); }

 private:
  std::string file_;
};

WorksharingPeriod read_period(const json& found, const FieldReader& reader) {
  WorksharingPeriod period;
  period.length = reader.get_or<int>(found, "length", 0, "worksharing");
  period.iterations = reader.get_or<long>(found, "iterations", 0, "worksharing");
  period.team_size = reader.get_or<int>(found, "team_size", 0, "worksharing");
  period.measured_iterations = reader.get_or<long>(found, "measured_iterations", 0, "worksharing");
  const auto median = found.find("iteration_time_median_s");
  if (median != found.end() && !median->is_null()) {
    if (!median->is_number()) reader.fail("worksharing: field 'iteration_time_median_s' is not a number");
    period.iteration_time = median->get<double>();
  }
  const auto constructs = found.find("constructs");
  if (constructs == found.end() || !constructs->is_array()) reader.fail("worksharing: missing array 'constructs'");
  for (std::size_t index = 0; index < constructs->size(); ++index) {
    const json& construct = (*constructs)[index];
    const std::string where = "worksharing.constructs[" + std::to_string(index) + "]";
    if (!construct.is_object()) reader.fail(where + ": not an object");
    period.constructs.push_back(reader.get_or<std::string>(construct, "module", "", where) + "+" +
                                reader.get_or<std::string>(construct, "offset", "", where) + " " +
                                reader.get_or<std::string>(construct, "kind", "", where));
  }
  return period;
}

}  // namespace

RunInfo parse_run_info(const std::string& text, const std::string& file) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& error) {
    const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    // nlohmann's words after its own position ("[json.exception...] parse error at line 3, column 3: ").
    const std::string message = error.what();
    const auto syntax = message.find("syntax error");
    throw core::InputError(
        core::locate_offset(file, text, offset),
        "not a JSON interposition file: " + (syntax == std::string::npos ? message : message.substr(syntax)));
  } catch (const json::exception& error) {
    // A number beyond double's range ("[json.exception.out_of_range.406] number overflow parsing '1e999'").
    const std::string message = error.what();
    const auto words = message.find("] ");
    throw core::InputError({file, 0, 0}, "not a JSON interposition file: " +
                                             (words == std::string::npos ? message : message.substr(words + 2)));
  }
  const FieldReader reader(file);
  if (!document.is_object()) reader.fail("not an interposition file: the top level is not a JSON object");
  if (reader.get_or<int>(document, "augur_interpose", 0, "interposition file") != 1) {
    reader.fail("not an interposition file of this version ('augur_interpose': 1 expected)");
  }
  RunInfo info;
  info.dpd_window = reader.get_or<int>(document, "dpd_window", 0, "interposition file");
  info.intercepted = reader.get_or<long>(document, "intercepted", 0, "interposition file");
  info.distinct_loops = reader.get_or<int>(document, "distinct_loops", 0, "interposition file");
  const auto disabled = document.find("disabled");
  if (disabled != document.end() && !disabled->is_null()) {
    info.disabled = reader.get_or<std::string>(document, "disabled", "", "interposition file");
  }
  const auto regions = document.find("regions");
  if (regions != document.end() && !regions->is_null()) {
    if (!regions->is_array()) reader.fail("interposition file: field 'regions' is not an array");
    info.regions = regions->size();
  }
  const auto worksharing = document.find("worksharing");
  if (worksharing != document.end() && worksharing->is_object()) {
    info.worksharing_detector = true;
    info.worksharing_samples = reader.get_or<long>(*worksharing, "samples", 0, "worksharing");
    if (reader.get_or<bool>(*worksharing, "found", false, "worksharing"))
      info.worksharing = read_period(*worksharing, reader);
  }
  return info;
}

std::string run_problem(const RunInfo& info) {
  if (info.disabled) return *info.disabled;
  if (info.intercepted == 0) return "no OpenMP parallel region ran";
  if (info.regions == 0) {
    return std::to_string(info.intercepted) + " parallel regions ran (" + std::to_string(info.distinct_loops) +
           " distinct) without a periodic pattern";
  }
  return "";
}

std::string nothing_measured_reason(const RunInfo& info) {
  if (info.intercepted == 1 && info.distinct_loops == 1) {
    if (!info.worksharing_detector)
      return "one parallel region ran, once: a program with one parallel region around its time loop (orphaned "
             "worksharing loops inside it) is not measured by this runtime's tool yet";
    std::string reason = "one parallel region ran, once, and its " + std::to_string(info.worksharing_samples) +
                         " worksharing constructs (barriers, loop ends on its master thread) showed no periodic pattern";
    // A window the constructs never filled twice cannot see a step repeat: a smaller one can, when the constructs
    // fill the smallest window (dpd::Detector::min_window) twice.
    if (info.dpd_window > dpd::Detector::min_window && info.worksharing_samples < 2L * info.dpd_window &&
        info.worksharing_samples >= 2L * dpd::Detector::min_window)
      reason += " in a window of " + std::to_string(info.dpd_window) + " samples, more than half of them: a smaller --dpd-window may find it";
    return reason;
  }
  const std::string problem = run_problem(info);
  return problem.empty() ? "no report was written" : problem;
}

bool outer_region_only(const RunInfo& info) {
  return !info.disabled && info.regions == 0 && info.worksharing.has_value();
}

int second_run_threads(const selfanalysis::BaselinePolicy& baseline, int team) {
  const int threads = baseline.resolve(team);
  if (threads != team) return threads;
  return team > 1 ? 1 : 0;
}

bool second_run_wanted(const WorksharingPeriod& first, int threads) {
  return threads > 0 && first.iteration_time.has_value();
}

std::string SecondRunResult::note() const {
  if (!problem.empty()) return "not measured: " + problem;
  if (!speedup) return "";
  return "from two runs: T(" + std::to_string(threads) + ")/T(" + std::to_string(team) +
         ") per iteration, medians of each run's measured iterations (the second run on OMP_NUM_THREADS=" +
         std::to_string(threads) + ")" +
         (threads == 1 ? std::string() : "; relative to " + std::to_string(threads) + " threads, not to 1");
}

SecondRunResult not_run_again(const WorksharingPeriod& first, int threads, int exit_code) {
  SecondRunResult result;
  result.threads = threads;
  result.team = first.team_size;
  result.problem = "the program exited with status " + std::to_string(exit_code) + ", so it was not run again";
  return result;
}

SecondRunResult combine_runs(const WorksharingPeriod& first, int threads, const SecondRunEnd& second) {
  SecondRunResult result;
  result.threads = threads;
  result.team = first.team_size;
  result.ran = true;
  const std::string on = "the second run, on " + std::to_string(threads) + " threads, ";
  if (second.signal != 0) {
    result.problem = on + "was killed by signal " + std::to_string(second.signal);
  } else if (second.exit_code != 0) {
    result.problem = on + "exited with status " + std::to_string(second.exit_code);
  } else if (!second.info) {
    result.problem = "the second run wrote no interposition file";
  } else if (!second.info->worksharing) {
    result.problem = on + "found no worksharing period";
  } else {
    const WorksharingPeriod& other = *second.info->worksharing;
    result.period = other;
    if (other.length != first.length || other.iterations != first.iterations ||
        !same_cycle(first.constructs, other.constructs)) {
      result.problem = "the second run found another period (" + std::to_string(other.length) + " constructs, " +
                       std::to_string(other.iterations) + " iterations; the first: " + std::to_string(first.length) +
                       ", " + std::to_string(first.iterations) + ")";
    } else if (other.team_size != threads) {
      result.problem = "the second run's team had " + std::to_string(other.team_size) + " threads, not the " +
                       std::to_string(threads) + " asked for (a num_threads clause?)";
    } else if (!other.iteration_time || *other.iteration_time <= 0.0 || !first.iteration_time ||
               *first.iteration_time <= 0.0) {
      result.problem = "the second run measured no time per iteration";
    } else if (std::min(first.measured_iterations, other.measured_iterations) < min_measured_iterations) {
      result.problem = "too few measured iterations for a ratio (" + std::to_string(first.measured_iterations) + " and " +
                       std::to_string(other.measured_iterations) + "; at least " + std::to_string(min_measured_iterations) +
                       " in each run; a smaller --dpd-window detects the period sooner)";
    } else {
      result.speedup = *other.iteration_time / *first.iteration_time;  // T(B)/T(P)
    }
  }
  return result;
}

bool same_cycle(const std::vector<std::string>& first, const std::vector<std::string>& second) {
  if (first.size() != second.size()) return false;
  if (first.empty()) return true;
  for (std::size_t shift = 0; shift < first.size(); ++shift) {
    bool equal = true;
    for (std::size_t index = 0; index < first.size() && equal; ++index) {
      equal = first[index] == second[(index + shift) % second.size()];
    }
    if (equal) return true;
  }
  return false;
}

}  // namespace augur::interpose
