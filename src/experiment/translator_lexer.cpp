// The lexer of the CALL pragma translator (translator_lexer.hpp): splices lines, skips comments, strings,
// character literals, raw strings and numbers, and collects the directives and the identifiers of the code.
#include "translator_lexer.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "translator_text.hpp"

namespace augur::experiment::detail {
namespace {

// A character after line splicing (backslash-newline removed), with its offset in the original text.
struct Spliced {
  char c;
  std::size_t offset;
};

std::vector<Spliced> splice(const std::string& text) {
  std::vector<Spliced> result;
  result.reserve(text.size());
  for (std::size_t index = 0; index < text.size(); ++index) {
    if (text[index] == '\\') {
      // GCC also splices a backslash followed by blanks before the newline (with a warning).
      std::size_t next = index + 1;
      while (next < text.size() && (text[next] == ' ' || text[next] == '\t' || text[next] == '\r')) ++next;
      if (next < text.size() && text[next] == '\n') {
        index = next;
        continue;
      }
    }
    result.push_back({text[index], index});
  }
  return result;
}

class Lexer {
public:
  explicit Lexer(const std::string& text) : text_(text), chars_(splice(text)) {}

  Lexed run() {
    while (index_ < chars_.size()) step();
    if (in_directive_) finish_directive(text_.size());
    return std::move(lexed_);
  }

private:
  [[nodiscard]] char at(std::size_t index) const { return index < chars_.size() ? chars_[index].c : '\0'; }
  [[nodiscard]] std::size_t offset(std::size_t index) const { return index < chars_.size() ? chars_[index].offset : text_.size(); }

  void emit(char c, std::size_t where) {
    if (!in_directive_) return;
    directive_.text += c;
    directive_.offsets.push_back(where);
  }
  void consume() {
    emit(chars_[index_].c, chars_[index_].offset);
    ++index_;
  }

  void step() {
    const char c = at(index_);
    if (c == '\n') {
      if (in_directive_) finish_directive(offset(index_));
      at_line_start_ = true;
      ++index_;
      return;
    }
    if (is_blank(c)) {
      emit(' ', offset(index_));
      ++index_;
      return;
    }
    if (c == '/' && at(index_ + 1) == '/') {
      emit(' ', offset(index_));
      while (index_ < chars_.size() && at(index_) != '\n') ++index_;
      return;
    }
    if (c == '/' && at(index_ + 1) == '*') {
      // A comment is one blank: a directive may follow it on its line, and one may span lines.
      emit(' ', offset(index_));
      index_ += 2;
      while (index_ < chars_.size() && !(at(index_) == '*' && at(index_ + 1) == '/')) ++index_;
      index_ = std::min(index_ + 2, chars_.size());
      return;
    }
    const bool line_start = at_line_start_;
    at_line_start_ = false;
    if (c == '#' && line_start && !in_directive_) {
      in_directive_ = true;
      directive_ = Directive{};
      directive_.hash = offset(index_);
      directive_.context = context_;
      ++index_;
      return;
    }
    if (c == '"' || c == '\'') {
      quoted(c);
      token("");
      return;
    }
    if (is_digit(c) || (c == '.' && is_digit(at(index_ + 1)))) {
      number();
      token("");
      return;
    }
    if (is_identifier_start(c)) {
      identifier();
      return;
    }
    consume();
    punctuation(c);
  }

  // A string or character literal; an unterminated one ends at the end of its line.
  void quoted(char quote) {
    consume();
    quoted_rest(quote);
  }
  void quoted_rest(char quote) {
    while (index_ < chars_.size()) {
      const char c = at(index_);
      if (c == '\n') return;
      if (c == '\\') {
        consume();
        if (index_ < chars_.size() && at(index_) != '\n') consume();
        continue;
      }
      consume();
      if (c == quote) return;
    }
  }

  // R"delimiter( ... )delimiter"
  void raw_string() {
    consume();  // '"'
    std::string delimiter;
    while (index_ < chars_.size() && at(index_) != '(' && delimiter.size() <= 16) {
      const char c = at(index_);
      if (c == '\n' || c == ' ' || c == ')' || c == '\\' || c == '"') break;
      delimiter += c;
      consume();
    }
    if (at(index_) != '(') {
      quoted_rest('"');  // not a raw string after all
      return;
    }
    consume();
    const std::string closing = ")" + delimiter + "\"";
    while (index_ < chars_.size()) {
      bool found = true;
      for (std::size_t k = 0; k < closing.size() && found; ++k) found = at(index_ + k) == closing[k];
      if (found) {
        for (std::size_t k = 0; k < closing.size(); ++k) consume();
        return;
      }
      consume();
    }
  }

  // A preprocessing number: 12, 0x1fp-3, 1e+5, 1'000'000.
  void number() {
    consume();
    while (index_ < chars_.size()) {
      const char c = at(index_);
      if ((c == '+' || c == '-') && std::string_view("eEpP").find(at(index_ - 1)) != std::string_view::npos) {
        consume();
      } else if (c == '\'' && is_identifier_char(at(index_ + 1))) {
        consume();
      } else if (is_identifier_char(c) || c == '.') {
        consume();
      } else {
        return;
      }
    }
  }

  void identifier() {
    const std::size_t start = index_;
    std::string name;
    while (index_ < chars_.size() && is_identifier_char(at(index_))) {
      name += at(index_);
      consume();
    }
    const char next = at(index_);
    if (next == '"' && (name == "R" || name == "LR" || name == "uR" || name == "UR" || name == "u8R")) {
      raw_string();
      token("");
      return;
    }
    if ((next == '"' || next == '\'') && (name == "L" || name == "u" || name == "U" || name == "u8")) {
      quoted(next);
      token("");
      return;
    }
    const Identifier found{name, offset(start)};
    if (in_directive_) {
      directive_.identifiers.push_back(found);
    } else {
      lexed_.identifiers.push_back(found);
    }
    token(name);
  }

  void punctuation(char c) {
    if (in_directive_) return;
    if (c == '(') {
      const bool control = previous_ == "if" || previous_ == "for" || previous_ == "while" || previous_ == "switch" ||
                           (previous_ == "constexpr" && before_previous_ == "if");
      parentheses_.push_back(control ? (previous_ == "constexpr" ? "if" : previous_) : "");
      token("(");
      return;
    }
    if (c == ')') {
      std::string keyword;
      if (!parentheses_.empty()) {
        keyword = parentheses_.back();
        parentheses_.pop_back();
      }
      token(")");
      context_.keyword = keyword;
      return;
    }
    token(std::string(1, c));
  }

  // A token of the code (outside directives): updates what precedes the next directive.
  void token(const std::string& text) {
    if (in_directive_) return;
    before_previous_ = previous_;
    previous_ = text;
    context_.keyword = text == "else" || text == "do" ? text : "";
  }

  void finish_directive(std::size_t end) {
    directive_.end = end;
    lexed_.directives.push_back(std::move(directive_));
    directive_ = Directive{};
    in_directive_ = false;
  }

  const std::string& text_;
  std::vector<Spliced> chars_;
  std::size_t index_ = 0;
  bool at_line_start_ = true;
  bool in_directive_ = false;
  Directive directive_;
  Context context_;
  std::string previous_;
  std::string before_previous_;
  std::vector<std::string> parentheses_;  // per open '(': the control keyword before it, or ""
  Lexed lexed_;
};

}  // namespace

Lexed lex(const std::string& text) { return Lexer(text).run(); }

}  // namespace augur::experiment::detail
