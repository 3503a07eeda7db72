// The machine file (docs/formats.md, "Machines"): one setting a line, the topology built and routed.
#include "sim/actors/machine.hpp"

#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "augur/core/expression.hpp"

namespace augur::sim::actors {
namespace {

// A full machine has sites² channels, each with its queues in the simulation: 1024 sites took 800 MB, 256 take
// some 50 MB.
constexpr int maximum_full_sites = 256;

struct Word {
  std::string text;
  std::size_t offset = 0;
};

std::vector<Word> words_of(const std::string& text, std::size_t begin, std::size_t end) {
  std::vector<Word> words;
  std::size_t position = begin;
  while (position < end) {
    while (position < end && (text[position] == ' ' || text[position] == '\t' || text[position] == '\r')) ++position;
    if (position >= end || text[position] == '#') break;
    const std::size_t start = position;
    while (position < end && text[position] != ' ' && text[position] != '\t' && text[position] != '\r' && text[position] != '#') ++position;
    words.push_back({text.substr(start, position - start), start});
  }
  return words;
}

struct LinkSetting {
  int a = 0;
  int b = 0;
  std::optional<double> latency;
  std::optional<double> bandwidth;
  std::size_t offset = 0;
};

struct SiteSetting {
  int site = 0;
  std::optional<double> speed;
  std::optional<double> context_switch;
  std::size_t offset = 0;
};

class MachineReader {
public:
  MachineReader(const std::string& text, const std::string& file) : source_(file, text) {}

  Machine read() {
    const std::string& text = source_.text();
    for (std::size_t begin = 0; begin <= text.size();) {
      std::size_t end = text.find('\n', begin);
      if (end == std::string::npos) end = text.size();
      const auto words = words_of(text, begin, end);
      if (!words.empty()) setting(words);
      begin = end + 1;
    }
    return build();
  }

private:
  double number(const Word& word, bool positive) const {
    char* end = nullptr;
    const double value = std::strtod(word.text.c_str(), &end);
    if (word.text.empty() || *end != '\0' || !std::isfinite(value)) source_.fail(word.offset, "expected a number, found '" + word.text + "'");
    if (positive ? value <= 0 : value < 0) source_.fail(word.offset, std::string("expected a number ") + (positive ? "above 0" : "of at least 0") + ", found '" + word.text + "'");
    return value;
  }
  int whole(const Word& word, int minimum, int maximum) const {
    const double value = number(word, false);
    if (value != std::floor(value) || value < minimum || value > maximum)
      source_.fail(word.offset, "expected a whole number from " + std::to_string(minimum) + " to " + std::to_string(maximum) + ", found '" + word.text + "'");
    return static_cast<int>(value);
  }
  void arguments(const std::vector<Word>& words, std::size_t count) const {
    if (words.size() < count + 1) source_.fail(words.back().offset + words.back().text.size(), "'" + words[0].text + "' needs " + std::to_string(count) + (count == 1 ? " value" : " values"));
    if (words.size() > count + 1) source_.fail(words[count + 1].offset, "unexpected '" + words[count + 1].text + "'");
  }
  // KEY VALUE pairs after the first `skip` words.
  std::map<std::string, double> options(const std::vector<Word>& words, std::size_t skip, const std::vector<std::string>& allowed, bool positive_all) const {
    std::map<std::string, double> result;
    for (std::size_t i = skip; i < words.size(); i += 2) {
      bool known = false;
      for (const auto& key : allowed) known = known || key == words[i].text;
      if (!known) source_.fail(words[i].offset, "unknown setting '" + words[i].text + "' here");
      if (i + 1 >= words.size()) source_.fail(words[i].offset + words[i].text.size(), "'" + words[i].text + "' needs a value");
      result[words[i].text] = number(words[i + 1], positive_all || (words[i].text != "latency" && words[i].text != "context-switch"));
    }
    return result;
  }

  void setting(const std::vector<Word>& words);
  void topology(const std::vector<Word>& words);
  Machine build();
  using Channels = std::map<std::pair<int, int>, std::size_t>;
  void connect(Machine& machine, Channels& index, int a, int b) const;
  void route_shortest(Machine& machine) const;
  void route_dimension_order(Machine& machine) const;
  int dimension_step(int from, int to) const;

