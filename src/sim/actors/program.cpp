// The actor-program language (docs/formats.md, "Actor programs"): the compiler that resolves the names of
// the raw tree (program_syntax.hpp: parameters, message fields, variables, players, groups, types) into the
// flat code of program.hpp, and the evaluation of its values.
#include "sim/actors/program.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "sim/actors/program_syntax.hpp"

namespace augur::sim::actors {
namespace {

using core::Expression;
using syntax::RawBehaviour;
using syntax::RawPlayers;
using syntax::RawProgram;
using syntax::RawStart;
using syntax::RawStatement;
using syntax::RawTarget;
using syntax::RawType;

// The position of `name` in `names`, or -1.
int position_of(const std::vector<std::string>& names, const std::string& name) {
  const auto found = std::find(names.begin(), names.end(), name);
  return found == names.end() ? -1 : static_cast<int>(found - names.begin());
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

}  // namespace

Program parse_program(const std::string& text, const std::string& file, const std::map<std::string, double>& overrides) {
  Program program;
  program.source = std::make_unique<core::SourceText>(file, text);
  RawProgram raw = syntax::parse_syntax(*program.source);
  Compiler(*program.source, program).compile(raw, overrides);
  return program;
}

}  // namespace augur::sim::actors
