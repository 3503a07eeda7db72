// The thread control of libaugur_ompt (docs/run.md, "The OMPT tool"): OMPT has no num_threads argument
// to change, so the baseline's processor count is set in the ICV nthreads-var of the encountering
// thread (omp_set_num_threads) at the parallel_begin callback, which libomp 14 reads after that
// callback to size the team. The ICV cannot be given back at parallel_end (libomp runs that callback
// before the encountering task is restored when the team had one thread, so the value set there is
// lost); it is given back at the next region's begin instead.
//
// Pure: the caller reads omp_get_max_threads() and calls omp_set_num_threads() with the answer.
#pragma once

#include <atomic>
#include <cstdint>

#include "augur/selfanalysis.hpp"

namespace augur::interpose {

class IcvThreadControl final : public selfanalysis::ThreadControl {
public:
  explicit IcvThreadControl(int allocation = 1) : allocation_(allocation) {}

  // Under a processor manager (docs/manager.md) the allocation is the manager's once it has decided one.
  int allocated_processors() override {
    const int managed = managed_ != nullptr ? managed_->load(std::memory_order_relaxed) : 0;
    if (managed > 0) allocation_ = managed;
    return allocation_;
  }
  // The manager's allocation word (null: unmanaged).
  void manage(const std::atomic<std::int32_t>* allocation) { managed_ = allocation; }
  void set_active_threads(int threads) override { active_ = threads; }
  bool stopped_since_last_call() override { return false; }

  // At a region's begin, before the engine sees it: `current` is omp_get_max_threads() on the
  // encountering thread. A value other than the one last left there is the program's own setting:
  // its new allocation P.
  void observe(int current) {
    if (current != (held_ != 0 ? held_ : allocation_)) {
      allocation_ = current;
      held_ = 0;
    }
  }

  // After the engine saw the region: the value to give to omp_set_num_threads before the team forms,
  // or 0 to leave the ICV as it is (`current`, as passed to observe).
  int decide(int current, bool in_iteration) {
    const int wanted = in_iteration && active_ > 0 && active_ != allocation_ ? active_ : allocation_;
    held_ = wanted != allocation_ ? wanted : 0;
    return wanted != current ? wanted : 0;
  }

  // The count last left in the ICV by decide that is not the program's (0: none).
  [[nodiscard]] int held() const { return held_; }

private:
  int allocation_;
  int active_ = 0;
  int held_ = 0;
  const std::atomic<std::int32_t>* managed_ = nullptr;
};

}  // namespace augur::interpose
