// The exact expansion of a program model (model.hpp) into its address trace, streamed: an explicit stack of
// procedure, loop and branch-arm frames, never the whole trace in memory (issue 17, `augur cache trace`).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "augur/sim/engine.hpp"
#include "sim/cache/access.hpp"
#include "sim/cache/model.hpp"

namespace augur::sim::cache {

// Runs `main` as written: loops in order, every reference one access of its array's element size at its
// address; a branch picks its arm with one uniform draw from `random` (arm k when the draw falls in the k-th
// probability interval, none when it falls past the last); a reference through a pointer touches a
// uniformly random element of its array (one more draw); a call is skipped when Model::max_depth frames
// are active. The same model and random stream give the same trace. The model must outlive the source.
class ModelTrace final : public AccessSource {
public:
  ModelTrace(const Model& model, RandomStream random);
  std::size_t read(std::span<Access> buffer) override;

  // Calls skipped because the stack held Model::max_depth frames, so far.
  [[nodiscard]] std::uint64_t skipped_calls() const { return skipped_calls_; }

private:
  struct Frame {
    const Block* block = nullptr;
    std::size_t next = 0;                 // the next statement of `block` to run
    const Loop* loop = nullptr;           // a loop's body: at the block's end, the next iteration
    std::int64_t remaining = 0;           // iterations of `loop` after the current one
    std::size_t variables = 0;            // where the procedure's loop variables start in variables_
    bool procedure = false;               // a procedure's body: popping it ends a call
    bool direct = false;                  // the block holds direct references only (the fast path)
  };

  void run(const Statement& statement, Access*& out);
  void enter_loop(const Loop& loop);
  void enter_branch(const Branch& branch);
  void enter_call(const Call& call);
  void push_block(const Block& block, std::size_t variables, bool procedure);
  // Whole iterations of a direct loop body at once; returns the accesses written.
  std::size_t run_direct_iterations(Frame& frame, Access* out, std::size_t room);
  [[nodiscard]] Access pointer_access(const Reference& reference);

  const Model& model_;
  RandomStream random_;
  std::vector<Frame> stack_;
  std::vector<std::int64_t> variables_;   // the loop variables of every active procedure, stacked
  std::size_t active_calls_ = 0;          // procedure frames on the stack
  std::uint64_t skipped_calls_ = 0;
  std::vector<std::int64_t> addresses_;   // scratch of run_direct_iterations
};

}  // namespace augur::sim::cache
