// The transient predictor's step 1 (docs/tspp.md, "The transient method"): at every bin, the service rate
// each task gets at each queuing centre from the generating function of the others present there.
#include <algorithm>

#include "transient_model.hpp"

namespace augur::tspp::transient_model {

// At each bin and queuing centre k, the number N of other tasks at k that a task i meets is the sum
// over the groups concurrent with i; its generating function E[x^N] is built over the structure:
// a task j contributes 1 - pi_jk + pi_jk x; a serial group's children are never there together,
// so it contributes 1 + sum (g_child - 1); a parallel group's children are taken as independent,
// so it contributes the product. Then the share of a server that i gets is E[min(1, c / (1 + N))]:
// for one server E[1 / (1 + N)] = integral over [0, 1] of E[x^N]; for c servers that, times c,
// corrected on the first c - 1 probabilities Pr(N = n) (the low coefficients, carried exactly).
void Transient::update_field() {
  // Windows: the bins where each subtree has someone (occupancy) and where its rates are kept.
  for (TaskModel& task : tasks_) {
    if (task.occ_hi < task.occ_lo) {
      task.fac_lo = 0;
      task.fac_hi = -1;
      continue;
    }
    const int margin = std::max(2, (task.occ_hi - task.occ_lo + 1) / 4);
    task.fac_lo = std::max(0, task.occ_lo - margin);
    task.fac_hi = std::min(bins_ - 1, task.occ_hi + margin);
    const auto length = static_cast<std::size_t>(task.fac_hi - task.fac_lo + 1);
    task.factor.assign(task.resources.size(), std::vector<double>(length, 1.0));
    task.others.assign(task.resources.size(), std::vector<double>(length, 0.0));
  }
  windows(root_);
  const FlatNode& root = nodes_[static_cast<std::size_t>(root_)];
  std::vector<double> identity(width_, 0.0);
  for (std::size_t k = 0; k < resources_; ++k) {
    if (servers_[k] == 0) continue;  // delay centre, or a server for everyone: no waiting
    resource_ = k;
    coefficients_ = servers_[k] > 1 && servers_[k] <= max_tracked_servers ? static_cast<std::size_t>(servers_[k] - 1) : 0;
    used_ = nodes_count() + 1 + coefficients_;
    std::fill(identity.begin(), identity.end(), 0.0);
    set_identity(identity.data());
    for (int n = root.fac_lo; n <= root.fac_hi; ++n) {
      bin_ = n;
      (void)up(root_);
      down(root_, identity.data());
    }
  }
}

void Transient::windows(int v) {
  FlatNode& node = nodes_[static_cast<std::size_t>(v)];
  if (node.kind == Node::Kind::Task) {
    const TaskModel& task = tasks_[static_cast<std::size_t>(node.task)];
    node.occ_lo = task.occ_lo;
    node.occ_hi = task.occ_hi;
    node.fac_lo = task.fac_lo;
    node.fac_hi = task.fac_hi;
    return;
  }
  node.occ_lo = node.fac_lo = bins_;
  node.occ_hi = node.fac_hi = -1;
  for (int child : node.children) {
    windows(child);
    const FlatNode& c = nodes_[static_cast<std::size_t>(child)];
    if (c.occ_hi >= c.occ_lo) {
      node.occ_lo = std::min(node.occ_lo, c.occ_lo);
      node.occ_hi = std::max(node.occ_hi, c.occ_hi);
    }
    if (c.fac_hi >= c.fac_lo) {
      node.fac_lo = std::min(node.fac_lo, c.fac_lo);
      node.fac_hi = std::max(node.fac_hi, c.fac_hi);
    }
  }
}

void Transient::set_identity(double* channel) const {
  for (std::size_t q = 0; q < nodes_count(); ++q) channel[q] = 1.0;
  channel[nodes_count()] = 0.0;
  for (std::size_t c = 0; c < coefficients_; ++c) channel[nodes_count() + 1 + c] = c == 0 ? 1.0 : 0.0;
}

// a <- a x b (independent counts: products of generating functions)
void Transient::multiply(double* a, const double* b) const {
  const std::size_t q_count = nodes_count();
  for (std::size_t q = 0; q < q_count; ++q) a[q] *= b[q];
  a[q_count] += b[q_count];
  double* low = a + q_count + 1;
  const double* other = b + q_count + 1;
  for (std::size_t c = coefficients_; c-- > 0;) {
    double sum = 0.0;
    for (std::size_t j = 0; j <= c; ++j) sum += low[j] * other[c - j];
    low[c] = sum;
  }
}

// a <- a + b - 1 (mutually exclusive presence: sums of generating functions)
void Transient::add_exclusive(double* a, const double* b) const {
  const std::size_t q_count = nodes_count();
  for (std::size_t q = 0; q < q_count; ++q) a[q] += b[q] - 1.0;
  a[q_count] += b[q_count];
  for (std::size_t c = 0; c < coefficients_; ++c) a[q_count + 1 + c] += b[q_count + 1 + c] - (c == 0 ? 1.0 : 0.0);
}

bool Transient::up(int v) {
  FlatNode& node = nodes_[static_cast<std::size_t>(v)];
  node.active = false;
  if (bin_ < node.occ_lo || bin_ > node.occ_hi || !node.uses[resource_]) return false;
  double* channel = channel_of(node);
  if (node.kind == Node::Kind::Task) {
    const TaskModel& task = tasks_[static_cast<std::size_t>(node.task)];
    const std::size_t slot = slot_of(task);
    const double present = std::min(1.0, task.occupancy[slot][static_cast<std::size_t>(bin_ - task.occ_lo)]);
    if (present < present_threshold) return false;
    for (std::size_t q = 0; q < nodes_count(); ++q) channel[q] = 1.0 - present + present * quadrature_.nodes[q];
    channel[nodes_count()] = present;
    for (std::size_t c = 0; c < coefficients_; ++c) channel[nodes_count() + 1 + c] = c == 0 ? 1.0 - present : c == 1 ? present : 0.0;
    node.active = true;
    return true;
  }
  for (int child : node.children) {
    if (!up(child)) continue;
    const double* from = channel_of(nodes_[static_cast<std::size_t>(child)]);
    if (!node.active) {
      std::copy(from, from + used_, channel);
      node.active = true;
    } else if (node.kind == Node::Kind::Serial) {
      add_exclusive(channel, from);
    } else {
      multiply(channel, from);
    }
  }
  return node.active;
}

// The task's slot of the current resource (it uses it: the callers check `uses`).
std::size_t Transient::slot_of(const TaskModel& task) const {
  return static_cast<std::size_t>(std::find(task.resources.begin(), task.resources.end(), static_cast<int>(resource_)) -
                                  task.resources.begin());
}

// `outside`: the channel of everyone concurrent with node v.
void Transient::down(int v, const double* outside) {
  const FlatNode& node = nodes_[static_cast<std::size_t>(v)];
  if (bin_ < node.fac_lo || bin_ > node.fac_hi || !node.uses[resource_]) return;
  if (node.kind == Node::Kind::Task) {
    TaskModel& task = tasks_[static_cast<std::size_t>(node.task)];
    const std::size_t slot = slot_of(task);
    const auto at = static_cast<std::size_t>(bin_ - task.fac_lo);
    task.factor[slot][at] = service_share(outside);
    task.others[slot][at] = outside[nodes_count()];
    return;
  }
  if (node.kind == Node::Kind::Serial) {
    for (int child : node.children) down(child, outside);
    return;
  }
  // Parallel: a child meets everyone outside the group and its active siblings. suffix[j] is the
  // product of the channels of the active children after j; `before` of those before j.
  const std::size_t count = node.children.size();
  int active_children = 0;
  std::size_t the_active = 0;
  for (std::size_t j = 0; j < count; ++j) {
    if (nodes_[static_cast<std::size_t>(node.children[j])].active) {
      ++active_children;
      the_active = j;
    }
  }
  if (active_children == 0) {  // nobody in the group is there: each child meets only the outside
    for (int child : node.children) down(child, outside);
    return;
  }
  double* base = scratch_.data() + node.scratch + width_;  // count + 3 channels
  if (active_children == 1) {  // the active child meets the outside; the others meet it too
    double* meets = base;
    std::copy(outside, outside + used_, meets);
    multiply(meets, scratch_.data() + nodes_[static_cast<std::size_t>(node.children[the_active])].scratch);
    for (std::size_t j = 0; j < count; ++j) down(node.children[j], j == the_active ? outside : meets);
    return;
  }
  double* suffix = base;
  set_identity(suffix + count * width_);
  for (std::size_t j = count; j-- > 0;) {
    double* here = suffix + j * width_;
    std::copy(suffix + (j + 1) * width_, suffix + (j + 1) * width_ + used_, here);
    const FlatNode& child = nodes_[static_cast<std::size_t>(node.children[j])];
    if (child.active) multiply(here, scratch_.data() + child.scratch);
  }
  double* before = suffix + (count + 1) * width_;
  double* meets = before + width_;
  std::copy(outside, outside + used_, before);
  for (std::size_t j = 0; j < count; ++j) {
    const FlatNode& child = nodes_[static_cast<std::size_t>(node.children[j])];
    std::copy(before, before + used_, meets);
    multiply(meets, suffix + (j + 1) * width_);
    down(node.children[j], meets);
    if (child.active) multiply(before, scratch_.data() + child.scratch);
  }
}

// E[min(1, c / (1 + N))] from N's channel: the share of a server a task gets at resource_.
double Transient::service_share(const double* others) const {
  const double servers = servers_[resource_];
  double integral = 0.0;  // E[1 / (1 + N)]
  for (std::size_t q = 0; q < nodes_count(); ++q) integral += quadrature_.weights[q] * others[q];
  double share = 0.0;
  if (servers_[resource_] == 1) {
    share = integral;
  } else if (coefficients_ > 0) {
    share = servers * integral;
    for (std::size_t n = 0; n < coefficients_; ++n) {
      share -= others[nodes_count() + 1 + n] * (servers / (static_cast<double>(n) + 1.0) - 1.0);
    }
  } else {
    share = servers / (1.0 + others[nodes_count()]);
  }
  return std::clamp(share, 1e-9, 1.0);
}

}  // namespace augur::tspp::transient_model
