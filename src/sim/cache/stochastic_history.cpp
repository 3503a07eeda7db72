// The history of the stochastic cache simulator: the seed's update, combination and replacement rules
// (seed 004 §2.2; equations in docs/cache.md, "The stochastic simulator").
#include "sim/cache/stochastic_history.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <unordered_set>

namespace augur::sim::cache::stochastic_detail {
namespace {

constexpr double negligible_probability = 1e-12;
constexpr std::uint64_t set_mask = (std::uint64_t{1} << 40) - 1;

// A stable insertion sort that moves each out-of-order entry once (held aside while the larger ones shift
// up) instead of swapping it down step by step: entries are nearly in order after an update, so it is
// linear then. Any stable sort gives the same order, so this is the order std::stable_sort gives.
template <typename Before>
void insertion_sort(SetHistory& set, Before before) {
  Entry* const entries = set.data();
  for (std::size_t i = 1; i < set.size(); ++i) {
    if (!before(entries[i], entries[i - 1])) continue;
    const Entry held = entries[i];
    std::size_t j = i;
    for (; j > 0 && before(held, entries[j - 1]); --j) entries[j] = entries[j - 1];
    entries[j] = held;
  }
}

void sort_by_depth(SetHistory& set) {
  insertion_sort(set, [](const Entry& a, const Entry& b) { return a.depth < b.depth; });
}

// A stable sort that allocates no buffer for the small sets of set-associative levels (prune keeps
// 4 × associativity + 4 entries: 36 for 8 ways), where an insertion sort is quick; std::stable_sort beyond.
template <typename Before>
void stable_sort_small(SetHistory& set, Before before) {
  if (set.size() > 64) {
    std::stable_sort(set.begin(), set.end(), before);
    return;
  }
  insertion_sort(set, before);
}

SetHistory::iterator find_line(SetHistory& set, std::uint64_t line) {
  return std::find_if(set.begin(), set.end(), [line](const Entry& entry) { return entry.line == line; });
}

}  // namespace

History::History(std::span<const StochasticLevel> levels) {
  for (const StochasticLevel& level : levels) {
    Level state;
    state.line = level.line;
    assert(std::has_single_bit(level.line) && "History: a line size that is a power of two");
    state.line_shift = std::countr_zero(level.line);
    state.associativity = std::max<std::uint64_t>(1, level.associativity);
    state.sets = std::max<std::uint64_t>(1, level.size / (level.line * state.associativity));
    state.replacement = level.replacement;
    state.sets_mask = std::has_single_bit(state.sets) ? state.sets - 1 : 0;
    state.set_histories.resize(state.sets);
    state.newest.assign(state.sets, 0);
    levels_.push_back(std::move(state));
  }
  insertions_.assign(levels_.size(), 0.0);
}

SetKey History::key_of(std::size_t level, std::uint64_t line) const {
  const Level& state = levels_[level];
  return (static_cast<std::uint64_t>(level) << 40) | (state.sets_mask != 0 ? line & state.sets_mask : line % state.sets);
}

SetHistory& History::set_of(SetKey key) { return levels_[key >> 40].set_histories[key & set_mask]; }

SetHistory& History::touch(SetKey key) {
  SetHistory& set = set_of(key);
  if (!journal_.empty()) journal_.back().try_emplace(key, set);
  return set;
}

void History::prune(std::size_t level, SetHistory& set) const {
  bool negligible = false;
  for (const Entry& entry : set) negligible |= entry.probability < negligible_probability;
  prune(level, set, negligible);
}

void History::prune(std::size_t level, SetHistory& set, bool negligible) const {
  if (negligible) std::erase_if(set, [](const Entry& entry) { return entry.probability < negligible_probability; });
  sort_by_depth(set);
  // Pare the history down to the lines that could be in the cache (the seed's "future improvement").
  const std::size_t keep = 4 * levels_[level].associativity + 4;
  if (set.size() > keep) set.resize(keep);
}

// LRU (seed): E[d_v|P_v] += 1 when E[d_v|P_v] <= E[d_x|P_x], += 1 - p_x otherwise; P_v = 0 once
// E[d_v|P_v] reaches the associativity; E[d_x|P_x] = 0, P_x = 1. Random (seed, reconstructed):
// P_v <- P_v (1 - (1 - p_x) / l) once the set is full. With weight w < 1 the result is the seed's
// combination w H_access + (1 - w) H.
double History::access(std::size_t level, std::uint64_t line, double weight, const Tag& tag) {
  const Level& state = levels_[level];
  const SetKey key = key_of(level, line);
  SetHistory& set = touch(key);
  note_sequence(key, tag.sequence);
  auto found = find_line(set, line);
  const double hit = found == set.end() ? 0.0 : found->probability;
  const double depth_x = found == set.end() ? std::numeric_limits<double>::infinity() : found->depth;
  const auto associativity = static_cast<double>(state.associativity);
  bool negligible = false;  // an entry left below negligible_probability (prune drops it)
  if (state.replacement == StochasticReplacement::Lru) {
    for (Entry& entry : set) {
      if (entry.line == line) continue;
      const double increment = entry.depth <= depth_x ? 1.0 : 1.0 - hit;
      if (entry.depth + increment >= associativity) {
        entry.probability *= 1.0 - weight;  // replaced when the access happens
      } else {
        entry.depth += weight * increment;
      }
      negligible |= entry.probability < negligible_probability;
    }
  } else {
    double others = 0.0;
    for (const Entry& entry : set) others += entry.line == line ? 0.0 : entry.probability;
    const double full = std::clamp(others - (associativity - 1.0), 0.0, 1.0);
    const double keep = 1.0 - weight * (1.0 - hit) * full / associativity;
    for (Entry& entry : set) {
      if (entry.line != line) entry.probability *= keep;
      negligible |= entry.probability < negligible_probability;
    }
  }
  const double probability = weight + (1.0 - weight) * hit;
  const double depth = hit > 0.0 ? (1.0 - weight) * hit * depth_x / probability : 0.0;
  insertions_[level] += weight * (1.0 - hit);
  negligible |= probability < negligible_probability;
  if (found == set.end()) {
    set.push_back(Entry{line, probability, depth, tag});
  } else {
    *found = Entry{line, probability, depth, tag};
  }
  prune(level, set, negligible);
  return hit;
}

void History::age_unknown(std::size_t level, double miss) {
  const Level& state = levels_[level];
  const double weight = miss / static_cast<double>(state.sets);
  const auto associativity = static_cast<double>(state.associativity);
  for (std::uint64_t set_index = 0; set_index < state.sets; ++set_index) {
    const SetKey key = (static_cast<std::uint64_t>(level) << 40) | set_index;
    if (set_of(key).empty()) continue;
    SetHistory& set = touch(key);
    double others = 0.0;
    for (const Entry& entry : set) others += entry.probability;
    const double full = std::clamp(others - (associativity - 1.0), 0.0, 1.0);
    for (Entry& entry : set) {
      if (state.replacement == StochasticReplacement::Random) {
        entry.probability *= 1.0 - weight * full / associativity;
      } else if (entry.depth + 1.0 >= associativity) {
        entry.probability *= 1.0 - weight;
      } else {
        entry.depth += weight;
      }
    }
    prune(level, set);
  }
}

void History::begin() { journal_.emplace_back(); }

void History::commit() {
  assert(!journal_.empty() && "commit without begin");
  Snapshot top = std::move(journal_.back());
  journal_.pop_back();
  if (journal_.empty()) return;
  for (auto& [key, original] : top) journal_.back().try_emplace(key, std::move(original));
}

Snapshot History::rollback() {
  assert(!journal_.empty() && "rollback without begin");
  Snapshot top = std::move(journal_.back());
  journal_.pop_back();
  Snapshot ends;
  for (auto& [key, original] : top) {
    ends.emplace(key, std::move(set_of(key)));
    set_of(key) = std::move(original);
  }
  return ends;
}

double History::change_in_scope() const {
  assert(!journal_.empty() && "change_in_scope without begin");
  double change = 0.0;
  for (const auto& [key, original] : journal_.back()) {
    const SetHistory& now = levels_[key >> 40].set_histories[key & set_mask];
    const auto associativity = static_cast<double>(levels_[key >> 40].associativity);
    auto compare = [&](const SetHistory& from, const SetHistory& to, bool both_ways) {
      for (const Entry& entry : from) {
        const auto other = std::find_if(to.begin(), to.end(), [&](const Entry& e) { return e.line == entry.line; });
        if (other == to.end()) {
          change = std::max(change, entry.probability);
        } else if (both_ways) {
          change = std::max({change, std::abs(entry.probability - other->probability),
                             std::abs(entry.depth - other->depth) / associativity});
        }
      }
    };
    compare(original, now, true);
    compare(now, original, false);
  }
  return change;
}

// The seed: P_v = Σ_h p_h P_{v,h};  E[d_v|P_v] = Σ_h p_h P_{v,h} E[d_{v,h}|P_{v,h}] / P_v.
void History::combine(std::span<const std::pair<double, Snapshot>> outcomes, double rest) {
  std::unordered_set<SetKey> keys;
  for (const auto& outcome : outcomes) {
    for (const auto& [key, content] : outcome.second) keys.insert(key);
  }
  struct Sum {
    double probability = 0.0;
    double weighted_depth = 0.0;
    double tag_weight = -1.0;
    Tag tag;
  };
  for (const SetKey key : keys) {
    const SetHistory& current = set_of(key);
    std::unordered_map<std::uint64_t, Sum> sums;
    auto add = [&sums](const SetHistory& content, double weight) {
      for (const Entry& entry : content) {
        Sum& sum = sums[entry.line];
        sum.probability += weight * entry.probability;
        sum.weighted_depth += weight * entry.probability * entry.depth;
        if (weight * entry.probability > sum.tag_weight) {
          sum.tag_weight = weight * entry.probability;
          sum.tag = entry.tag;
        }
      }
    };
    for (const auto& [probability, snapshot] : outcomes) {
      const auto changed = snapshot.find(key);
      add(changed == snapshot.end() ? current : changed->second, probability);
    }
    if (rest > 0.0) add(current, rest);
    SetHistory combined;
    combined.reserve(sums.size());
    for (const auto& [line, sum] : sums) {
      if (sum.probability <= 0.0) continue;
      combined.push_back(Entry{line, std::min(1.0, sum.probability), sum.weighted_depth / sum.probability, sum.tag});
    }
    std::sort(combined.begin(), combined.end(), [](const Entry& a, const Entry& b) {
      return a.depth != b.depth ? a.depth < b.depth : a.line < b.line;
    });
    prune(static_cast<std::size_t>(key >> 40), combined);
    for (const Entry& entry : combined) note_sequence(key, entry.tag.sequence);
    touch(key) = std::move(combined);
  }
}

// The lines of `moves` are touched again at their new places (the iterations a jump skips touch them
// there): a copy at the new line, as recent as the original was; the originals stay, older than every line
// the loop touched; lines from before the loop (sequence below `minimum_sequence`) are older still.
void History::move_lines(std::span<const std::pair<std::pair<std::size_t, std::uint64_t>, std::uint64_t>> moves,
                         std::uint64_t minimum_sequence, std::span<const double> entered) {
  std::vector<std::pair<std::size_t, Entry>> copies;
  std::unordered_set<SetKey> affected;
  for (const auto& [from, to] : moves) {
    const Entry* original = find(from.first, from.second);
    if (original == nullptr || original->tag.sequence < minimum_sequence) continue;
    Entry copy = *original;
    copy.line = to;
    copies.emplace_back(from.first, copy);
    affected.insert(key_of(from.first, from.second));
  }
  for (const auto& [from, to] : moves) {
    SetHistory& set = touch(key_of(from.first, from.second));
    const auto original = find_line(set, from.second);
    if (original != set.end() && original->tag.sequence >= minimum_sequence) original->demoted = true;
  }
  for (const auto& [level, entry] : copies) {
    const SetKey key = key_of(level, entry.line);
    SetHistory& set = touch(key);
    const auto existing = find_line(set, entry.line);
    if (existing != set.end()) set.erase(existing);
    set.push_back(entry);
    note_sequence(key, entry.tag.sequence);
    affected.insert(key);
  }
  const auto older = [minimum_sequence](const Entry& entry) {
    return entry.tag.sequence < minimum_sequence ? 2 : entry.demoted ? 1 : 0;
  };
  for (const SetKey key : affected) {
    SetHistory& set = touch(key);
    stable_sort_small(set, [&](const Entry& a, const Entry& b) {
      const int rank_a = older(a), rank_b = older(b);
      return rank_a != rank_b ? rank_a < rank_b : a.depth < b.depth;
    });
    renormalise(set, levels_[key >> 40].associativity);
  }
  // The skipped iterations brought `entered[level]` lines into each level: the older lines age by as many
  // (spread over the sets) and leave the cache past the associativity.
  for (std::size_t level = 0; level < levels_.size() && level < entered.size(); ++level) {
    const Level& state = levels_[level];
    const double ageing = entered[level] / static_cast<double>(state.sets);
    if (ageing <= 0.0) continue;
    for (std::uint64_t set_index = 0; set_index < state.sets; ++set_index) {
      const SetKey key = (static_cast<std::uint64_t>(level) << 40) | set_index;
      const SetHistory& current = set_of(key);
      if (std::none_of(current.begin(), current.end(), [&](const Entry& entry) { return older(entry) != 0; })) continue;
      SetHistory& set = touch(key);
      for (Entry& entry : set) {
        if (older(entry) != 0) entry.depth += ageing;
      }
      std::erase_if(set, [&](const Entry& entry) { return entry.depth >= static_cast<double>(state.associativity); });
    }
  }
  for (const SetKey key : affected) {
    for (Entry& entry : set_of(key)) entry.demoted = false;
  }
}

const Entry* History::find(std::size_t level, std::uint64_t line) const {
  const SetKey key = key_of(level, line);
  const SetHistory& set = levels_[key >> 40].set_histories[key & set_mask];
  const auto found = std::find_if(set.begin(), set.end(), [line](const Entry& entry) { return entry.line == line; });
  return found == set.end() ? nullptr : &*found;
}

void renormalise(SetHistory& set, std::uint64_t associativity) {
  double more_recent = 0.0;
  for (Entry& entry : set) {
    entry.depth = more_recent;
    more_recent += entry.probability;
  }
  std::erase_if(set, [associativity](const Entry& entry) { return entry.depth >= static_cast<double>(associativity); });
}

}  // namespace augur::sim::cache::stochastic_detail
