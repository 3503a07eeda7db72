// The program model of the cache methods (issue 17, seed 004 §2.2): arrays laid out in memory, procedures
// made of loops, static references, branches with probabilities and calls. One model feeds the exact
// expansion into an address trace (model_trace.hpp, `augur cache trace`) and the stochastic simulator
// (`augur cache predict`). The language is documented in docs/formats.md, "Program models".
//
// Everything here is plain data, fully resolved at parse time: parameters are numbers, names are indices,
// every index and bound is an affine form of the enclosing loops' variables with integer coefficients, and
// every array has its base address. A model that parse_model returns has passed every check (no index out
// of bounds on any iteration, probabilities in [0, 1], no unguarded recursion, ...), so its users need none.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"
#include "sim/cache/access.hpp"

namespace augur::sim::cache {

// constant + Σ_d coefficients[d] × x_d, where x_d is the variable of the loop at nesting depth d of the
// procedure the form belongs to (d = 0: the procedure's outermost loop). Forms never refer to another
// procedure's loops (a called procedure starts with no loop variables). `coefficients` may be shorter than
// the number of enclosing loops: missing coefficients are 0.
struct AffineForm {
  std::int64_t constant = 0;
  std::vector<std::int64_t> coefficients;

  // The value at the loop variables `variables` (variables[d] = x_d; at least coefficients.size() of them).
  [[nodiscard]] std::int64_t evaluate(std::span<const std::int64_t> variables) const {
    std::int64_t value = constant;
    for (std::size_t d = 0; d < coefficients.size(); ++d) value += coefficients[d] * variables[d];
    return value;
  }
  [[nodiscard]] bool is_constant() const {
    for (const std::int64_t c : coefficients) {
      if (c != 0) return false;
    }
    return true;
  }
};

// A parameter (`param N = 1000`) with its final value (its default, or a --define).
struct ModelParameter {
  std::string name;
  double value = 0.0;
};

// `array m[N][N] element 8 align 64`. Arrays are laid out in declaration order from address 0: each base is
// the end of the previous array rounded up to this array's alignment (the first array's base is 0).
struct ModelArray {
  std::string name;
  std::uint32_t element_size = 8;        // bytes per element (1..16383: an access's size in the trace word)
  std::vector<std::int64_t> dimensions;  // row-major extents, each ≥ 1; empty for a scalar (`array s element 8`)
  std::uint64_t alignment = 64;          // base alignment in bytes, a power of two
  std::uint64_t base = 0;                // assigned base address (byte)
  std::uint64_t elements = 1;            // product of the dimensions
  std::uint64_t bytes = 0;               // elements × element_size
  core::SourceLocation declared;         // where the `array` line is
};

struct Statement;
using Block = std::vector<Statement>;  // statements run in order

// `read m[i][i + 1]`, `write a[0]`, or `read *m miss 0.5`.
struct Reference {
  AccessKind kind = AccessKind::Read;  // Read or Write (never Instruction)
  std::size_t array = 0;               // index into Model::arrays
  bool through_pointer = false;        // `*m`: the element touched is not known statically
  // Direct references: one affine index per dimension (row-major; empty for a scalar), and the byte address
  // they give, base + element_size × Σ_k index_k × Π_{j>k} dimensions[j], as an affine form of the same loop
  // variables. Every index stays within its dimension on every iteration (checked at parse time).
  std::vector<AffineForm> indices;
  AffineForm address;
  // Pointer references: the probability the seed's stochastic simulator states for a miss (`miss P`, in
  // [0, 1]). The exact expansion touches a uniformly random element of the array instead.
  double miss_probability = 0.0;
  std::size_t id = 0;          // the static reference's number: 0, 1, ... in order of appearance
  core::SourceLocation where;  // where `read`/`write` is
};

// `for i = first to last [step S]`: i takes first, first + S, ... while i ≤ last (S > 0) or i ≥ last (S < 0).
// Bounds are inclusive and may make the loop run zero times on some iterations of outer loops (a triangular
// nest), never on all of them (a loop that never runs is an error).
struct Loop {
  std::string variable;   // the loop variable's name (for messages)
  std::size_t depth = 0;  // nesting depth in its procedure: it is x_depth in the AffineForms
  AffineForm first;       // affine in the outer loops' variables (x_0 .. x_{depth-1})
  AffineForm last;
  std::int64_t step = 1;       // a nonzero constant
  Block body;                  // never empty
  core::SourceLocation where;  // where `for` is
};

// One arm of `if P` / `else if P` / `else`.
struct BranchArm {
  double probability = 0.0;  // the arm's probability; for `else`, 1 - the others' sum
  bool is_else = false;
  Block body;  // may be empty
  core::SourceLocation where;
};

// `if P ... else if Q ... else ... end`: at most one arm runs, arm k with probability arms[k].probability;
// without an `else`, none runs with probability 1 - Σ probabilities (the sum is ≤ 1).
struct Branch {
  std::vector<BranchArm> arms;
  core::SourceLocation where;
};

// `call helper`. When the call stack already holds Model::max_depth frames (main is the first frame), the
// call is skipped: the only way a recursive model ends for sure.
struct Call {
  std::size_t procedure = 0;  // index into Model::procedures
  bool recursive = false;     // the call is on a cycle of the call graph
  core::SourceLocation where;
};

// How many times `loop` runs at the outer loops' variables `variables` (0 when its bounds cross).
[[nodiscard]] inline std::int64_t trip_count(const Loop& loop, std::span<const std::int64_t> variables) {
  const std::int64_t first = loop.first.evaluate(variables);
  const std::int64_t last = loop.last.evaluate(variables);
  if (loop.step > 0) return last < first ? 0 : (last - first) / loop.step + 1;
  return last > first ? 0 : (first - last) / -loop.step + 1;
}

struct Statement {
  std::variant<Loop, Reference, Branch, Call> node;
};

// `proc name ... end`.
struct Procedure {
  std::string name;
  Block body;
  std::size_t loop_depth = 0;  // deepest loop nesting in the body (size of its variable array)
  core::SourceLocation declared;
};

struct Model {
  std::vector<ModelParameter> parameters;  // in declaration order
  std::vector<ModelArray> arrays;          // in declaration order (= address order)
  std::vector<Procedure> procedures;       // in declaration order
  std::size_t entry = 0;                   // index of `main` in procedures
  // Maximum number of active frames (`max_depth D`; main counts as one). Required when the call graph has a
  // cycle (every cycle must pass through a call under a branch); otherwise the number of procedures.
  std::size_t max_depth = 1;
  bool recursive = false;           // the call graph has a cycle
  std::size_t reference_count = 0;  // static references (Reference::id < reference_count)
  std::uint64_t footprint = 0;      // end address of the last array (bytes spanned by the layout)
};

// Parses and checks a model. `defines` override parameters' values (`--define N=V`); a define that names no
// parameter is an error reported under the file name "--define". Errors are core::InputError at the
// file:line:col of the fault (messages in docs/formats.md, "Program models").
[[nodiscard]] Model parse_model(const core::SourceText& source, const core::Bindings& defines);

}  // namespace augur::sim::cache
