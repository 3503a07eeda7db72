// The parser of the actor-program language into its raw tree (program_syntax.hpp).
#include "sim/actors/program_syntax.hpp"

#include <cctype>

namespace augur::sim::actors::syntax {
namespace {

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

}  // namespace

RawProgram parse_syntax(const core::SourceText& source) { return Parser(source).parse(); }

}  // namespace augur::sim::actors::syntax