  core::SourceText source_;
  std::string topology_;
  std::vector<int> shape_;
  std::size_t topology_offset_ = 0;
  bool has_topology_ = false;
  std::map<std::string, double> defaults_{{"speed", 1.0}, {"context-switch", 0.0}, {"send-overhead", 0.0},
                                          {"receive-overhead", 0.0}, {"latency", 0.0}, {"bandwidth", 1.0}};
  std::map<std::string, bool> seen_;
  std::string routing_ = "shortest";
  std::size_t routing_offset_ = 0;
  std::string switching_ = "store-and-forward";
  std::vector<LinkSetting> links_;
  std::vector<SiteSetting> sites_;
};

void MachineReader::setting(const std::vector<Word>& words) {
  const std::string& key = words[0].text;
  if (seen_[key] && key != "link" && key != "site") source_.fail(words[0].offset, "'" + key + "' given twice");
  seen_[key] = true;
  if (key == "topology") return topology(words);
  if (defaults_.count(key) != 0) {
    arguments(words, 1);
    defaults_[key] = number(words[1], key == "speed" || key == "bandwidth");
    return;
  }
  if (key == "routing") {
    arguments(words, 1);
    if (words[1].text != "shortest" && words[1].text != "dimension-order") source_.fail(words[1].offset, "routing is shortest or dimension-order, not '" + words[1].text + "'");
    routing_ = words[1].text;
    routing_offset_ = words[1].offset;
    return;
  }
  if (key == "switching") {
    arguments(words, 1);
    if (words[1].text != "store-and-forward" && words[1].text != "cut-through" && words[1].text != "wormhole")
      source_.fail(words[1].offset, "switching is store-and-forward, cut-through or wormhole, not '" + words[1].text + "'");
    switching_ = words[1].text;
    return;
  }
  if (key == "site") {
    if (words.size() < 2) source_.fail(words[0].offset + 4, "'site' needs a site number");
    SiteSetting site{whole(words[1], 0, 1 << 20), std::nullopt, std::nullopt, words[1].offset};
    const auto values = options(words, 2, {"speed", "context-switch"}, false);
    if (values.count("speed") != 0) site.speed = values.at("speed");
    if (values.count("context-switch") != 0) site.context_switch = values.at("context-switch");
    sites_.push_back(site);
    return;
  }
  if (key == "link") {
    if (words.size() < 3) source_.fail(words.back().offset + words.back().text.size(), "'link' needs two site numbers");
    LinkSetting link{whole(words[1], 0, 1 << 20), whole(words[2], 0, 1 << 20), std::nullopt, std::nullopt, words[1].offset};
    if (link.a == link.b) source_.fail(words[2].offset, "a link joins two different sites");
    const auto values = options(words, 3, {"latency", "bandwidth"}, false);
    if (values.count("latency") != 0) link.latency = values.at("latency");
    if (values.count("bandwidth") != 0) link.bandwidth = values.at("bandwidth");
    links_.push_back(link);
    return;
  }
  source_.fail(words[0].offset, "unknown setting '" + key + "' (topology, routing, switching, speed, context-switch, send-overhead, receive-overhead, latency, bandwidth, site, link)");
}

void MachineReader::topology(const std::vector<Word>& words) {
  if (words.size() < 2) source_.fail(words[0].offset + 8, "'topology' needs a kind: ring, mesh, torus, hypercube, full or links");
  topology_ = words[1].text;
  topology_offset_ = words[1].offset;
  has_topology_ = true;
  if (topology_ == "mesh" || topology_ == "torus") {
    arguments(words, 3);
    shape_ = {whole(words[2], 1, 4096), whole(words[3], 1, 4096)};
  } else if (topology_ == "hypercube") {
    arguments(words, 2);
    shape_ = {whole(words[2], 0, 12)};
  } else if (topology_ == "ring" || topology_ == "full" || topology_ == "links") {
    arguments(words, 2);
    shape_ = {whole(words[2], 1, topology_ == "full" ? 4096 : 1 << 20)};
  } else {
    source_.fail(words[1].offset, "unknown topology '" + topology_ + "' (ring N, mesh W H, torus W H, hypercube D, full N, links N)");
  }
  // The route of every pair of sites is kept: 4096 sites is 2^24 routes (ring 65536 asked for some 20 GB).
  if (topology_ != "hypercube" && static_cast<double>(shape_[0]) * (shape_.size() > 1 ? shape_[1] : 1) > 4096)
    source_.fail(words[2].offset, "more than 4096 sites (the route of every pair is kept)");
}

void MachineReader::connect(Machine& machine, Channels& index, int a, int b) const {
  if (!index.try_emplace({a, b}, machine.channels.size()).second) return;  // a ring of 2, a torus of width 2: one link
  index.try_emplace({b, a}, machine.channels.size() + 1);
  machine.channels.push_back({a, b, defaults_.at("latency"), defaults_.at("bandwidth")});
  machine.channels.push_back({b, a, defaults_.at("latency"), defaults_.at("bandwidth")});
}

Machine MachineReader::build() {
  if (!has_topology_) source_.fail(source_.text().size(), "the machine has no 'topology' line");
  Machine machine;
  machine.topology = topology_;
  machine.routing = routing_;
  machine.switching = switching_;
  machine.cut_through = switching_ == "cut-through";
  machine.wormhole = switching_ == "wormhole";
  const bool grid = topology_ == "mesh" || topology_ == "torus";
  machine.sites = grid ? shape_[0] * shape_[1] : topology_ == "hypercube" ? 1 << shape_[0] : shape_[0];
  const int n = machine.sites;
  if (topology_ == "full" && n > maximum_full_sites)
    source_.fail(topology_offset_, "a full machine has at most " + std::to_string(maximum_full_sites) + " sites (every pair is a link)");
  Channels index;  // (from, to) -> channel
  if (grid) {
    const int width = shape_[0];
    const int height = shape_[1];
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        if (x + 1 < width || (topology_ == "torus" && width > 2)) connect(machine, index, y * width + x, y * width + (x + 1) % width);
        if (y + 1 < height || (topology_ == "torus" && height > 2)) connect(machine, index, y * width + x, ((y + 1) % height) * width + x);
      }
    }
  } else if (topology_ == "hypercube") {
    for (int a = 0; a < n; ++a)
      for (int bit = 0; bit < shape_[0]; ++bit)
        if ((a ^ (1 << bit)) > a) connect(machine, index, a, a ^ (1 << bit));
  } else if (topology_ == "ring") {
    for (int a = 0; a < n && n > 1; ++a) connect(machine, index, a, (a + 1) % n);
  } else if (topology_ == "full") {
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) connect(machine, index, a, b);
  }
  for (const auto& link : links_) {
    if (link.a >= n || link.b >= n) source_.fail(link.offset, "no site " + std::to_string(std::max(link.a, link.b)) + " (the machine has " + std::to_string(n) + ")");
    const auto found = index.find({link.a, link.b});
    if (found == index.end()) {
      if (topology_ != "links") source_.fail(link.offset, "no link between sites " + std::to_string(link.a) + " and " + std::to_string(link.b) + " in this " + topology_ + " (explicit links need 'topology links N')");
      connect(machine, index, link.a, link.b);
    }
    for (const std::size_t c : {index.at({link.a, link.b}), index.at({link.b, link.a})}) {
      if (link.latency) machine.channels[c].latency = *link.latency;
      if (link.bandwidth) machine.channels[c].bandwidth = *link.bandwidth;
    }
  }
  machine.speed.assign(static_cast<std::size_t>(n), defaults_.at("speed"));
  machine.context_switch.assign(static_cast<std::size_t>(n), defaults_.at("context-switch"));
  for (const auto& site : sites_) {
    if (site.site >= n) source_.fail(site.offset, "no site " + std::to_string(site.site) + " (the machine has " + std::to_string(n) + ")");
    if (site.speed) {
      if (*site.speed <= 0) source_.fail(site.offset, "a site's speed must be above 0");
      machine.speed[static_cast<std::size_t>(site.site)] = *site.speed;
    }
    if (site.context_switch) machine.context_switch[static_cast<std::size_t>(site.site)] = *site.context_switch;
  }
  machine.send_overhead = defaults_.at("send-overhead");
  machine.receive_overhead = defaults_.at("receive-overhead");
  if (routing_ == "dimension-order") {
    if (!grid && topology_ != "hypercube") source_.fail(routing_offset_, "dimension-order routing needs a mesh, a torus or a hypercube");
    route_dimension_order(machine);
  } else if (topology_ == "full") {
    // Every pair joined: the shortest route is the pair's own channel (a search from every site would cost
    // sites × channels, sites³).
    machine.route.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), -1);
    for (const auto& [pair, c] : index) machine.route[static_cast<std::size_t>(pair.first) * static_cast<std::size_t>(n) + static_cast<std::size_t>(pair.second)] = static_cast<int>(c);
  } else {
    route_shortest(machine);
  }
  return machine;
}

