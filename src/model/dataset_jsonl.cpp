// The JSON Lines dataset reader: augur's experiment records and Extra-P's JSON Lines (docs/formats.md).
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "dataset_readers.hpp"

namespace augur::model::readers {
namespace {

// ---- JSON Lines ---------------------------------------------------------------------------------

using Json = nlohmann::json;

class JsonLinesReader {
 public:
  explicit JsonLinesReader(const std::string& file) : file_(file), builder_(file) {}

  Dataset read(const std::vector<Line>& lines) {
    for (const Line& line : lines) {
      const SourceLocation location = at(file_, line);
      const Json record = parse_line(line);
      line_ = &line;
      if (!record.is_object()) throw InputError(location, "expected a JSON object");
      if (record.contains("augur")) {
        read_header(record, location, &line == &lines.front());
      } else if (record.contains("experiment")) {
        read_experiment(record, location);
      } else if (record.contains("params")) {
        read_extrap(record, location);
      } else {
        throw InputError(location, "a record needs the key 'experiment' (augur) or 'params' (Extra-P)");
      }
    }
    for (const auto& [name, experiment] : experiments_) {
      for (const std::size_t series : experiment.series) builder_.at(series).formula = experiment.formula;
    }
    return builder_.finish();
  }

 private:
  struct Experiment {
    std::vector<std::string> variables;
    long line = 0;
    std::string formula;
    long formula_line = 0;
    std::set<std::size_t> series;
  };

  Json parse_line(const Line& line) const {
    try {
      return Json::parse(line.text.begin(), line.text.end());
    } catch (const Json::exception& error) {
      // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." → "syntax error ...";
      // "[json.exception.out_of_range.406] number overflow parsing '1e999'" → "number overflow parsing '1e999'"
      const std::string message = error.what();
      const auto* syntax_error = dynamic_cast<const Json::parse_error*>(&error);
      const std::size_t start = syntax_error ? message.find(": ", message.find(", column ")) : message.find("] ");
      const long column = syntax_error && syntax_error->byte > 0 ? static_cast<long>(syntax_error->byte) : 1;
      throw InputError({file_, line.number, column},
                       "invalid JSON: " + (start == std::string::npos ? message : message.substr(start + 2)));
    }
  }

  static const Json& field(const Json& record, const char* key, const SourceLocation& location) {
    const auto found = record.find(key);
    if (found == record.end()) throw InputError(location, std::string("missing key '") + key + "'");
    return *found;
  }

  // An optional key: absent or null is nullptr.
  static const Json* optional_field(const Json& record, const char* key) {
    const auto found = record.find(key);
    return found == record.end() || found->is_null() ? nullptr : &*found;
  }

  static std::string string_of(const Json& value, const std::string& what, const SourceLocation& location) {
    if (!value.is_string()) throw InputError(location, what + " must be a string");
    return value.get<std::string>();
  }

  static double number_of(const Json& value, const std::string& what, const SourceLocation& location) {
    if (!value.is_number()) throw InputError(location, what + " must be a number");
    const double number = value.get<double>();
    if (!std::isfinite(number)) throw InputError(location, what + " is not finite");
    return number;
  }

  // The names (sorted) and values (in the names' order) of an object of numbers.
  static std::pair<std::vector<std::string>, std::vector<double>> numbers_of(const Json& object, const char* key,
                                                                             const char* item,
                                                                             const SourceLocation& location) {
    if (!object.is_object()) throw InputError(location, std::string("'") + key + "' must be an object");
    std::vector<std::string> names;
    for (const auto& [name, value] : object.items()) names.push_back(name);
    std::sort(names.begin(), names.end());
    std::vector<double> values;
    for (const std::string& name : names) {
      values.push_back(number_of(object[name], item + (" '" + name + "'"), location));
    }
    return {std::move(names), std::move(values)};
  }

  static void check_integer(const Json& record, const char* key, const SourceLocation& location) {
    const Json* value = optional_field(record, key);
    if (value != nullptr && !value->is_number_integer()) {
      throw InputError(location, std::string("'") + key + "' must be an integer");
    }
  }

