// The program model's parser (model.hpp's parse_model), split over model.cpp (lines, tokens, declarations),
// model_statements.cpp (procedures' statements) and model_calls.cpp (the call graph). Private to sim/cache.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "augur/core/expression.hpp"
#include "sim/cache/model.hpp"
#include "sim/cache/model_range.hpp"

namespace augur::sim::cache {

class ModelParser {
 public:
  ModelParser(const core::SourceText& source, const core::Bindings& defines);
  Model parse();

 private:
  // A line that carries something: [first, limit) is its text without the indentation, the comment and
  // trailing blanks; `start` is where the line starts (column 1).
  struct Line {
    std::size_t start = 0;
    std::size_t first = 0;
    std::size_t limit = 0;
    long number = 0;
  };

  // What a block's statements see: their procedure, the enclosing loops, whether they are under a branch.
  struct BlockContext {
    std::size_t procedure = 0;
    std::vector<std::string> loop_variables;  // [d] is x_d
    std::vector<LoopBounds> loops;            // [d] bounds x_d
    std::vector<double> magnitudes;           // [d] the largest |x_d| on any iteration
    bool guarded = false;                     // inside an arm of an `if`
    std::size_t deepest = 0;                  // the deepest loop nesting seen (Procedure::loop_depth)
    std::size_t nesting = 0;                  // loops and branches open around the block
  };

  // A call as the call-graph check needs it.
  struct CallEdge {
    std::size_t callee = 0;
    bool guarded = false;
    core::SourceLocation where;
  };

  // lines and tokens (model.cpp)
  void split_lines();
  [[nodiscard]] bool at_line() const;
  void begin_line();
  [[nodiscard]] core::SourceLocation locate(std::size_t offset) const;
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const;
  [[noreturn]] void fail_expected(const std::string& what);
  void skip_spaces();
  char peek();
  std::string peek_word();
  std::string word(const std::string& what);
  void expect_word(const std::string& keyword, const std::string& context);
  void expect_char(char c, const std::string& context);
  void expect_line_end(const std::string& after);
  std::string found_text();
  std::unique_ptr<core::Expression> expression(const std::string& what);
  double constant(const std::string& what);
  std::int64_t integer(const std::string& what, std::int64_t minimum, std::int64_t maximum);
  double probability(const std::string& what);

  // declarations (model.cpp)
  void declare_procedures();
  void check_new_name(const std::string& name, std::size_t at, const std::string& what);
  static bool is_keyword(const std::string& name);
  void parameter();
  void array();
  void place(ModelArray& array, std::size_t at);
  void procedure();
  void close_block(std::size_t opening, std::size_t opening_offset, const std::string& what);
  void finish();

  // statements (model_statements.cpp)
  Block block(BlockContext& context);
  Statement loop(BlockContext& context);
  double loop_magnitude(const Loop& loop, const BlockContext& context, std::size_t at);
  void check_loop_runs(const Loop& loop, const BlockContext& context, std::size_t at);
  void check_magnitude(const AffineForm& form, const BlockContext& context, std::size_t at, const std::string& what);
  Statement reference(const BlockContext& context, AccessKind kind);
  void direct_indices(Reference& reference, const ModelArray& array, const BlockContext& context);
  void check_index(const AffineForm& index, std::int64_t extent, std::size_t dimension, const ModelArray& array,
                   const BlockContext& context, std::size_t at);
  void address_of(Reference& reference, const ModelArray& array, std::size_t at);
  Statement branch(BlockContext& context);
  Statement call(const BlockContext& context);

  // the call graph (model_calls.cpp)
  void check_calls();
  void mark_recursive_calls(Block& block, const std::vector<std::vector<bool>>& reaches, std::size_t caller);

  const core::SourceText& source_;
  const std::string& text_;
  const core::Bindings& defines_;
  std::vector<Line> lines_;
  std::size_t line_ = 0;      // the line being read
  std::size_t position_ = 0;  // in text_, within the current line
  std::size_t limit_ = 0;     // the current line's limit
  Model model_;
  core::Bindings parameter_values_;
  std::map<std::string, std::size_t, std::less<>> array_index_;
  std::map<std::string, std::size_t, std::less<>> procedure_index_;
  std::vector<std::vector<CallEdge>> calls_;  // [caller], in the order of the text
  std::size_t stated_max_depth_ = 0;          // 0: no `max_depth` line
};

}  // namespace augur::sim::cache