// Fewest channels; among equal routes, the neighbour with the lowest number first.
void MachineReader::route_shortest(Machine& machine) const {
  const int n = machine.sites;
  std::vector<std::vector<int>> incoming(static_cast<std::size_t>(n));  // channels into each site
  for (std::size_t c = 0; c < machine.channels.size(); ++c) incoming[static_cast<std::size_t>(machine.channels[c].to)].push_back(static_cast<int>(c));
  machine.route.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), -1);
  std::vector<int> distance(static_cast<std::size_t>(n));
  for (int destination = 0; destination < n; ++destination) {
    std::fill(distance.begin(), distance.end(), -1);
    distance[static_cast<std::size_t>(destination)] = 0;
    std::deque<int> frontier{destination};
    while (!frontier.empty()) {
      const int site = frontier.front();
      frontier.pop_front();
      for (const int c : incoming[static_cast<std::size_t>(site)]) {
        const auto& channel = machine.channels[static_cast<std::size_t>(c)];
        auto& from_distance = distance[static_cast<std::size_t>(channel.from)];
        const std::size_t cell = static_cast<std::size_t>(channel.from) * static_cast<std::size_t>(n) + static_cast<std::size_t>(destination);
        if (from_distance < 0) {
          from_distance = distance[static_cast<std::size_t>(site)] + 1;
          machine.route[cell] = c;
          frontier.push_back(channel.from);
        } else if (from_distance == distance[static_cast<std::size_t>(site)] + 1 &&
                   machine.channels[static_cast<std::size_t>(machine.route[cell])].to > site) {
          machine.route[cell] = c;
        }
      }
    }
    for (int site = 0; site < n; ++site)
      if (distance[static_cast<std::size_t>(site)] < 0)
        source_.fail(topology_offset_, "the machine is not connected: site " + std::to_string(site) + " cannot reach site " + std::to_string(destination));
  }
}

