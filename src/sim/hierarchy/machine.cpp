// The hierarchical machine file (docs/formats.md, "Hierarchical machines"): one setting a line; per-level
// settings take one value for every level or one value per level.
#include "sim/hierarchy/machine.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "augur/core/diagnostics.hpp"
#include "sim/hierarchy/words.hpp"

namespace augur::sim::hierarchy {

long Machine::control_subsystems(int l) const {
  long count = 1;
  for (int k = 1; k < l; ++k) count = std::min(count * fanout[static_cast<std::size_t>(k - 1)], 1L << 40);  // saturated
  return count;
}

int Machine::grasp_threshold(int l) const {
  const int setting = level[static_cast<std::size_t>(l - 1)].grasp;
  return setting > 0 ? setting : children(l);
}

namespace {

void check_size(const Machine& machine, const std::function<void(const std::string&)>& fail) {
  if (machine.control_subsystems(machine.levels) > (1L << 16) || machine.control_subsystems(machine.levels) * machine.processors > maximum_processors)
    fail("more than 65536 lowest control subsystems or " + std::to_string(maximum_processors) + " processors");
}

struct Setting {
  std::vector<Word> words;  // the key and its values
};

class MachineReader {
public:
  MachineReader(const std::string& text, const std::string& file) : source_(file, text) {}

  Machine read() {
    for (auto& words : lines_of_words(source_.text())) {
      const std::string& key = words[0].text;
      static const std::vector<std::string> keys{"levels", "fanout", "processors", "capacity", "schedule", "transfer",
                                                 "network", "grasp", "migrate", "migrate-batch", "migrate-minimum"};
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        source_.fail(words[0].offset, "unknown setting '" + key + "' (levels, fanout, processors, capacity, schedule, transfer, network, grasp, migrate, migrate-batch, migrate-minimum)");
      if (settings_.count(key) != 0) source_.fail(words[0].offset, "'" + key + "' given twice");
      if (words.size() < 2) source_.fail(words[0].offset + key.size(), "'" + key + "' needs a value");
      settings_[key] = {std::move(words)};
    }
    return build();
  }

private:
  // The values of `key` spread over `count` entries: one value for all, or exactly `count`.
  template <typename Value, typename Convert>
  std::vector<Value> per_level(const std::string& key, int count, Value fallback, Convert convert) const {
    const auto found = settings_.find(key);
    if (found == settings_.end()) return std::vector<Value>(static_cast<std::size_t>(count), fallback);
    const auto& words = found->second.words;
    const std::size_t given = words.size() - 1;
    if (given != 1 && given != static_cast<std::size_t>(count))
      source_.fail(words[1].offset, "'" + key + "' takes one value or " + std::to_string(count) + " (one per level" +
                                        (key == "fanout" ? " above the lowest" : "") + "), found " + std::to_string(given));
    std::vector<Value> values;
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) values.push_back(convert(words[given == 1 ? 1 : i + 1]));
    return values;
  }
  double non_negative(const Word& word) const {
    const double value = number_of(source_, word);
    if (value < 0) source_.fail(word.offset, "expected a time of at least 0, found '" + word.text + "'");
    return value;
  }

  Machine build() const {
    Machine machine;
    const auto single = [&](const std::string& key, long minimum, long maximum, long fallback) {
      const auto found = settings_.find(key);
      if (found == settings_.end()) return fallback;
      if (found->second.words.size() > 2) source_.fail(found->second.words[2].offset, "unexpected '" + found->second.words[2].text + "'");
      return whole_of(source_, found->second.words[1], minimum, maximum);
    };
    machine.levels = static_cast<int>(single("levels", 1, 8, 2));
    machine.processors = static_cast<int>(single("processors", 1, maximum_processors, 4));
    if (machine.levels > 1) {
      machine.fanout = per_level<int>("fanout", machine.levels - 1, 4, [&](const Word& w) { return static_cast<int>(whole_of(source_, w, 1, 65536)); });
    } else if (settings_.count("fanout") != 0) {
      source_.fail(settings_.at("fanout").words[0].offset, "a one-level machine has no 'fanout' (its one CS holds the processors)");
    }
    const int n = machine.levels;
    const auto capacity = per_level<double>("capacity", n, 1e9, [&](const Word& w) {
      const double value = number_of(source_, w);
      if (value < 1) source_.fail(w.offset, "a CS's capacity must hold one space unit at least, found '" + w.text + "'");
      return value;
    });
    const auto schedule = per_level<double>("schedule", n, 0.01, [&](const Word& w) { return non_negative(w); });
    const auto transfer = per_level<double>("transfer", n, 0.02, [&](const Word& w) { return non_negative(w); });
    const auto network = per_level<double>("network", n, 0.05, [&](const Word& w) { return non_negative(w); });
    const auto grasp = per_level<int>("grasp", n, 0, [&](const Word& w) { return static_cast<int>(whole_of(source_, w, 0, 1 << 30)); });  // 0: the children
    const auto migrate = per_level<bool>("migrate", n, true, [&](const Word& w) {
      if (w.text != "on" && w.text != "off") source_.fail(w.offset, "'migrate' is on or off, not '" + w.text + "'");
      return w.text == "on";
    });
    const auto batch = per_level<int>("migrate-batch", n, 1, [&](const Word& w) { return static_cast<int>(whole_of(source_, w, 1, 1 << 20)); });
    const auto minimum = per_level<int>("migrate-minimum", n, 2, [&](const Word& w) { return static_cast<int>(whole_of(source_, w, 1, 1 << 20)); });
    for (std::size_t l = 0; l < static_cast<std::size_t>(n); ++l)
      machine.level.push_back({capacity[l], schedule[l], transfer[l], network[l], grasp[l], migrate[l], batch[l], minimum[l]});
    const std::size_t where = settings_.count("fanout") != 0 ? settings_.at("fanout").words[0].offset
                              : settings_.count("processors") != 0 ? settings_.at("processors").words[0].offset : 0;
    check_size(machine, [&](const std::string& message) { source_.fail(where, message); });
    return machine;
  }

  core::SourceText source_;
  std::map<std::string, Setting> settings_;
};

}  // namespace

Machine uniform_machine(int levels, int fanout, int processors) {
  if (levels < 1 || levels > 8) throw core::InputError({"--levels", 0, 0}, "expected 1 to 8 levels, found " + std::to_string(levels));
  if (fanout < 1 && levels > 1) throw core::InputError({"--fanout", 0, 0}, "a fan-out must be 1 at least, found " + std::to_string(fanout));
  if (processors < 1) throw core::InputError({"--processors", 0, 0}, "a lowest CS needs 1 processor at least, found " + std::to_string(processors));
  Machine machine;
  machine.levels = levels;
  machine.fanout.assign(static_cast<std::size_t>(levels - 1), fanout);
  machine.processors = processors;
  machine.level.assign(static_cast<std::size_t>(levels), LevelSettings{});
  check_size(machine, [](const std::string& message) { throw core::InputError({"--fanout", 0, 0}, message); });
  return machine;
}

Machine parse_machine(const std::string& text, const std::string& file) { return MachineReader(text, file).read(); }

}  // namespace augur::sim::hierarchy
