// The actor simulator's timeline (simulate_run.hpp, docs/actors.md "The timeline"): a row per site, the work
// of its players as slices (context switch, compute, send, receive), messages as flows from the sender's site
// to the receiver's.
#include <string>
#include <vector>

#include "sim/actors/simulate_run.hpp"

namespace augur::sim::actors::detail {

void Run::name_rows() {
  if (timeline_ == nullptr) return;
  for (int site = 0; site < machine_.sites; ++site) timeline_->name_row(site, "site " + std::to_string(site));
}

void Run::trace_flow_start(Message& message) {
  message.flow_started = true;
  timeline_->flow_start(player(message.sender).site, kind_name(message.kind), "message", message.serial, engine_.now());
}

void Run::trace_flow_end(const Message& message, int site) {
  timeline_->flow_end(site, kind_name(message.kind), "message", message.serial, engine_.now());
}

// The slices of a work item that starts now on `site_id`: its context switch first, if any.
void Run::trace_work(int site_id, const Work& work, double switching, double duration) {
  const double now = engine_.now();
  if (switching > 0) timeline_->span(site_id, "switch to " + name_of(work.player), "switch", now, now + switching);
  const double start = now + switching;
  const double end = now + duration;
  switch (work.then) {
    case Then::Continue:
      timeline_->span(site_id, name_of(work.player) + " " + kind_name(player(work.player).activation.kind), "compute", start, end);
      break;
    case Then::SendAll: {
      std::vector<int>& outbox = player(work.player).outbox;
      timeline_->span(site_id, name_of(work.player) + " send " + kind_name(messages_[static_cast<std::size_t>(outbox.front())].kind), "send", start, end);
      for (const int message : outbox) begin_flow(messages_[static_cast<std::size_t>(message)]);
      break;
    }
    case Then::Deliver:
      timeline_->span(site_id, name_of(work.player) + " receive " + kind_name(messages_[static_cast<std::size_t>(work.message)].kind), "receive", start, end);
      break;
  }
}

}  // namespace augur::sim::actors::detail
