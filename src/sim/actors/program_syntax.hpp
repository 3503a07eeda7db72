// The actor-program language's syntax (docs/formats.md, "Actor programs"): the raw tree a program's text
// parses into (statements holding core expressions, names not yet resolved) and its parser, a lexer over
// core::SourceText. program.cpp compiles the tree into the flat code of program.hpp. Private to sim/actors.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "augur/core/expression.hpp"
#include "sim/actors/program.hpp"

namespace augur::sim::actors::syntax {

using core::Expression;
using ExpressionPointer = std::unique_ptr<Expression>;

struct RawTarget {
  Target::Kind kind = Target::Kind::Player;
  std::string name;
  std::vector<ExpressionPointer> indices;
  std::size_t offset = 0;
};

struct RawStatement {
  Instruction::Op op = Instruction::Op::End;
  std::size_t offset = 0;
  ExpressionPointer value;
  ExpressionPointer right;
  std::string comparison;
  std::string name;  // Send, Wait: the kind; Create: the created name; Assign: the variable
  std::string type;  // Create
  std::size_t type_offset = 0;
  std::vector<std::pair<std::string, ExpressionPointer>> fields;
  std::vector<std::size_t> field_offsets;
  RawTarget target;
  std::vector<RawStatement> body;
  std::vector<RawStatement> otherwise;
};

struct RawBehaviour {
  std::string kind;
  std::size_t offset = 0;
  std::vector<RawStatement> body;
};

struct RawType {
  std::string name;
  std::size_t offset = 0;
  std::vector<std::pair<std::string, ExpressionPointer>> variables;
  std::vector<std::size_t> variable_offsets;
  std::vector<RawBehaviour> behaviours;
};

struct RawPlayers {
  std::string name;
  std::size_t offset = 0;
  std::vector<ExpressionPointer> dimensions;  // none: a single player
  std::string type;
  std::size_t type_offset = 0;
};

struct RawStart {
  RawStatement send;
};

struct RawProgram {
  std::vector<std::pair<std::string, ExpressionPointer>> parameters;
  std::vector<std::size_t> parameter_offsets;
  std::vector<RawType> types;
  std::vector<RawPlayers> players;
  std::vector<RawStart> start;
};

// Parses the whole text into the raw tree; errors are core::InputError at their place in `source`.
[[nodiscard]] RawProgram parse_syntax(const core::SourceText& source);

}  // namespace augur::sim::actors::syntax
