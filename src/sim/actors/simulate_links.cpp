// The actor simulator's links (simulate_run.hpp, docs/actors.md "The machine"): a message leaves its sender's
// site, reserves each channel of its route in turn and crosses it by store-and-forward or cut-through
// switching (wormhole: simulate_wormhole.cpp), and is received whole at its receiver's site.
#include <algorithm>

#include "sim/actors/simulate_run.hpp"

namespace augur::sim::actors::detail {

// Leaves the sender's site: local messages are delivered at once, others enter the network.
void Run::inject(int id) {
  Message& message = messages_[static_cast<std::size_t>(id)];
  begin_flow(message);
  message.tail_at = engine_.now();
  const int from = player(message.sender).site;
  const int to = player(message.receiver).site;
  if (from == to) {
    end_flow(message, to);
    engine_.schedule(0.0, [this, id] { deliver(id); });
  } else if (machine_.wormhole) {
    worm_inject(id);
  } else {
    hop(id, from);
  }
}

// The channel sends one message at a time, in order of arrival. Store-and-forward: the whole message
// crosses it, then the latency, and it is at the next site. Cut-through (virtual): the head goes on after
// the latency while the body streams behind it; the channel is held until the tail has crossed it, which
// is no sooner than the tail reached this site; a message whose next channel is busy waits whole here.
void Run::hop(int id, int at) {
  Message& message = messages_[static_cast<std::size_t>(id)];
  const int destination = player(message.receiver).site;
  const int c = machine_.next_channel(at, destination);
  const Channel& channel = machine_.channels[static_cast<std::size_t>(c)];
  ChannelState& state = channels_[static_cast<std::size_t>(c)];
  ChannelResult& counts = result_.channels[static_cast<std::size_t>(c)];
  const double start = std::max(engine_.now(), state.free_at);
  double transmission = message.size / channel.bandwidth;
  if (machine_.cut_through) transmission = std::max(start + transmission, message.tail_at) - start;
  state.free_at = start + transmission;
  ++counts.messages;
  counts.traffic += message.size;
  counts.busy += transmission;
  const int next = channel.to;
  message.tail_at = start + transmission + channel.latency;
  const double head_at = machine_.cut_through ? start + channel.latency : message.tail_at;
  engine_.schedule(head_at - engine_.now(), [this, id, next] { arrive(id, next); });
}

void Run::arrive(int id, int at) {
  const int receiver = messages_[static_cast<std::size_t>(id)].receiver;
  const int destination = player(receiver).site;
  if (at != destination) return hop(id, at);
  const double tail_at = messages_[static_cast<std::size_t>(id)].tail_at;
  if (machine_.cut_through && tail_at > engine_.now()) {  // the head is here; the message is when its tail is
    engine_.schedule(tail_at - engine_.now(), [this, id] { received(id); });
    return;
  }
  received(id);
}

// The whole message is at its receiver's site: its receive overhead, then its delivery.
void Run::received(int id) {
  const int receiver = messages_[static_cast<std::size_t>(id)].receiver;
  const int destination = player(receiver).site;
  end_flow(messages_[static_cast<std::size_t>(id)], destination);
  if (machine_.receive_overhead > 0) return submit(destination, {receiver, machine_.receive_overhead, Then::Deliver, id});
  deliver(id);
}

}  // namespace augur::sim::actors::detail
