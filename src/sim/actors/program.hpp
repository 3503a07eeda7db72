// Actor programs (seed 004 §3, Axe's BDL): player types whose behaviours react to message kinds, an initial
// set of players and messages, and parameters. The language is in docs/formats.md, "Actor programs"; a
// program is parsed into flat code (instructions with jumps) that the simulator (simulate.hpp) interprets.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "augur/core/expression.hpp"

namespace augur::sim::actors {

// An expression of the program with its names resolved to slots, so that evaluating it binds nothing.
struct Value {
  enum class Kind { Number, Field, Variable, Index, Row, Column, Negate, Add, Subtract, Multiply, Divide, Power, Call };
  Kind kind = Kind::Number;
  double number = 0.0;  // Number
  int slot = 0;         // Field: the field's slot in its kind; Variable: the variable's slot in its type
  std::string function;  // Call: sqrt, log, log2, ln, log10, exp, abs, min, max or pow (checked when read)
  std::vector<Value> operands;
  std::size_t offset = 0;  // where it is in the program's text
  [[nodiscard]] bool constant() const { return kind == Kind::Number; }
};

// A player's place: a group element's index (row-major), and its row and column in a 2-D group.
struct Place {
  double index = 0;
  double row = 0;
  double column = 0;
};

// The values an expression may read while a behaviour runs.
struct Scope {
  const double* fields = nullptr;
  const double* variables = nullptr;
  Place place;
};

// Evaluates; a division by zero or a result that is not finite is an InputError at the expression.
[[nodiscard]] double evaluate(const Value& value, const Scope& scope, const core::SourceText& source);

// Where a message goes.
struct Target {
  enum class Kind { Player, Element, Sender, Parent, Self, Created, All };
  Kind kind = Kind::Player;
  int player = -1;              // Player: the static player
  int group = -1;               // Element, All: the group
  std::vector<Value> indices;   // Element: one or two (row, column)
  int created = -1;             // Created: the slot of the creating player's name for it
};

struct Instruction {
  enum class Op { Compute, Send, Create, LoopStart, LoopEnd, Branch, If, Jump, Wait, Assign, Stop, End };
  Op op = Op::End;
  std::size_t offset = 0;          // where the statement is in the text (for errors at run time)
  Value value;                     // Compute: work; Send: size; LoopStart: count; Branch: probability; Wait: count; Assign
  Value right;                     // If: the right side of the comparison
  std::string comparison;          // If: <, <=, ==, !=, >, >=
  int kind = -1;                   // Send, Wait: the message kind
  std::vector<std::pair<int, Value>> fields;  // Send: (field slot, value)
  Target target;                   // Send
  int type = -1;                   // Create: the player type
  int slot = -1;                   // Create: the created-name slot; Assign: the variable
  int jump = -1;                   // LoopStart, Branch, If: past the block (or to its else); LoopEnd: the loop start; Jump
};

struct PlayerType {
  std::string name;
  std::vector<std::string> variables;
  std::vector<double> initial;                 // the variables' initial values
  std::vector<std::string> created_names;      // the names its behaviours give to players they create
  std::map<int, int> behaviours;               // message kind -> first instruction in Program::code
  std::size_t offset = 0;
};

struct MessageKind {
  std::string name;
  std::vector<std::string> fields;
};

// A static player: a single one, or one element of a group (named "cell[2]" or "cell[1,3]").
struct Player {
  std::string name;
  int type = 0;
  int group = -1;  // -1: not an element of a group
  Place place;
};

struct Group {
  std::string name;
  int first = 0;   // its first player
  int rows = 0;    // 1-D groups: rows = 1
  int columns = 0;
  bool two_dimensional = false;
};

// A message sent when the program starts, from nobody.
struct StartMessage {
  int kind = -1;
  std::vector<std::pair<int, Value>> fields;
  Value size;
  Target target;
  std::size_t offset = 0;
};

struct Program {
  std::unique_ptr<core::SourceText> source;   // the text, for errors at run time
  std::map<std::string, double> parameters;  // their values after --set
  std::vector<PlayerType> types;
  std::vector<MessageKind> kinds;
  std::vector<Player> players;
  std::vector<Group> groups;
  std::vector<StartMessage> start;
  std::vector<Instruction> code;
};

// Parses a program; `overrides` are the --set values (a name the program does not declare as a parameter
// is an InputError located at `overrides_origin`, e.g. "--set"). Errors at file:line:col.
[[nodiscard]] Program parse_program(const std::string& text, const std::string& file,
                                    const std::map<std::string, double>& overrides = {});

}  // namespace augur::sim::actors
