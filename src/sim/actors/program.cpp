// The actor-program language (docs/formats.md, "Actor programs"): a lexer over core::SourceText, a parser
// into a raw tree (statements holding core expressions), and a compiler that resolves names (parameters,
// message fields, variables, players, groups, types) into the flat code of program.hpp.
#include "sim/actors/program.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <set>

namespace augur::sim::actors {
namespace {

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

// The position of `name` in `names`, or -1.
int position_of(const std::vector<std::string>& names, const std::string& name) {
  const auto found = std::find(names.begin(), names.end(), name);
  return found == names.end() ? -1 : static_cast<int>(found - names.begin());
}

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The parser of the raw tree.
class Parser {
public:
  explicit Parser(const core::SourceText& source) : source_(source), text_(source.text()) {}

  RawProgram parse() {
    RawProgram program;
    for (skip(); position_ < text_.size(); skip()) {
      const std::size_t at = position_;
      const std::string word = name("'param', 'type', 'player', 'group' or 'start'");
      if (word == "param") {
        skip();
        const std::size_t name_at = position_;
        program.parameters.emplace_back(name("a parameter name"), nullptr);
        program.parameter_offsets.push_back(name_at);
        expect('=');
        program.parameters.back().second = expression();
      } else if (word == "type") {
        program.types.push_back(type());
      } else if (word == "player" || word == "group") {
        program.players.push_back(players(word == "group"));
      } else if (word == "start") {
        RawStart start;
        start.send = send(at);
        program.start.push_back(std::move(start));
      } else {
        source_.fail(at, "expected 'param', 'type', 'player', 'group' or 'start', found '" + word + "'");
      }
    }
    return program;
  }

private:
  // Skips blanks, newlines, ';' and comments (# to the end of the line).
  void skip() {
    while (position_ < text_.size()) {
      const char c = text_[position_];
      if (c == '#') {
        while (position_ < text_.size() && text_[position_] != '\n') ++position_;
      } else if (std::isspace(static_cast<unsigned char>(c)) != 0 || c == ';') {
        ++position_;
      } else {
        break;
      }
    }
  }

  [[noreturn]] void fail_here(const std::string& what) {
    if (position_ >= text_.size()) source_.fail(position_, "expected " + what + ", found the end of the file");
    source_.fail(position_, "expected " + what);
  }

  std::string name(const std::string& what) {
    skip();
    if (position_ >= text_.size() || !is_name_start(text_[position_])) fail_here(what);
    const std::size_t start = position_;
    while (position_ < text_.size() && is_name_char(text_[position_])) ++position_;
    return text_.substr(start, position_ - start);
  }

  bool peek(char c) {
    skip();
    return position_ < text_.size() && text_[position_] == c;
  }

  void expect(char c) {
    if (!peek(c)) fail_here(std::string("'") + c + "'");
    ++position_;
  }

  // The next word without consuming it ("" when none).
  std::string peek_word() {
    skip();
    std::size_t end = position_;
    while (end < text_.size() && is_name_char(text_[end])) ++end;
    return text_.substr(position_, end - position_);
  }

  ExpressionPointer expression() {
    skip();
    if (position_ >= text_.size()) fail_here("an expression");
    return core::parse_expression(source_, position_);
  }

  RawType type() {
    RawType type;
    type.offset = position_;
    skip();
    type.offset = position_;
    type.name = name("a type name");
    expect('{');
    while (!peek('}')) {
      const std::size_t at = position_;
      const std::string word = name("'var', 'on' or '}'");
      if (word == "var") {
        skip();
        type.variable_offsets.push_back(position_);
        type.variables.emplace_back(name("a variable name"), nullptr);
        expect('=');
        type.variables.back().second = expression();
      } else if (word == "on") {
        RawBehaviour behaviour;
        skip();
        behaviour.offset = position_;
        behaviour.kind = name("a message kind");
        behaviour.body = block();
        type.behaviours.push_back(std::move(behaviour));
      } else {
        source_.fail(at, "expected 'var', 'on' or '}', found '" + word + "'");
      }
    }
    ++position_;
    return type;
  }

