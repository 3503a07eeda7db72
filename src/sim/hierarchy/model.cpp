// The program behaviour model file (docs/formats.md, "Program behaviour models") and the four presets.
#include "sim/hierarchy/model.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>

#include "augur/core/diagnostics.hpp"
#include "sim/hierarchy/words.hpp"

namespace augur::sim::hierarchy {
namespace {

constexpr double largest_count = 1e6;  // N_size and N_df beyond this are refused

class ModelReader {
public:
  ModelReader(const std::string& text, const std::string& file) : source_(file, text) {}

  ProgramModel read() {
    for (const auto& words : lines_of_words(source_.text())) line(words);
    if (!size_all_ && size_level_.empty()) source_.fail(source_.text().size(), "the model has no 'nsize' line (the tasks of a function graph)");
    ProgramModel model;
    model.name = source_.file();
    model.levels = levels_;
    model.pattern = pattern_;
    model.execution_time = execution_time_.value_or(Distribution{});
    const int count = levels_ == 0 ? 1 : levels_;
    for (int l = 1; l <= count; ++l) {
      const auto size = size_level_.count(l) != 0 ? std::optional(size_level_.at(l)) : size_all_;
      if (!size) source_.fail(source_.text().size(), "no 'nsize' for level " + std::to_string(l));
      model.size.push_back(*size);
      model.firing.push_back(firing_level_.count(l) != 0 ? firing_level_.at(l) : firing_all_.value_or(Distribution{}));
    }
    return model;
  }

private:
  void line(const std::vector<Word>& words) {
    std::size_t at = 0;
    int level = 0;
    if (words[0].text == "level") {
      if (levels_ == 0) source_.fail(words[0].offset, "'level L' needs a 'levels' line before it");
      if (words.size() < 3) source_.fail(words.back().offset + words.back().text.size(), "expected 'level L nsize|ndf DISTRIBUTION'");
      level = static_cast<int>(whole_of(source_, words[1], 1, levels_));
      at = 2;
    }
    const std::string& key = words[at].text;
    if (key == "levels" && level == 0) {
      if (levels_ != 0) source_.fail(words[0].offset, "'levels' given twice");
      if (words.size() != 2) source_.fail(words.size() < 2 ? words[0].offset + 6 : words[2].offset, "'levels' takes one whole number");
      levels_ = static_cast<int>(whole_of(source_, words[1], 1, 8));
      return;
    }
    if (key == "pattern" && level == 0) {
      if (words.size() != 2 || (words[1].text != "random" && words[1].text != "structured"))
        source_.fail(words.size() < 2 ? words[0].offset + 7 : words[1].offset, "'pattern' is random or structured");
      pattern_ = words[1].text == "random" ? Pattern::Random : Pattern::Structured;
      return;
    }
    if (key == "tet" && level == 0) {
      execution_time_ = distribution(words, at + 1, false, "tet");
      return;
    }
    if (key == "nsize" || key == "ndf") {
      const Distribution value = distribution(words, at + 1, true, key);
      auto& all = key == "nsize" ? size_all_ : firing_all_;
      auto& per = key == "nsize" ? size_level_ : firing_level_;
      if (level == 0) {
        if (all) source_.fail(words[at].offset, "'" + key + "' given twice");
        all = value;
      } else {
        if (per.count(level) != 0) source_.fail(words[at].offset, "'" + key + "' of level " + std::to_string(level) + " given twice");
        per[level] = value;
      }
      return;
    }
    source_.fail(words[at].offset, "unknown setting '" + key + "' (levels, pattern, nsize, ndf, tet, level L nsize|ndf)");
  }