  void read_header(const Json& record, const SourceLocation& location, bool first) const {
    if (!first) throw InputError(location, "the header {\"augur\": ...} must be the first line");
    const std::string kind = string_of(record["augur"], "'augur'", location);
    if (kind != "experiments") {
      throw InputError(location, "unknown header 'augur': '" + kind + "' (expected 'experiments')");
    }
    const Json& version = field(record, "version", location);
    if (!version.is_number_integer()) throw InputError(location, "'version' must be an integer");
    if (version.get<long long>() != 1) {
      throw InputError(location, "augur experiments version " + std::to_string(version.get<long long>()) +
                                     " is not supported (expected 1)");
    }
  }

  // {"experiment":"fft","formula":"...","variables":{"N":1024,"P":4},"time":0.0123,"rank":0,"ranks":4,
  //  "threads":1,"counters":{"PAPI_TOT_CYC":123}}
  void read_experiment(const Json& record, const SourceLocation& location) {
    const std::string name = string_of(record["experiment"], "'experiment'", location);
    auto [variables, point] = numbers_of(field(record, "variables", location), "variables", "variable", location);
    check_names(variables, "variable");
    const double time = number_of(field(record, "time", location), "'time'", location);
    for (const char* key : {"rank", "ranks", "threads"}) check_integer(record, key, location);
    std::vector<std::pair<std::string, double>> counters;
    if (const Json* object = optional_field(record, "counters")) {
      auto [names, values] = numbers_of(*object, "counters", "counter", location);
      for (std::size_t index = 0; index < names.size(); ++index) counters.emplace_back(names[index], values[index]);
      if (object->contains("time")) throw InputError(location, "counter 'time' would be taken for the metric 'time'");
    }
    Experiment& experiment =
        experiments_.try_emplace(name, Experiment{variables, location.line, {}, 0, {}}).first->second;
    if (experiment.variables != variables) {
      throw InputError(location, "variables (" + join(variables) + ") differ from (" + join(experiment.variables) +
                                     ") of experiment '" + name + "' at line " + std::to_string(experiment.line));
    }
    if (const Json* formula_value = optional_field(record, "formula")) {
      const std::string formula = string_of(*formula_value, "'formula'", location);
      if (experiment.formula.empty()) {
        experiment.formula = formula;
        experiment.formula_line = location.line;
      } else if (formula != experiment.formula) {
        throw InputError(location, "formula '" + formula + "' differs from '" + experiment.formula +
                                       "' of experiment '" + name + "' at line " +
                                       std::to_string(experiment.formula_line));
      }
    }
    counters.insert(counters.begin(), {"time", time});
    for (const auto& [metric, value] : counters) {
      const std::size_t series = builder_.series(name, metric, variables, location);
      builder_.add(series, point, {value});
      experiment.series.insert(series);
    }
  }

  // {"params":{"p":4,"n":10},"value":1.5 or [1.5,1.6],"callpath":"main","metric":"time"}
  void read_extrap(const Json& record, const SourceLocation& location) {
    auto [parameters, point] = numbers_of(record["params"], "params", "parameter", location);
    check_names(parameters, "the name");
    const Json& value = field(record, "value", location);
    std::vector<double> values;
    if (value.is_array()) {
      for (const Json& item : value) values.push_back(number_of(item, "'value'", location));
      if (values.empty()) throw InputError(location, "'value' must not be an empty array");
    } else {
      if (!value.is_number()) throw InputError(location, "'value' must be a number or an array of numbers");
      values.push_back(number_of(value, "'value'", location));
    }
    const Json* callpath = optional_field(record, "callpath");
    const Json* metric = optional_field(record, "metric");
    const std::string region = callpath ? string_of(*callpath, "'callpath'", location) : "main";
    const std::string metric_name = metric ? string_of(*metric, "'metric'", location) : "time";
    builder_.add(builder_.series(region, metric_name, parameters, location), std::move(point), values);
  }

  // Each name must be a NAME of the expression language; the error at the name's key on the line (when it
  // is written there as it reads, else at the line).
  void check_names(const std::vector<std::string>& names, const std::string& what) const {
    for (const std::string& name : names) {
      const std::size_t key = line_->text.find('"' + name + '"');
      check_parameter_name(name, at(file_, *line_, key == std::string_view::npos ? 0 : key), what);
    }
  }

  std::string file_;
  const Line* line_ = nullptr;  // the line being read
  DatasetBuilder builder_;
  std::map<std::string, Experiment> experiments_;
};

}  // namespace

Dataset parse_json_lines(const std::string& file, const std::vector<Line>& lines) {
  return JsonLinesReader(file).read(lines);
}

}  // namespace augur::model::readers