  RawPlayers players(bool group) {
    RawPlayers players;
    skip();
    players.offset = position_;
    players.name = name(group ? "a group name" : "a player name");
    if (group) {
      expect('[');
      players.dimensions.push_back(expression());
      if (peek(',')) {
        ++position_;
        players.dimensions.push_back(expression());
      }
      expect(']');
    }
    expect(':');
    skip();
    players.type_offset = position_;
    players.type = name("a type name");
    return players;
  }

  std::vector<RawStatement> block() {
    expect('{');
    std::vector<RawStatement> statements;
    while (!peek('}')) statements.push_back(statement());
    ++position_;
    return statements;
  }

  RawStatement statement();
  RawStatement send(std::size_t at);
  RawTarget target();
  RawStatement condition(std::size_t at);

  const core::SourceText& source_;
  const std::string& text_;
  std::size_t position_ = 0;
};

RawStatement Parser::statement() {
  skip();
  const std::size_t at = position_;
  const std::string word = name("a statement or '}'");
  RawStatement statement;
  statement.offset = at;
  using Op = Instruction::Op;
  if (word == "compute") {
    statement.op = Op::Compute;
    statement.value = expression();
  } else if (word == "send") {
    return send(at);
  } else if (word == "create") {
    statement.op = Op::Create;
    statement.name = name("the created player's name");
    expect(':');
    skip();
    statement.type_offset = position_;
    statement.type = name("a type name");
  } else if (word == "loop") {
    statement.op = Op::LoopStart;
    statement.value = expression();
    statement.body = block();
  } else if (word == "branch" || word == "if") {
    if (word == "if") return condition(at);
    statement.op = Op::Branch;
    statement.value = expression();
    statement.body = block();
    if (peek_word() == "else") {
      position_ += 4;
      statement.otherwise = block();
    }
  } else if (word == "wait") {
    statement.op = Op::Wait;
    statement.name = name("a message kind");
    if (peek_word() == "count") {
      position_ += 5;
      statement.value = expression();
    }
  } else if (word == "stop") {
    statement.op = Op::Stop;
  } else if (peek('=')) {
    ++position_;
    statement.op = Op::Assign;
    statement.name = word;
    statement.value = expression();
  } else {
    source_.fail(at, "unknown statement '" + word + "' (compute, send, create, loop, branch, if, wait, stop or NAME = ...)");
  }
  return statement;
}

RawStatement Parser::condition(std::size_t at) {
  RawStatement statement;
  statement.op = Instruction::Op::If;
  statement.offset = at;
  statement.value = expression();
  skip();
  static const char* const comparisons[] = {"<=", ">=", "==", "!=", "<", ">"};
  for (const char* comparison : comparisons) {
    if (text_.compare(position_, std::char_traits<char>::length(comparison), comparison) == 0) {
      statement.comparison = comparison;
      position_ += statement.comparison.size();
      break;
    }
  }
  if (statement.comparison.empty()) fail_here("a comparison (<, <=, ==, !=, >, >=)");
  statement.right = expression();
  statement.body = block();
  if (peek_word() == "else") {
    position_ += 4;
    if (peek_word() == "if") {
      const std::size_t nested = position_;
      position_ += 2;
      statement.otherwise.push_back(condition(nested));
    } else {
      statement.otherwise = block();
    }
  }
  return statement;
}

// send KIND[(FIELD = E, ...)] [size E] to TARGET   (and start, the same without a sender)
RawStatement Parser::send(std::size_t at) {
  RawStatement statement;
  statement.op = Instruction::Op::Send;
  statement.offset = at;
  statement.name = name("a message kind");
  if (peek('(')) {
    ++position_;
    while (!peek(')')) {
      skip();
      statement.field_offsets.push_back(position_);
      statement.fields.emplace_back(name("a field name or ')'"), nullptr);
      expect('=');
      statement.fields.back().second = expression();
      if (!peek(',')) break;
      ++position_;
    }
    expect(')');
  }
  if (peek_word() == "size") {
    position_ += 4;
    statement.value = expression();
  }
  if (peek_word() != "to") fail_here("'size' or 'to'");
  position_ += 2;
  statement.target = target();
  return statement;
}

RawTarget Parser::target() {
  skip();
  RawTarget target;
  target.offset = position_;
  std::string word = name("a player, a group element, 'sender', 'parent', 'self' or 'all GROUP'");
  if (word == "sender") {
    target.kind = Target::Kind::Sender;
  } else if (word == "parent") {
    target.kind = Target::Kind::Parent;
  } else if (word == "self") {
    target.kind = Target::Kind::Self;
  } else if (word == "all") {
    target.kind = Target::Kind::All;
    skip();
    target.offset = position_;
    target.name = name("a group name");
  } else {
    target.name = word;
    if (peek('[')) {
      ++position_;
      target.kind = Target::Kind::Element;
      target.indices.push_back(expression());
      if (peek(',')) {
        ++position_;
        target.indices.push_back(expression());
      }
      expect(']');
    }
  }
  return target;
}

// ---- the compiler: names resolved, code flattened ----

class Compiler {
public:
  Compiler(const core::SourceText& source, Program& program) : source_(source), program_(program) {}