  // [K +] NAME PARAMETERS from words[at]; counts must be whole and at least 1.
  Distribution distribution(const std::vector<Word>& words, std::size_t at, bool count, const std::string& key) const {
    const auto end_of = [&] { return words.back().offset + words.back().text.size(); };
    if (at >= words.size()) source_.fail(end_of(), "'" + key + "' needs a distribution: deterministic V, uniform A B, exponential M, poisson M, empirical V:W ...");
    Distribution d;
    if (at + 1 < words.size() && words[at + 1].text == "+") {
      d.shift = number_of(source_, words[at]);
      at += 2;
      if (at >= words.size()) source_.fail(end_of(), "expected a distribution after '+'");
    }
    const Word& name = words[at];
    const auto arguments = [&](std::size_t n) {
      if (words.size() - at - 1 != n) source_.fail(words.size() - at - 1 < n ? end_of() : words[at + 1 + n].offset,
                                                   "'" + name.text + "' takes " + std::to_string(n) + (n == 1 ? " value" : " values"));
    };
    char* end = nullptr;
    const double bare = std::strtod(name.text.c_str(), &end);
    if (at + 1 == words.size() && end != name.text.c_str() && *end == '\0' && std::isfinite(bare)) {  // "ndf 2": deterministic 2
      d.kind = Distribution::Kind::Deterministic;
      d.a = d.b = bare;
    } else if (name.text == "deterministic") {
      arguments(1);
      d.kind = Distribution::Kind::Deterministic;
      d.a = d.b = number_of(source_, words[at + 1]);
    } else if (name.text == "uniform") {
      arguments(2);
      d.kind = Distribution::Kind::Uniform;
      d.a = number_of(source_, words[at + 1]);
      d.b = number_of(source_, words[at + 2]);
      if (d.a > d.b) source_.fail(words[at + 2].offset, "uniform A B needs A <= B");
    } else if (name.text == "exponential" || name.text == "poisson") {
      arguments(1);
      d.kind = name.text == "poisson" ? Distribution::Kind::Poisson : Distribution::Kind::Exponential;
      d.a = number_of(source_, words[at + 1]);
      if (d.kind == Distribution::Kind::Exponential ? d.a <= 0 : d.a < 0)
        source_.fail(words[at + 1].offset, "the mean of " + name.text + " must be " + (d.a < 0 || d.kind == Distribution::Kind::Exponential ? "above 0" : "at least 0"));
    } else if (name.text == "empirical") {
      if (at + 1 >= words.size()) source_.fail(end_of(), "'empirical' needs VALUE:WEIGHT pairs");
      d.kind = Distribution::Kind::Empirical;
      double total = 0.0;
      for (std::size_t i = at + 1; i < words.size(); ++i) {
        const std::size_t colon = words[i].text.find(':');
        if (colon == std::string::npos) source_.fail(words[i].offset, "expected VALUE:WEIGHT, found '" + words[i].text + "'");
        const double value = number_of(source_, {words[i].text.substr(0, colon), words[i].offset});
        const double weight = number_of(source_, {words[i].text.substr(colon + 1), words[i].offset + colon + 1});
        if (weight <= 0) source_.fail(words[i].offset + colon + 1, "a weight must be above 0");
        if (count && value != std::floor(value)) source_.fail(words[i].offset, "'" + key + "' counts tasks: expected a whole number, found '" + words[i].text.substr(0, colon) + "'");
        d.empirical.emplace_back(value, weight);
        total += weight;
      }
      for (auto& pair : d.empirical) pair.second /= total;
    } else {
      source_.fail(name.offset, "unknown distribution '" + name.text + "' (deterministic, uniform, exponential, poisson, empirical)");
    }
    check(d, count, key, words[at]);
    return d;
  }

  void check(const Distribution& d, bool count, const std::string& key, const Word& name) const {
    if (count) {
      const bool whole_parameters = d.shift == std::floor(d.shift) && (d.kind != Distribution::Kind::Deterministic && d.kind != Distribution::Kind::Uniform ? true : d.a == std::floor(d.a) && d.b == std::floor(d.b));
      if (!whole_parameters) source_.fail(name.offset, "'" + key + "' counts tasks: its values must be whole numbers");
      if (d.minimum() < 1)
        source_.fail(name.offset, "'" + key + "' can be " + std::to_string(static_cast<long>(std::round(d.minimum()))) + " with " + d.describe() + "; a count must be 1 at least (write '1 + " + d.describe() + "')");
      if (d.mean() > largest_count || (d.kind == Distribution::Kind::Uniform && d.b + d.shift > largest_count))
        source_.fail(name.offset, "'" + key + "' above " + std::to_string(static_cast<long>(largest_count)) + " tasks");
    } else {
      if (d.minimum() < 0) source_.fail(name.offset, "an execution time cannot be negative (" + d.describe() + " can be " + std::to_string(d.minimum()) + ")");
      if (d.mean() <= 0) source_.fail(name.offset, "the mean execution time must be above 0");
    }
  }

  core::SourceText source_;
  int levels_ = 0;
  Pattern pattern_ = Pattern::Random;
  std::optional<Distribution> size_all_;
  std::optional<Distribution> firing_all_;
  std::map<int, Distribution> size_level_;
  std::map<int, Distribution> firing_level_;
  std::optional<Distribution> execution_time_;
};

}  // namespace

ProgramModel ProgramModel::for_levels(int count) const {
  ProgramModel model = *this;
  model.levels = count;
  if (size.size() == 1) {
    model.size.assign(static_cast<std::size_t>(count), size.front());
    model.firing.assign(static_cast<std::size_t>(count), firing.front());
  }
  return model;
}

ProgramModel parse_model(const std::string& text, const std::string& file) { return ModelReader(text, file).read(); }

std::vector<std::string> preset_names() { return {"UU20", "XU11", "XP11", "XU20"}; }

// The presets (docs/hierarchy.md, "The four program models"): first letter the distribution of T_et
// (U uniform, X exponential), second the dependency pattern (U uniformly random, P patterned), the digits the
// mean N_df in tenths (2.0 and 1.1 tasks per firing). N_size is uniform on 16..48 at every level.
std::string preset_model_text(const std::string& name) {
  const auto text = [](const char* tet, const char* pattern, const char* firing) {
    return std::string("nsize uniform 16 48\nndf ") + firing + "\ntet " + tet + "\npattern " + pattern + "\n";
  };
  if (name == "UU20") return text("uniform 0.5 1.5", "random", "1 + poisson 1.0");
  if (name == "XU11") return text("exponential 1", "random", "1 + poisson 0.1");
  if (name == "XP11") return text("exponential 1", "structured", "1 + poisson 0.1");
  if (name == "XU20") return text("exponential 1", "random", "1 + poisson 1.0");
  return {};
}

}  // namespace augur::sim::hierarchy
