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
    std::size_t next = 0;        // the next statement of `block` to run
    const Loop* loop = nullptr;  // a loop's body: at the block's end, the next iteration
    std::int64_t remaining = 0;  // iterations of `loop` after the current one
    std::size_t variables = 0;   // where the procedure's loop variables start in variables_
    bool procedure = false;      // a procedure's body: popping it ends a call
    bool direct = false;         // a loop body of references only (the fast path)
  };

  void run(const Statement& statement, Access*& out, const Access* end);
  void enter_loop(const Loop& loop);
  void enter_branch(const Branch& branch, Access*& out, const Access* end);
  void emit(const Reference& reference, std::size_t variables, Access*& out);
  void enter_call(const Call& call);
  void push_block(const Block& block, std::size_t variables, bool procedure);
  // Whole iterations of a loop body of references at once; returns the accesses written.
  std::size_t run_direct_iterations(Frame& frame, Access* out, std::size_t room);
  [[nodiscard]] Access pointer_access(const Reference& reference);

  const Model& model_;
  RandomStream random_;
  std::vector<Frame> stack_;
  std::vector<std::int64_t> variables_;  // the loop variables of every active procedure, stacked
  std::size_t active_calls_ = 0;         // procedure frames on the stack
  std::uint64_t skipped_calls_ = 0;
  // One reference of a loop body in run_direct_iterations: its next address and stride, or the pointer
  // reference to draw.
  struct DirectReference {
    const Reference* reference = nullptr;  // a reference through a pointer, else null
    std::int64_t address = 0;
    std::int64_t stride = 0;
    std::uint32_t size = 0;
    AccessKind kind = AccessKind::Read;
  };
  std::vector<DirectReference> scratch_;
};

}  // namespace augur::sim::cache
