// Wormhole switching (simulate_run.hpp, docs/actors.md "Wormhole"): a message's head takes the channels of
// its route one after the other, each when it is free (a channel's waiting heads in order of arrival), and
// reaches the next site `latency` after taking it; its body streams behind at the bandwidth of the slowest
// channel of the route, and its tail releases each channel once it has been sent onto it. A head that waits
// stops the whole worm (flits of no size, buffers of one flit): every channel behind it stays held, nothing
// moves, and the worm's clock stands still until the head takes its channel. Heads that wait for each other
// in a cycle never move: finish() reports them (worm_deadlock).
// Invariant: a channel with no holder has no waiting head (a release hands it to the first at once).
#include <algorithm>
#include <limits>

#include "sim/actors/simulate_run.hpp"

namespace augur::sim::actors::detail {

void Run::worm_inject(int id) {
  if (worms_.size() < messages_.size()) worms_.resize(messages_.size());
  Worm& worm = worms_[static_cast<std::size_t>(id)];
  const Message& message = messages_[static_cast<std::size_t>(id)];
  const int destination = player(message.receiver).site;
  worm.path.clear();
  worm.entered.clear();
  worm.rate = std::numeric_limits<double>::infinity();
  for (int at = player(message.sender).site; at != destination;) {
    const int c = machine_.next_channel(at, destination);
    const Channel& channel = machine_.channels[static_cast<std::size_t>(c)];
    worm.path.push_back(c);
    worm.rate = std::min(worm.rate, channel.bandwidth);
    at = channel.to;
  }
  worm.head = 0;
  worm.tail = 0;
  worm.offset = engine_.now();
  worm.blocked = false;
  worm.release_pending = false;
  ++worm.epoch;
  worm_request(id);
}

// The head is at a site (or leaving the sender's) and asks for the next channel of its route.
void Run::worm_request(int id) {
  Worm& worm = worms_[static_cast<std::size_t>(id)];
  ChannelState& channel = channels_[static_cast<std::size_t>(worm.path[worm.head])];
  if (channel.holder == nobody) return worm_take(id);
  worm.blocked = true;
  worm.blocked_since = engine_.now();
  worm.blocked_clock = engine_.now() - worm.offset;
  channel.waiting.push_back(id);
}

// The head takes path[head] now. After a wait the worm's clock resumes: the offset grows by the wait.
void Run::worm_take(int id) {
  Worm& worm = worms_[static_cast<std::size_t>(id)];
  const int c = worm.path[worm.head];
  ChannelState& state = channels_[static_cast<std::size_t>(c)];
  state.holder = id;
  state.held_since = engine_.now();
  ChannelResult& counts = result_.channels[static_cast<std::size_t>(c)];
  ++counts.messages;
  counts.traffic += messages_[static_cast<std::size_t>(id)].size;
  if (worm.blocked) {
    worm.blocked = false;
    worm.offset += engine_.now() - worm.blocked_since;
  }
  worm.entered.push_back(engine_.now() - worm.offset);
  ++worm.head;
  worm_schedule_release(id);
  engine_.schedule(machine_.channels[static_cast<std::size_t>(c)].latency, [this, id] { worm_arrive(id); });
}

void Run::worm_arrive(int id) {
  Worm& worm = worms_[static_cast<std::size_t>(id)];
  if (worm.head < worm.path.size()) return worm_request(id);
  // The head is at the receiver's site: the worm cannot stop any more; the tail follows size / rate later.
  worm_schedule_release(id);
  engine_.schedule(messages_[static_cast<std::size_t>(id)].size / worm.rate, [this, id] { worm_tail_arrives(id); });
}

// The tail is sent onto path[tail] size / rate after the head took it, by the worm's clock. The release is
// scheduled only when nothing can delay it: no later than the clock at which the head asks for its next
// channel (when it waits, no later than the start of the wait); a later one is scheduled when the head has
// taken that channel, or has reached the receiver's site. So no event is ever cancelled, and a worm stuck
// for good leaves none behind.
void Run::worm_schedule_release(int id) {
  Worm& worm = worms_[static_cast<std::size_t>(id)];
  if (worm.release_pending || worm.tail >= worm.head) return;
  const double clock = worm.entered[worm.tail] + messages_[static_cast<std::size_t>(id)].size / worm.rate;
  if (worm.head < worm.path.size()) {
    const double next_request =
        worm.blocked ? worm.blocked_clock : worm.entered.back() + machine_.channels[static_cast<std::size_t>(worm.path[worm.head - 1])].latency;
    if (clock > next_request) return;
  }
  worm.release_pending = true;
  engine_.schedule(std::max(0.0, clock + worm.offset - engine_.now()), [this, id, epoch = worm.epoch] {
    if (worms_[static_cast<std::size_t>(id)].epoch == epoch) worm_release(id);
  });
}

namespace {

// Frees a channel and returns the message whose head waited first for it (or nobody).
int free_channel(ChannelState& state, ChannelResult& counts, double now) {
  counts.busy += now - state.held_since;
  state.holder = nobody;
  if (state.waiting.empty()) return nobody;
  const int next = state.waiting.front();
  state.waiting.pop_front();
  return next;
}

}  // namespace

void Run::worm_release(int id) {
  Worm& worm = worms_[static_cast<std::size_t>(id)];
  worm.release_pending = false;
  const auto c = static_cast<std::size_t>(worm.path[worm.tail++]);
  const int next = free_channel(channels_[c], result_.channels[c], engine_.now());
  if (next != nobody) worm_take(next);
  worm_schedule_release(id);
}

// The whole message is at the receiver's site: the channels whose release falls now are freed here.
void Run::worm_tail_arrives(int id) {
  Worm& worm = worms_[static_cast<std::size_t>(id)];
  ++worm.epoch;
  worm.release_pending = false;
  while (worm.tail < worm.head) {
    const auto c = static_cast<std::size_t>(worm.path[worm.tail++]);
    const int next = free_channel(channels_[c], result_.channels[c], engine_.now());
    if (next != nobody) worm_take(next);
  }
  received(id);
}

std::string Run::describe_message(int id) const {
  const Message& message = messages_[static_cast<std::size_t>(id)];
  return "'" + kind_name(message.kind) + "' from " + name_of(message.sender) + " to " + name_of(message.receiver);
}

// Heads still waiting when no event is left wait in a cycle (each for a channel held by a worm that waits
// too), or behind one: a deadlock of the network, one entry per stuck message, by channel. The channels
// they hold count as busy until the end.
void Run::worm_deadlock() {
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    const Channel& channel = machine_.channels[c];
    if (channels_[c].holder != nobody) result_.channels[c].busy += engine_.now() - channels_[c].held_since;
    for (const int id : channels_[c].waiting) {
      const Message& message = messages_[static_cast<std::size_t>(id)];
      const auto location = source_.locate(message.sent_at);
      result_.deadlock.push_back({message.receiver, kind_name(message.kind), 0, 1,
                                  location.file + ":" + std::to_string(location.line) + ":" + std::to_string(location.column),
                                  std::to_string(channel.from) + "->" + std::to_string(channel.to), message.sender,
                                  describe_message(channels_[c].holder)});
    }
  }
}

}  // namespace augur::sim::actors::detail