  void compile(RawProgram& raw, const std::map<std::string, double>& overrides);

private:
  int kind_of(const std::string& name) {
    for (std::size_t k = 0; k < program_.kinds.size(); ++k)
      if (program_.kinds[k].name == name) return static_cast<int>(k);
    program_.kinds.push_back({name, {}});
    return static_cast<int>(program_.kinds.size() - 1);
  }
  void field_of(int kind, const std::string& name) {
    auto& fields = program_.kinds[static_cast<std::size_t>(kind)].fields;
    if (position_of(fields, name) < 0) fields.push_back(name);
  }
  void collect_fields(const std::vector<RawStatement>& statements);
  void declare_players(const std::vector<RawPlayers>& raw);
  int type_named(const std::string& name, std::size_t offset) const {
    for (std::size_t t = 0; t < program_.types.size(); ++t)
      if (program_.types[t].name == name) return static_cast<int>(t);
    source_.fail(offset, "unknown player type '" + name + "'");
  }
  double constant(const Expression& expression) const { return core::evaluate(expression, parameters_, source_); }
  Value value(const Expression& expression) const;
  Value resolved(const Expression* expression, double otherwise) const {
    if (expression == nullptr) {
      Value number;
      number.number = otherwise;
      return number;
    }
    return value(*expression);
  }
  Target target(const RawTarget& raw) const;
  void statements(const std::vector<RawStatement>& raw);
  void statement(const RawStatement& raw);
  std::vector<std::pair<int, Value>> fields(const RawStatement& raw, int kind) const;

