// The series-parallel structure walked as time goes: which tasks start when the system starts and when a
// task ends. Private to augur_tspp (the exact method's chain and the decomposition method's).
#pragma once

#include <vector>

#include "augur/tspp.hpp"

namespace augur::tspp {

// The series-parallel structure, flattened: each node knows its parent and, in the depth-first order
// of the tasks, the range of its tasks (a group has ended when all of them have).
struct FlatNode {
  Node::Kind kind = Node::Kind::Task;
  int task = -1;
  int parent = -1;
  int place = 0;  // among the parent's children
  std::vector<int> children;
  int first_rank = 0;
  int end_rank = 0;
};

class StructureWalk {
public:
  explicit StructureWalk(const TaskSystem& system) : leaf_(system.tasks.size(), -1) { flatten(system.structure, -1, 0); }

  // Starts `node`: its first tasks are appended to `started` (depth-first order, the
  // simulator's order of simultaneous arrivals).
  void start(int node, std::vector<int>& started) const {
    const FlatNode& flat = nodes_[static_cast<std::size_t>(node)];
    if (flat.kind == Node::Kind::Task) {
      started.push_back(flat.task);
    } else if (flat.kind == Node::Kind::Serial) {
      start(flat.children.front(), started);
    } else {
      for (int child : flat.children) start(child, started);
    }
  }

  // After `task` has ended (has_ended(task) already true), the tasks that start now, appended to `started`.
  template <typename HasEnded>
  void after_end(int task, HasEnded has_ended, std::vector<int>& started) const {
    int node = leaf_[static_cast<std::size_t>(task)];
    while (true) {
      const int parent = nodes_[static_cast<std::size_t>(node)].parent;
      if (parent < 0) return;  // the whole system has ended
      const FlatNode& group = nodes_[static_cast<std::size_t>(parent)];
      if (group.kind == Node::Kind::Serial) {
        const auto next = static_cast<std::size_t>(nodes_[static_cast<std::size_t>(node)].place + 1);
        if (next < group.children.size()) {
          start(group.children[next], started);
          return;
        }
      } else {
        for (int rank = group.first_rank; rank < group.end_rank; ++rank) {
          if (!has_ended(task_at_rank_[static_cast<std::size_t>(rank)])) return;
        }
      }
      node = parent;
    }
  }

  static constexpr int root = 0;

private:
  std::vector<FlatNode> nodes_;
  std::vector<int> leaf_;          // task -> its node
  std::vector<int> task_at_rank_;  // depth-first order of the tasks

  int flatten(const Node& node, int parent, int place) {
    const int index = static_cast<int>(nodes_.size());
    nodes_.push_back({node.kind, node.task, parent, place, {}, static_cast<int>(task_at_rank_.size()), 0});
    if (node.kind == Node::Kind::Task) {
      leaf_[static_cast<std::size_t>(node.task)] = index;
      task_at_rank_.push_back(node.task);
    }
    for (std::size_t c = 0; c < node.children.size(); ++c) {
      const int child = flatten(node.children[c], index, static_cast<int>(c));
      nodes_[static_cast<std::size_t>(index)].children.push_back(child);
    }
    nodes_[static_cast<std::size_t>(index)].end_rank = static_cast<int>(task_at_rank_.size());
    return index;
  }
};

}  // namespace augur::tspp
