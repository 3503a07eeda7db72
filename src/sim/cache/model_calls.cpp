// The program model's call graph: recursion is allowed only through a call under a branch, and only with a
// stated `max_depth` (docs/formats.md, "Program models").
#include "sim/cache/model_parser.hpp"

namespace augur::sim::cache {
namespace {

using Edges = std::vector<std::vector<std::pair<std::size_t, bool>>>;  // [caller] → (callee, guarded)

// reaches[a][b]: b is reachable from a through the edges kept by `keep` (every procedure reaches itself).
template <typename Keep>
std::vector<std::vector<bool>> reachability(const Edges& edges, Keep keep) {
  const std::size_t count = edges.size();
  std::vector<std::vector<bool>> reaches(count, std::vector<bool>(count, false));
  std::vector<std::size_t> stack;
  for (std::size_t from = 0; from < count; ++from) {
    reaches[from][from] = true;
    stack.assign(1, from);
    while (!stack.empty()) {
      const std::size_t at = stack.back();
      stack.pop_back();
      for (const auto& [callee, guarded] : edges[at]) {
        if (!keep(guarded) || reaches[from][callee]) continue;
        reaches[from][callee] = true;
        stack.push_back(callee);
      }
    }
  }
  return reaches;
}

}  // namespace

void ModelParser::check_calls() {
  Edges edges(calls_.size());
  for (std::size_t caller = 0; caller < calls_.size(); ++caller) {
    for (const CallEdge& call : calls_[caller]) edges[caller].emplace_back(call.callee, call.guarded);
  }
  const auto all = reachability(edges, [](bool) { return true; });
  const auto unguarded = reachability(edges, [](bool guarded) { return !guarded; });
  const CallEdge* first_recursive = nullptr;
  for (std::size_t caller = 0; caller < calls_.size(); ++caller) {
    for (const CallEdge& call : calls_[caller]) {
      if (!call.guarded && unguarded[call.callee][caller]) {
        throw core::InputError(call.where,
                               "the recursion through this call of '" + model_.procedures[call.callee].name +
                                   "' is under no branch, so it never ends (put a call of the cycle under 'if P')");
      }
      if (all[call.callee][caller] && first_recursive == nullptr) first_recursive = &call;
    }
  }
  model_.recursive = first_recursive != nullptr;
  if (model_.recursive && stated_max_depth_ == 0) {
    throw core::InputError(first_recursive->where, "the recursive call of '" +
                                                       model_.procedures[first_recursive->callee].name +
                                                       "' needs a 'max_depth D' line to bound the call depth");
  }
  model_.max_depth = stated_max_depth_ != 0 ? stated_max_depth_ : std::max<std::size_t>(1, model_.procedures.size());
  for (std::size_t caller = 0; caller < model_.procedures.size(); ++caller) {
    mark_recursive_calls(model_.procedures[caller].body, all, caller);
  }
}

void ModelParser::mark_recursive_calls(Block& block, const std::vector<std::vector<bool>>& reaches,
                                       std::size_t caller) {
  for (Statement& statement : block) {
    if (auto* loop = std::get_if<Loop>(&statement.node)) {
      mark_recursive_calls(loop->body, reaches, caller);
    } else if (auto* branch = std::get_if<Branch>(&statement.node)) {
      for (BranchArm& arm : branch->arms) mark_recursive_calls(arm.body, reaches, caller);
    } else if (auto* call = std::get_if<Call>(&statement.node)) {
      call->recursive = reaches[call->procedure][caller];
    }
  }
}

}  // namespace augur::sim::cache