// The next site on the dimension-order route: x then y on a mesh or torus (the shorter way round a torus,
// ties forward), the lowest differing bit first on a hypercube.
int MachineReader::dimension_step(int from, int to) const {
  if (topology_ == "hypercube") {
    const int differ = from ^ to;
    return from ^ (differ & -differ);
  }
  const int width = shape_[0];
  const int height = shape_[1];
  const auto step = [&](int at, int goal, int size) {
    if (topology_ == "mesh") return at + (goal > at ? 1 : -1);
    const int forward = ((goal - at) % size + size) % size;
    return forward <= size - forward ? (at + 1) % size : (at - 1 + size) % size;
  };
  const int x = from % width, y = from / width;
  if (x != to % width) return y * width + step(x, to % width, width);
  return step(y, to / width, height) * width + x;
}

void MachineReader::route_dimension_order(Machine& machine) const {
  const int n = machine.sites;
  std::map<std::pair<int, int>, int> channel_of;
  for (std::size_t c = 0; c < machine.channels.size(); ++c) channel_of[{machine.channels[c].from, machine.channels[c].to}] = static_cast<int>(c);
  machine.route.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), -1);
  for (int from = 0; from < n; ++from)
    for (int to = 0; to < n; ++to)
      if (from != to) machine.route[static_cast<std::size_t>(from) * static_cast<std::size_t>(n) + static_cast<std::size_t>(to)] = channel_of.at({from, dimension_step(from, to)});
}

}  // namespace

int Machine::hops(int from, int to) const {
  int count = 0;
  while (from != to) {
    from = channels[static_cast<std::size_t>(next_channel(from, to))].to;
    ++count;
  }
  return count;
}

Machine parse_machine(const std::string& text, const std::string& file) { return MachineReader(text, file).read(); }

}  // namespace augur::sim::actors