  const core::SourceText& source_;
  Program& program_;
  core::Bindings parameters_;
  // The behaviour being compiled.
  int type_ = -1;
  int kind_ = -1;
};

void Compiler::collect_fields(const std::vector<RawStatement>& statements) {
  for (const auto& statement : statements) {
    if (statement.op == Instruction::Op::Send) {
      const int kind = kind_of(statement.name);
      for (const auto& field : statement.fields) field_of(kind, field.first);
    }
    if (statement.op == Instruction::Op::Wait) kind_of(statement.name);
    collect_fields(statement.body);
    collect_fields(statement.otherwise);
  }
}

Value Compiler::value(const Expression& expression) const {
  using EK = Expression::Kind;
  Value result;
  result.offset = expression.offset;
  if (expression.kind == EK::Name) {
    const std::string& name = expression.name;
    if (parameters_.count(name) != 0) {
      result.number = parameters_.find(name)->second;
      return result;
    }
    const int field = kind_ >= 0 ? position_of(program_.kinds[static_cast<std::size_t>(kind_)].fields, name) : -1;
    const int variable = type_ >= 0 ? position_of(program_.types[static_cast<std::size_t>(type_)].variables, name) : -1;
    if (field >= 0 || variable >= 0) {
      result.kind = field >= 0 ? Value::Kind::Field : Value::Kind::Variable;
      result.slot = field >= 0 ? field : variable;
      return result;
    }
    if (type_ >= 0 && (name == "index" || name == "row" || name == "column")) {
      result.kind = name == "index" ? Value::Kind::Index : name == "row" ? Value::Kind::Row : Value::Kind::Column;
      return result;
    }
    std::string where = kind_ >= 0 ? ", a field of message '" + program_.kinds[static_cast<std::size_t>(kind_)].name + "'" : "";
    if (type_ >= 0) where += ", a variable of type '" + program_.types[static_cast<std::size_t>(type_)].name + "', index, row, column";
    source_.fail(expression.offset, "unknown name '" + name + "' (not a parameter" + where + ")");
  }
  if (expression.kind == EK::Constant) source_.fail(expression.offset, "'" + expression.name + "' is not a name of actor programs");
  static const std::map<EK, Value::Kind> kinds = {
      {EK::Negate, Value::Kind::Negate},     {EK::Add, Value::Kind::Add},       {EK::Subtract, Value::Kind::Subtract},
      {EK::Multiply, Value::Kind::Multiply}, {EK::Divide, Value::Kind::Divide}, {EK::Power, Value::Kind::Power},
      {EK::Call, Value::Kind::Call}};
  if (expression.kind == EK::Number) {
    result.number = expression.number;
    return result;
  }
  bool all_constant = true;
  for (const auto& operand : expression.operands) {
    result.operands.push_back(value(*operand));
    all_constant = all_constant && result.operands.back().constant();
  }
  if (all_constant) {  // folded: its names are parameters only
    result.number = constant(expression);
    result.operands.clear();
    return result;
  }
  result.kind = kinds.at(expression.kind);
  if (result.kind == Value::Kind::Call) {  // the name and the count of arguments checked now, on ones
    Expression probe;
    probe.kind = EK::Call;
    probe.name = expression.name;
    probe.offset = expression.offset;
    for (std::size_t i = 0; i < expression.operands.size(); ++i) {
      probe.operands.push_back(std::make_unique<Expression>());
      probe.operands.back()->number = 1.0;
    }
    (void)core::evaluate(probe, {}, source_);
    result.function = expression.name;
  }
  return result;
}

Target Compiler::target(const RawTarget& raw) const {
  Target target;
  target.kind = raw.kind;
  if (raw.kind == Target::Kind::Sender || raw.kind == Target::Kind::Parent || raw.kind == Target::Kind::Self) return target;
  for (std::size_t g = 0; g < program_.groups.size(); ++g) {
    if (program_.groups[g].name != raw.name) continue;
    if (raw.kind == Target::Kind::Player) source_.fail(raw.offset, "'" + raw.name + "' is a group: name an element (" + raw.name + "[i]) or all of it (all " + raw.name + ")");
    const std::size_t wanted = program_.groups[g].two_dimensional ? 2 : 1;
    if (raw.kind == Target::Kind::Element && raw.indices.size() != wanted)
      source_.fail(raw.offset, "group '" + raw.name + "' has " + std::to_string(wanted) + (wanted == 1 ? " dimension" : " dimensions"));
    target.group = static_cast<int>(g);
    for (const auto& index : raw.indices) target.indices.push_back(value(*index));
    return target;
  }
  if (raw.kind == Target::Kind::All || raw.kind == Target::Kind::Element) source_.fail(raw.offset, "unknown group '" + raw.name + "'");
  const int created = type_ >= 0 ? position_of(program_.types[static_cast<std::size_t>(type_)].created_names, raw.name) : -1;
  if (created >= 0) {
    target.kind = Target::Kind::Created;
    target.created = created;
    return target;
  }
  for (std::size_t p = 0; p < program_.players.size(); ++p) {
    if (program_.players[p].group < 0 && program_.players[p].name == raw.name) {
      target.player = static_cast<int>(p);
      return target;
    }
  }
  source_.fail(raw.offset, "unknown player '" + raw.name + "'");
}

std::vector<std::pair<int, Value>> Compiler::fields(const RawStatement& raw, int kind) const {
  std::vector<std::pair<int, Value>> result;
  std::set<std::string> seen;
  for (std::size_t f = 0; f < raw.fields.size(); ++f) {
    if (!seen.insert(raw.fields[f].first).second) source_.fail(raw.field_offsets[f], "field '" + raw.fields[f].first + "' given twice");
    result.emplace_back(position_of(program_.kinds[static_cast<std::size_t>(kind)].fields, raw.fields[f].first), value(*raw.fields[f].second));
  }
  return result;
}

void Compiler::statements(const std::vector<RawStatement>& raw) {
  for (const auto& statement : raw) this->statement(statement);
}

void Compiler::statement(const RawStatement& raw) {
  using Op = Instruction::Op;
  Instruction instruction;
  instruction.op = raw.op;
  instruction.offset = raw.offset;
  auto& code = program_.code;
  switch (raw.op) {
    case Op::Compute:
    case Op::Assign:
      instruction.value = value(*raw.value);
      if (raw.op == Op::Assign) {
        instruction.slot = position_of(program_.types[static_cast<std::size_t>(type_)].variables, raw.name);
        if (instruction.slot < 0) source_.fail(raw.offset, "unknown variable '" + raw.name + "' (declare it with 'var " + raw.name + " = ...' in the type)");
      }
      code.push_back(std::move(instruction));
      return;
    case Op::Send:
      instruction.kind = kind_of(raw.name);
      instruction.fields = fields(raw, instruction.kind);
      instruction.value = resolved(raw.value.get(), 0.0);
      instruction.target = target(raw.target);
      code.push_back(std::move(instruction));
      return;
    case Op::Create: {
      instruction.type = type_named(raw.type, raw.type_offset);
      auto& names = program_.types[static_cast<std::size_t>(type_)].created_names;
      instruction.slot = position_of(names, raw.name);
      if (instruction.slot < 0) {
        instruction.slot = static_cast<int>(names.size());
        names.push_back(raw.name);
      }
      code.push_back(std::move(instruction));
      return;
    }
    case Op::Wait:
      instruction.kind = kind_of(raw.name);
      instruction.value = resolved(raw.value.get(), 1.0);
      code.push_back(std::move(instruction));
      return;
    case Op::Stop:
      code.push_back(std::move(instruction));
      return;
    case Op::LoopStart: {
      instruction.value = value(*raw.value);
      const std::size_t start = code.size();
      code.push_back(std::move(instruction));
      statements(raw.body);
      Instruction end;
      end.op = Op::LoopEnd;
      end.offset = raw.offset;
      end.jump = static_cast<int>(start);
      code.push_back(std::move(end));
      code[start].jump = static_cast<int>(code.size());
      return;
    }
    default: {  // Branch, If
      instruction.value = value(*raw.value);
      if (raw.op == Op::If) {
        instruction.right = value(*raw.right);
        instruction.comparison = raw.comparison;
      }
      const std::size_t start = code.size();
      code.push_back(std::move(instruction));
      statements(raw.body);
      if (raw.otherwise.empty()) {
        code[start].jump = static_cast<int>(code.size());
        return;
      }
      const std::size_t jump = code.size();
      Instruction over;
      over.op = Op::Jump;
      over.offset = raw.offset;
      code.push_back(std::move(over));
      code[start].jump = static_cast<int>(code.size());
      statements(raw.otherwise);
      code[jump].jump = static_cast<int>(code.size());
      return;
    }
  }
}

// Groups and players, with their sizes evaluated (parameters only).
void Compiler::declare_players(const std::vector<RawPlayers>& raw) {
  std::set<std::string> names;
  for (const auto& players : raw) {
    if (!names.insert(players.name).second) source_.fail(players.offset, "player or group '" + players.name + "' declared twice");
    const int type = type_named(players.type, players.type_offset);
    if (players.dimensions.empty()) {
      program_.players.push_back({players.name, type, -1, {}});
      continue;
    }
    std::vector<int> sizes;
    for (const auto& dimension : players.dimensions) {
      const double size = constant(*dimension);
      if (size < 1 || size > 1e6 || size != std::floor(size)) source_.fail(dimension->offset, "a group's size must be a whole number from 1 to 1000000, not " + core::format_shortest(size));
      sizes.push_back(static_cast<int>(size));
    }
    Group group{players.name, static_cast<int>(program_.players.size()), sizes.size() == 2 ? sizes[0] : 1,
                sizes.size() == 2 ? sizes[1] : sizes[0], sizes.size() == 2};
    if (static_cast<double>(group.rows) * group.columns + static_cast<double>(program_.players.size()) > 1e6) source_.fail(players.offset, "more than 1000000 players");
    const int group_index = static_cast<int>(program_.groups.size());
    for (int r = 0; r < group.rows; ++r) {
      for (int c = 0; c < group.columns; ++c) {
        const int index = r * group.columns + c;
        std::string name = players.name + "[" + (group.two_dimensional ? std::to_string(r) + "," + std::to_string(c) : std::to_string(index)) + "]";
        program_.players.push_back({std::move(name), type, group_index, {double(index), double(r), double(c)}});
      }
    }
    program_.groups.push_back(group);
  }
}

void Compiler::compile(RawProgram& raw, const std::map<std::string, double>& overrides) {
  for (std::size_t p = 0; p < raw.parameters.size(); ++p) {
    const auto& [name, expression] = raw.parameters[p];
    if (parameters_.count(name) != 0) source_.fail(raw.parameter_offsets[p], "parameter '" + name + "' declared twice");
    const auto given = overrides.find(name);
    parameters_[name] = given != overrides.end() ? given->second : constant(*expression);
  }
  for (const auto& [name, value] : overrides) {
    if (parameters_.count(name) == 0) throw core::InputError({"--set", 0, 0}, "the program has no parameter '" + name + "'");
  }
  program_.parameters.insert(parameters_.begin(), parameters_.end());
  for (const auto& type : raw.types) {
    if (std::any_of(program_.types.begin(), program_.types.end(), [&](const PlayerType& t) { return t.name == type.name; }))
      source_.fail(type.offset, "type '" + type.name + "' declared twice");
    PlayerType compiled;
    compiled.name = type.name;
    compiled.offset = type.offset;
    for (std::size_t v = 0; v < type.variables.size(); ++v) {
      const auto& name = type.variables[v].first;
      if (std::find(compiled.variables.begin(), compiled.variables.end(), name) != compiled.variables.end() || parameters_.count(name) != 0)
        source_.fail(type.variable_offsets[v], "variable '" + name + "' declared twice (or a parameter's name)");
      compiled.variables.push_back(name);
      compiled.initial.push_back(constant(*type.variables[v].second));
    }
    program_.types.push_back(std::move(compiled));
    for (const auto& behaviour : type.behaviours) collect_fields(behaviour.body);
  }
  for (const auto& start : raw.start) {
    const int kind = kind_of(start.send.name);
    for (const auto& field : start.send.fields) field_of(kind, field.first);
  }
  declare_players(raw.players);
  for (std::size_t t = 0; t < raw.types.size(); ++t) {
    type_ = static_cast<int>(t);
    for (const auto& behaviour : raw.types[t].behaviours) {
      kind_ = kind_of(behaviour.kind);
      auto& behaviours = program_.types[t].behaviours;
      if (behaviours.count(kind_) != 0) source_.fail(behaviour.offset, "a second behaviour on '" + behaviour.kind + "' in type '" + raw.types[t].name + "'");
      behaviours[kind_] = static_cast<int>(program_.code.size());
      statements(behaviour.body);
      Instruction end;
      end.op = Instruction::Op::End;
      end.offset = behaviour.offset;
      program_.code.push_back(std::move(end));
    }
  }
  type_ = -1;
  kind_ = -1;
  for (const auto& start : raw.start) {
    StartMessage message;
    message.kind = kind_of(start.send.name);
    message.fields = fields(start.send, message.kind);
    message.size = resolved(start.send.value.get(), 0.0);
    message.target = target(start.send.target);
    message.offset = start.send.offset;
    if (message.target.kind == Target::Kind::Sender || message.target.kind == Target::Kind::Parent || message.target.kind == Target::Kind::Self)
      source_.fail(start.send.target.offset, "a start message has no sender, parent or self: name a player or a group");
    program_.start.push_back(std::move(message));
  }
  if (program_.start.empty()) source_.fail(source_.text().size(), "the program sends no start message ('start KIND to PLAYER')");
}

double combine(const Value& value, double left, double right, const core::SourceText& source) {
  switch (value.kind) {
    case Value::Kind::Add: return left + right;
    case Value::Kind::Subtract: return left - right;
    case Value::Kind::Multiply: return left * right;
    case Value::Kind::Divide:
      if (right == 0.0) source.fail(value.offset, "division by zero");
      return left / right;
    default: return std::pow(left, right);
  }
}

double evaluate_unchecked(const Value& value, const Scope& scope, const core::SourceText& source);

// The functions of core/expression.hpp, on arguments whose count was checked when the program was read.
double call(const Value& value, const Scope& scope, const core::SourceText& source) {
  std::vector<double> arguments;
  for (const auto& operand : value.operands) arguments.push_back(evaluate_unchecked(operand, scope, source));
  const std::string& name = value.function;
  const double first = arguments[0];
  if (name == "sqrt") return std::sqrt(first);
  if (name == "log" || name == "log2") return std::log2(first);
  if (name == "ln") return std::log(first);
  if (name == "log10") return std::log10(first);
  if (name == "exp") return std::exp(first);
  if (name == "abs") return std::fabs(first);
  if (name == "pow") return std::pow(first, arguments[1]);
  const bool minimum = name == "min";
  return std::accumulate(arguments.begin(), arguments.end(), first, [minimum](double a, double b) { return minimum ? std::fmin(a, b) : std::fmax(a, b); });
}

double evaluate_unchecked(const Value& value, const Scope& scope, const core::SourceText& source) {
  switch (value.kind) {
    case Value::Kind::Number: return value.number;
    case Value::Kind::Field: return scope.fields[value.slot];
    case Value::Kind::Variable: return scope.variables[value.slot];
    case Value::Kind::Index: return scope.place.index;
    case Value::Kind::Row: return scope.place.row;
    case Value::Kind::Column: return scope.place.column;
    case Value::Kind::Negate: return -evaluate_unchecked(value.operands[0], scope, source);
    case Value::Kind::Call: return call(value, scope, source);
    default:
      return combine(value, evaluate_unchecked(value.operands[0], scope, source), evaluate_unchecked(value.operands[1], scope, source), source);
  }
}

}  // namespace

double evaluate(const Value& value, const Scope& scope, const core::SourceText& source) {
  const double result = evaluate_unchecked(value, scope, source);
  if (!std::isfinite(result)) source.fail(value.offset, "the value is not finite");
  return result;
}

Program parse_program(const std::string& text, const std::string& file, const std::map<std::string, double>& overrides) {
  Program program;
  program.source = std::make_unique<core::SourceText>(file, text);
  RawProgram raw = Parser(*program.source).parse();
  Compiler(*program.source, program).compile(raw, overrides);
  return program;
}

}  // namespace augur::sim::actors
