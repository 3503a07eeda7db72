#include "experiment/translator.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "model/formula.hpp"

namespace augur::experiment {
namespace {

using core::Expression;

// ---- Characters ------------------------------------------------------------------------------------

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
// Identifier characters of the lexer: also '$' and the bytes of UTF-8 sequences, which GCC accepts.
bool is_identifier_start(char c) { return is_letter(c) || c == '$' || static_cast<unsigned char>(c) >= 0x80; }
bool is_identifier_char(char c) { return is_identifier_start(c) || is_digit(c); }

bool is_c_identifier(std::string_view text) {
  if (text.empty() || !is_letter(text.front())) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return is_letter(c) || is_digit(c); });
}

bool is_keyword(std::string_view word) {
  static const std::set<std::string_view> keywords{
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
      "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept", "const",
      "consteval", "constexpr", "constinit", "const_cast", "continue", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
      "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
      "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "restrict", "return",
      "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
      "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual",
      "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex",
      "_Generic", "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local"};
  return keywords.count(word) != 0;
}

// Macros that select what the C library declares: they only work before its first header.
bool is_feature_macro(std::string_view name) {
  const auto ends_with = [&](std::string_view suffix) {
    return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  return (name.size() > 1 && name[0] == '_' && ends_with("_SOURCE")) || name == "_FILE_OFFSET_BITS" || name == "_TIME_BITS" ||
         name == "_REENTRANT" || name == "_THREAD_SAFE" || name == "_FORTIFY_SOURCE" || name.rfind("__STDC_WANT_", 0) == 0 ||
         name == "__STDC_FORMAT_MACROS" || name == "__STDC_LIMIT_MACROS" || name == "__STDC_CONSTANT_MACROS";
}

// A C string literal of `text` (also good for the file name of #line).
std::string c_string(std::string_view text) {
  std::string result = "\"";
  for (std::size_t index = 0; index < text.size(); ++index) {
    const auto c = static_cast<unsigned char>(text[index]);
    if (c == '\\' || c == '"') {
      result += '\\';
      result += static_cast<char>(c);
    } else if (c == '\n') {
      result += "\\n";
    } else if (c == '\t') {
      result += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char octal[8];
      std::snprintf(octal, sizeof octal, "\\%03o", static_cast<unsigned>(c));
      result += octal;
    } else if (c == '?' && index + 1 < text.size() && text[index + 1] == '?') {
      result += "\\?";  // no trigraph
    } else {
      result += static_cast<char>(c);
    }
  }
  return result + "\"";
}

// ---- Places ----------------------------------------------------------------------------------------

// Line and column of offsets in the original text.
class Places {
public:
  explicit Places(const core::SourceText& source) : file_(source.file()) {
    line_starts_.push_back(0);
    const std::string& text = source.text();
    for (std::size_t index = 0; index < text.size(); ++index) {
      if (text[index] == '\n') line_starts_.push_back(index + 1);
    }
  }
  [[nodiscard]] core::SourceLocation locate(std::size_t offset) const {
    const auto next = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    const auto line = static_cast<long>(next - line_starts_.begin());
    return {file_, line, static_cast<long>(offset - line_starts_[static_cast<std::size_t>(line - 1)]) + 1};
  }
  [[nodiscard]] long line(std::size_t offset) const { return locate(offset).line; }

private:
  std::string file_;
  std::vector<std::size_t> line_starts_;
};

// ---- Lexing ----------------------------------------------------------------------------------------

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

// What the code just before a directive is: a pragma that begins an experiment there would be the
// whole body of an if/else/for/while/do without braces.
struct Context {
  std::string keyword;  // "else", "do", "if", "for", "while", "switch"; empty: anything else
};

struct Identifier {
  std::string name;
  std::size_t offset;
};

// A preprocessing directive: the text after '#' with comments as one blank, the offset of each byte.
struct Directive {
  std::size_t hash = 0;  // offset of '#'
  std::size_t end = 0;   // offset of the newline that ends it, or the size of the text
  std::string text;
  std::vector<std::size_t> offsets;
  Context context;
  std::vector<Identifier> identifiers;
};

struct Lexed {
  std::vector<Directive> directives;
  std::vector<Identifier> identifiers;  // of the code outside directives, in order
};

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

// ---- Pragmas ---------------------------------------------------------------------------------------

struct Word {
  std::string text;
  std::size_t offset = 0;  // in the original text
};

struct Pragma {
  enum class Kind { Begin, End, Report, ParallelMpi };
  Kind kind = Kind::Begin;
  std::size_t hash = 0;  // the text [hash, end) is replaced
  std::size_t end = 0;
  Context context;
  Word name;  // Begin, End
  // Begin: the formula as written (blank runs as one space) and the original offset of each byte.
  std::string formula;
  std::vector<std::size_t> formula_offsets;
  std::size_t formula_end = 0;
  // Report: the names, or none for 'all'.
  std::vector<Word> names;
  bool all = false;
  // ParallelMpi
  std::string communicator;
};

// Reads a directive's text.
class DirectiveReader {
public:
  explicit DirectiveReader(const Directive& directive) : directive_(directive) {}

  void skip_blanks() {
    while (position_ < size() && directive_.text[position_] == ' ') ++position_;
  }
  [[nodiscard]] bool at_end() {
    skip_blanks();
    return position_ >= size();
  }
  // The identifier at the position (after blanks), or an empty word.
  Word identifier() {
    skip_blanks();
    Word word{"", offset(position_)};
    while (position_ < size() && is_identifier_char(directive_.text[position_])) word.text += directive_.text[position_++];
    return word;
  }
  // The characters up to the next blank (after blanks).
  Word word(std::string_view separators = " ") {
    skip_blanks();
    while (position_ < size() && separators.find(directive_.text[position_]) != std::string_view::npos) ++position_;
    Word word{"", offset(position_)};
    while (position_ < size() && separators.find(directive_.text[position_]) == std::string_view::npos) word.text += directive_.text[position_++];
    return word;
  }
  [[nodiscard]] std::size_t position() const { return position_; }
  [[nodiscard]] std::size_t size() const { return directive_.text.size(); }
  // The original offset of a byte of the text, or of the end of the directive.
  [[nodiscard]] std::size_t offset(std::size_t position) const {
    if (position < size()) return directive_.offsets[position];
    // The end: just after the last byte that is not a blank (nor a comment).
    for (std::size_t last = size(); last > 0; --last) {
      if (directive_.text[last - 1] != ' ') return directive_.offsets[last - 1] + 1;
    }
    return directive_.hash + 1;
  }
  [[nodiscard]] const std::string& text() const { return directive_.text; }

private:
  const Directive& directive_;
  std::size_t position_ = 0;
};

class Translator {
public:
  explicit Translator(const core::SourceText& source) : source_(source), places_(source) {}

  Translation run() {
    Lexed lexed = Lexer(source_.text()).run();
    // Identifiers of the code and of the directives that stay (macros), in text order.
    std::vector<Identifier> identifiers = std::move(lexed.identifiers);
    bool included = false;  // an #include or a conditional came before: later feature macros are not copied
    for (const Directive& directive : lexed.directives) {
      if (read_directive(directive)) continue;
      identifiers.insert(identifiers.end(), directive.identifiers.begin(), directive.identifiers.end());
      DirectiveReader reader(directive);
      const std::string keyword = reader.identifier().text;
      if (keyword == "define" && !included && is_feature_macro(reader.identifier().text)) {
        std::string text = directive.text;
        while (!text.empty() && text.back() == ' ') text.pop_back();
        feature_macros_.push_back("#" + text);
      }
      if (keyword == "include" || keyword == "include_next" || keyword == "import" || keyword.rfind("if", 0) == 0) included = true;
    }
    for (const Identifier& identifier : identifiers) {
      auto [place, inserted] = first_use_.emplace(identifier.name, identifier.offset);
      if (!inserted) place->second = std::min(place->second, identifier.offset);
    }
    check();
    std::stable_sort(errors_.begin(), errors_.end(), [](const auto& left, const auto& right) { return left.first < right.first; });
    Translation translation;
    for (auto& [where, error] : errors_) translation.errors.push_back(std::move(error));
    for (const std::string& name : order_) {
      const Known& known = experiments_.at(name);
      translation.experiments.push_back({name, known.formula, known.variables, places_.locate(known.name_offset), known.begins});
    }
    translation.pragmas = static_cast<int>(pragmas_.size());
    translation.mpi = mpi_.has_value();
    translation.communicator = mpi_ ? mpi_->communicator : "";
    if (translation.ok()) translation.code = generate();
    return translation;
  }

private:
  struct Known {
    std::string formula;                 // as written at the first begin
    std::string canonical;               // Formula::text() of the first begin with a valid formula
    std::vector<std::string> variables;
    std::size_t name_offset = 0;
    std::size_t formula_offset = 0;
    int begins = 0;
    bool valid = false;
  };

  void error(std::size_t offset, const std::string& message) { errors_.emplace_back(offset, core::InputError(places_.locate(offset), message)); }

  // Returns true when the directive is one of ours (translated, or an error).
  bool read_directive(const Directive& directive) {
    DirectiveReader reader(directive);
    if (reader.identifier().text != "pragma") return false;
    const Word family = reader.identifier();
    if (family.text == "cll") {
      read_cll(directive, reader, family);
      return true;
    }
    if (family.text == "parallel") {
      const Word model = reader.identifier();
      if (model.text == "PUB") {
        error(model.offset, "'#pragma parallel PUB' is not supported: augur gathers the records of a parallel program "
                            "through MPI; write '#pragma parallel MPI [COMMUNICATOR]'");
        return true;
      }
      if (model.text != "MPI") return false;
      Pragma pragma = make(Pragma::Kind::ParallelMpi, directive);
      pragma.name = model;
      pragma.communicator = "MPI_COMM_WORLD";
      if (!reader.at_end()) {
        const Word communicator = reader.word();
        if (!is_c_identifier(communicator.text)) {
          error(communicator.offset, "expected the communicator (a C identifier, e.g. MPI_COMM_WORLD) after "
                                     "'#pragma parallel MPI' but found '" + communicator.text + "'");
          return true;
        }
        pragma.communicator = communicator.text;
        if (!reader.at_end()) {
          const Word extra = reader.word();
          error(extra.offset, "unexpected '" + extra.text + "' after '#pragma parallel MPI " + communicator.text + "'");
          return true;
        }
      }
      pragmas_.push_back(std::move(pragma));
      return true;
    }
    return false;
  }

  Pragma make(Pragma::Kind kind, const Directive& directive) {
    Pragma pragma;
    pragma.kind = kind;
    pragma.hash = directive.hash;
    pragma.end = directive.end;
    pragma.context = directive.context;
    return pragma;
  }

  void read_cll(const Directive& directive, DirectiveReader& reader, const Word& family) {
    if (reader.at_end()) {
      error(family.offset, "expected an experiment name, 'end' or 'report' after '#pragma cll'");
      return;
    }
    const Word first = reader.word();
    if (first.text == "end") {
      const Word name = reader.word();
      if (name.text.empty()) {
        error(name.offset, "expected the name of the experiment to end after '#pragma cll end'");
        return;
      }
      if (!is_c_identifier(name.text)) {
        error(name.offset, "'" + name.text + "' is not an experiment name (a C identifier)");
        return;
      }
      if (!reader.at_end()) {
        const Word extra = reader.word();
        error(extra.offset, "unexpected '" + extra.text + "' after '#pragma cll end " + name.text + "'");
        // Still an end, for the checks of balance.
      }
      Pragma pragma = make(Pragma::Kind::End, directive);
      pragma.name = name;
      pragmas_.push_back(std::move(pragma));
      return;
    }
    if (first.text == "report") {
      Pragma pragma = make(Pragma::Kind::Report, directive);
      bool bad = false;
      while (true) {
        const Word name = reader.word(" ,");
        if (name.text.empty()) break;
        if (!is_c_identifier(name.text)) {
          error(name.offset, "'" + name.text + "' is not an experiment name (a C identifier)");
          bad = true;
        }
        pragma.names.push_back(name);
      }
      if (pragma.names.empty()) {
        error(reader.offset(reader.size()), "expected 'all' or the names of experiments after '#pragma cll report'");
        return;
      }
      for (const Word& name : pragma.names) {
        if (name.text == "all" && pragma.names.size() > 1) {
          error(name.offset, "'all' stands alone: '#pragma cll report all' or '#pragma cll report NAME1 NAME2 ...'");
          bad = true;
        }
      }
      if (bad) return;
      if (pragma.names.front().text == "all") {
        pragma.all = true;
        pragma.names.clear();
      }
      pragmas_.push_back(std::move(pragma));
      return;
    }
    // #pragma cll NAME FORMULA
    if (!is_c_identifier(first.text)) {
      error(first.offset, "'" + first.text + "' is not an experiment name (a C identifier): write '#pragma cll NAME FORMULA'");
      return;
    }
    if (first.text == "all" || first.text == "values" || first.text == "declare") {
      error(first.offset, "the experiment name '" + first.text + "' is reserved (all, end, report, values, declare)");
      return;
    }
    Pragma pragma = make(Pragma::Kind::Begin, directive);
    pragma.name = first;
    reader.skip_blanks();
    for (std::size_t position = reader.position(); position < reader.size(); ++position) {
      const char c = reader.text()[position];
      if (c == ' ' && (pragma.formula.empty() || pragma.formula.back() == ' ')) continue;
      pragma.formula += c;
      pragma.formula_offsets.push_back(reader.offset(position));
    }
    while (!pragma.formula.empty() && pragma.formula.back() == ' ') {
      pragma.formula.pop_back();
      pragma.formula_offsets.pop_back();
    }
    if (pragma.formula.empty()) {
      error(reader.offset(reader.size()), "expected the complexity formula of experiment " + first.text + " after its name (e.g. " +
                                              first.text + "[0] + " + first.text + "[1]*N; for a constant time: " + first.text + "[0])");
      // Still an experiment, for the checks of balance.
    }
    pragma.formula_end = pragma.formula_offsets.empty() ? reader.offset(reader.size()) : pragma.formula_offsets.back() + 1;
    pragmas_.push_back(std::move(pragma));
  }

  // The original offset of a byte of a begin's formula.
  static std::size_t formula_offset(const Pragma& pragma, std::size_t position) {
    return position < pragma.formula_offsets.size() ? pragma.formula_offsets[position] : pragma.formula_end;
  }

  // A message of the expression parser that names a place in the formula ("the '(' at 1:13") names
  // that place in the file instead.
  [[nodiscard]] std::string relocate(const Pragma& pragma, std::string message) const {
    const std::string marker = "at 1:";
    for (std::size_t at = message.find(marker); at != std::string::npos; at = message.find(marker, at + 1)) {
      std::size_t end = at + marker.size();
      while (end < message.size() && is_digit(message[end])) ++end;
      if (end == at + marker.size()) continue;
      const auto column = std::stoul(message.substr(at + marker.size(), end - at - marker.size()));
      const core::SourceLocation place = places_.locate(formula_offset(pragma, column - 1));
      const std::string replacement = "at line " + std::to_string(place.line) + ", column " + std::to_string(place.column);
      message.replace(at, end - at, replacement);
      at += replacement.size() - 1;
    }
    return message;
  }

  // Parses and checks a begin's formula; returns false after reporting an error.
  bool check_formula(const Pragma& pragma, model::Formula& formula, std::unique_ptr<Expression>& tree) {
    const core::SourceText text(source_.file(), pragma.formula);
    try {
      formula = model::Formula::parse(text);
      tree = core::parse_expression(text);
    } catch (const core::InputError& failure) {
      // The formula is one line: its column is the byte in the formula text.
      const long column = failure.location().line == 1 ? std::max(1L, failure.location().column) : 1L;
      error(formula_offset(pragma, static_cast<std::size_t>(column - 1)), relocate(pragma, failure.message()));
      return false;
    }
    bool good = true;
    // The constants are NAME[i].
    std::vector<const Expression*> stack{tree.get()};
    std::vector<const Expression*> names;
    while (!stack.empty()) {
      const Expression* node = stack.back();
      stack.pop_back();
      if (node->kind == Expression::Kind::Constant) {
        const std::string prefix = node->name.substr(0, node->name.find('['));
        if (prefix != pragma.name.text) {
          error(formula_offset(pragma, node->offset), "the constant " + node->name + " of experiment " + pragma.name.text + " must be " +
                                                          pragma.name.text + "[i]: the constants of an experiment are indexed by its name");
          good = false;
        }
      }
      if (node->kind == Expression::Kind::Name) names.push_back(node);
      for (auto it = node->operands.rbegin(); it != node->operands.rend(); ++it) stack.push_back(it->get());
    }
    // The variables: C identifiers of the program, seen before the pragma.
    std::sort(names.begin(), names.end(), [](const Expression* left, const Expression* right) { return left->offset < right->offset; });
    std::set<std::string> seen;
    for (const Expression* node : names) {
      if (!seen.insert(node->name).second) continue;
      const std::size_t where = formula_offset(pragma, node->offset);
      if (node->name.rfind("augur_", 0) == 0) {
        error(where, "variable '" + node->name + "' of experiment " + pragma.name.text + ": names starting with augur_ are reserved for augur");
        good = false;
      } else if (is_keyword(node->name) || !is_c_identifier(node->name)) {
        error(where, "variable '" + node->name + "' of experiment " + pragma.name.text + " is not a C identifier (a keyword)");
        good = false;
      } else {
        const auto use = first_use_.find(node->name);
        if (use == first_use_.end() || use->second >= pragma.hash) {
          error(where, "variable '" + node->name + "' of experiment " + pragma.name.text + " is not declared before this point");
          good = false;
        }
      }
    }
    return good;
  }

  void check_begin(const Pragma& pragma, std::vector<const Pragma*>& open) {
    const std::string& name = pragma.name.text;
    if (!pragma.context.keyword.empty()) {
      const std::string& keyword = pragma.context.keyword;
      const std::string what = keyword == "else" || keyword == "do" ? "'" + keyword + "'" : "'" + keyword + " (...)'";
      error(pragma.name.offset, "experiment " + name + " begins as the whole body of " + what +
                                    " without braces: only its begin would depend on it; put the statements, with "
                                    "the pragmas around them, in braces");
    }
    auto [place, inserted] = experiments_.try_emplace(name);
    Known& known = place->second;
    if (inserted) {
      order_.push_back(name);
      known.formula = pragma.formula;
      known.name_offset = pragma.name.offset;
      known.formula_offset = formula_offset(pragma, 0);
    }
    ++known.begins;

    model::Formula formula;
    std::unique_ptr<Expression> tree;
    if (!pragma.formula.empty() && check_formula(pragma, formula, tree)) {
      if (!known.valid) {
        known.valid = true;
        known.canonical = formula.text();
        known.variables = formula.variables();
      } else if (formula.text() != known.canonical) {
        error(formula_offset(pragma, 0), "experiment " + name + " was begun with another formula at line " +
                                             std::to_string(places_.line(known.formula_offset)) + " (" + known.formula +
                                             "): every '#pragma cll " + name + "' must give the same formula");
      }
    }

    const auto inside = std::find_if(open.begin(), open.end(), [&](const Pragma* other) { return other->name.text == name; });
    if (inside != open.end()) {
      error(pragma.name.offset, "experiment " + name + " is already open here (begun at line " + std::to_string(places_.line((*inside)->name.offset)) +
                                    "): an experiment cannot be open inside itself; end it first");
      return;
    }
    open.push_back(&pragma);
  }

  void check_end(const Pragma& pragma, std::vector<const Pragma*>& open) {
    const std::string& name = pragma.name.text;
    const auto inside = std::find_if(open.rbegin(), open.rend(), [&](const Pragma* other) { return other->name.text == name; });
    if (inside == open.rend()) {
      error(pragma.name.offset, "'#pragma cll end " + name + "' ends no open experiment: there is no '#pragma cll " + name + " ...' open here");
      return;
    }
    if (inside != open.rbegin()) {
      const Pragma& innermost = *open.back();
      error(pragma.name.offset, "'#pragma cll end " + name + "' must first end experiment " + innermost.name.text + " (begun at line " +
                                    std::to_string(places_.line(innermost.name.offset)) + "): experiments nest");
    }
    // Only this one is closed: the inner ones wait for their own end (or are reported as not ended).
    open.erase(std::prev(inside.base()));
  }

  void check() {
    std::vector<const Pragma*> open;
    const Pragma* first_report = nullptr;
    for (const Pragma& pragma : pragmas_) {
      switch (pragma.kind) {
        case Pragma::Kind::Begin: check_begin(pragma, open); break;
        case Pragma::Kind::End: check_end(pragma, open); break;
        case Pragma::Kind::Report:
          if (first_report == nullptr) first_report = &pragma;
          break;
        case Pragma::Kind::ParallelMpi:
          if (mpi_) {
            error(pragma.name.offset, "'#pragma parallel MPI' is given twice (first at line " + std::to_string(places_.line(mpi_->hash)) + ")");
          } else {
            if (first_report != nullptr) {
              error(pragma.name.offset, "'#pragma parallel MPI' must come before the first '#pragma cll report' (line " +
                                            std::to_string(places_.line(first_report->hash)) + ")");
            }
            mpi_ = pragma;
          }
          break;
      }
    }
    for (const Pragma* pragma : open) {
      error(pragma->name.offset, "experiment " + pragma->name.text + " is not ended: '#pragma cll end " + pragma->name.text + "' is missing");
    }
    for (const Pragma& pragma : pragmas_) {
      if (pragma.kind != Pragma::Kind::Report) continue;
      for (const Word& name : pragma.names) {
        if (experiments_.count(name.text) == 0) {
          error(name.offset, "'#pragma cll report' names " + name.text + ", which is not an experiment of this file (no '#pragma cll " + name.text + " ...')");
        }
      }
    }
  }

  // ---- Generation ----

  [[nodiscard]] std::string preamble() const {
    if (pragmas_.empty()) return "#line 1 " + c_string(source_.file()) + "\n";
    std::string text = "/* Translated by augur cc from " + source_.file() + " (docs/cc.md): do not edit. */\n";
    // The source's feature-test macros must precede the first system header, which augur.h includes.
    for (const std::string& define : feature_macros_) text += define + "\n";
    text += "#include <augur/augur.h>\n";
    if (mpi_) text += "#include <augur/augur_mpi.h>\n";
    for (const std::string& name : order_) text += "static int augur_cll_" + name + " __attribute__((unused)) = AUGUR_NO_EXPERIMENT;\n";
    if (!order_.empty()) {
      text += "static void augur_cll_declare(void) __attribute__((constructor));\n";
      text += "static void augur_cll_declare(void) {\n";
      for (const std::string& name : order_) {
        const Known& known = experiments_.at(name);
        std::string variables;
        for (const std::string& variable : known.variables) variables += (variables.empty() ? "" : ",") + variable;
        text += "  augur_cll_" + name + " = augur_experiment_declare(" + c_string(name) + ", " + c_string(known.formula) + ", " +
                c_string(variables) + ");\n";
      }
      text += "}\n";
    }
    return text + "#line 1 " + c_string(source_.file()) + "\n";
  }

  [[nodiscard]] std::string code_of(const Pragma& pragma) const {
    switch (pragma.kind) {
      case Pragma::Kind::Begin: {
        const Known& known = experiments_.at(pragma.name.text);
        const std::string id = "augur_cll_" + pragma.name.text;
        if (known.variables.empty()) return "augur_experiment_begin(" + id + ", 0);";
        std::string values;
        for (const std::string& variable : known.variables) values += (values.empty() ? "" : ", ") + std::string("(double)(") + variable + ")";
        return "{ const double augur_cll_values[] = {" + values + "}; augur_experiment_begin(" + id + ", augur_cll_values); }";
      }
      case Pragma::Kind::End: return "augur_experiment_end(augur_cll_" + pragma.name.text + ");";
      case Pragma::Kind::Report: {
        std::string names;
        std::set<std::string> seen;
        for (const Word& name : pragma.names) {
          if (seen.insert(name.text).second) names += (names.empty() ? "" : ",") + name.text;
        }
        const std::string argument = pragma.all ? "0" : c_string(names);
        if (mpi_) return "augur_mpi_report(" + mpi_->communicator + ", " + argument + ");";
        return "augur_experiment_report(" + argument + ");";
      }
      case Pragma::Kind::ParallelMpi: return "";
    }
    return "";
  }

  [[nodiscard]] std::string generate() const {
    const std::string& text = source_.text();
    std::string code = preamble();
    std::size_t copied = 0;
    for (const Pragma& pragma : pragmas_) {
      code.append(text, copied, pragma.hash - copied);
      code += code_of(pragma);
      code.append(static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(pragma.hash),
                                                      text.begin() + static_cast<std::ptrdiff_t>(pragma.end), '\n')),
                  '\n');
      // A directive that runs to the end of a file without a final newline (an unterminated comment
      // continues it) still leaves its last line, a blank.
      if (pragma.end == text.size() && !text.empty() && text.back() != '\n' && !code.empty() && code.back() == '\n') code += ' ';
      copied = pragma.end;
    }
    code.append(text, copied, std::string::npos);
    return code;
  }

  const core::SourceText& source_;
  Places places_;
  std::vector<Pragma> pragmas_;
  std::map<std::string, std::size_t> first_use_;  // identifier -> offset of its first token
  std::map<std::string, Known> experiments_;
  std::vector<std::string> order_;                // experiments in the order of their first begin
  std::optional<Pragma> mpi_;
  std::vector<std::string> feature_macros_;       // '#define _GNU_SOURCE' ... before the first #include
  std::vector<std::pair<std::size_t, core::InputError>> errors_;
};

}  // namespace

Translation translate(const core::SourceText& source) { return Translator(source).run(); }

// ---- Wrapper mode --------------------------------------------------------------------------------

bool is_source_path(std::string_view argument) {
  if (argument.empty() || argument.front() == '-') return false;
  const std::size_t dot = argument.rfind('.');
  if (dot == std::string_view::npos || argument.find('/', dot) != std::string_view::npos) return false;
  const std::string_view extension = argument.substr(dot);
  return extension == ".c" || extension == ".cc" || extension == ".cpp" || extension == ".cxx" || extension == ".C" || extension == ".c++";
}

CompilerCommand plan_compiler_command(const std::vector<std::string>& command, const CompilerSettings& settings) {
  namespace fs = std::filesystem;
  // GCC's options whose value is the next argument.
  static const std::set<std::string_view> with_value{
      "-o", "-I", "-L", "-l", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix",
      "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-MF", "-MT", "-MQ", "-x", "-Xlinker", "-Xassembler",
      "-Xpreprocessor", "-aux-info", "--param", "-T", "-u", "-z", "-e", "-specs", "-wrapper", "-arch"};
  CompilerCommand plan;
  if (command.empty()) return plan;
  std::vector<std::string> arguments(command.begin() + 1, command.end());
  std::set<std::string> names;  // translated paths, to keep base names apart
  std::vector<std::string> quote_directories;
  for (std::size_t index = 0; index < arguments.size(); ++index) {
    const std::string& argument = arguments[index];
    if (with_value.count(argument) != 0) {
      ++index;
      continue;
    }
    if (argument == "-c" || argument == "-S" || argument == "-E" || argument == "-M" || argument == "-MM" || argument == "-fsyntax-only") {
      plan.links = false;
    }
    if (!is_source_path(argument)) continue;
    const fs::path original(argument);
    const std::string base = original.filename().string();
    fs::path translated = fs::path(settings.temporary_directory) / base;
    for (int copy = 2; names.count(translated.string()) != 0; ++copy) {
      translated = fs::path(settings.temporary_directory) / std::to_string(copy) / base;
    }
    names.insert(translated.string());
    std::string directory = original.parent_path().string();
    if (directory.empty()) directory = ".";
    if (std::find(quote_directories.begin(), quote_directories.end(), directory) == quote_directories.end()) quote_directories.push_back(directory);
    plan.sources.push_back({index + 1, argument, translated.string()});
    arguments[index] = translated.string();
  }
  plan.argv.push_back(command.front());
  plan.argv.push_back("-I" + settings.include_directory);
  for (const std::string& directory : quote_directories) {
    plan.argv.push_back("-iquote");
    plan.argv.push_back(directory);
  }
  plan.argv.insert(plan.argv.end(), arguments.begin(), arguments.end());
  if (plan.links) {
    plan.argv.push_back("-L" + settings.library_directory);
    plan.argv.push_back("-laugur");
    plan.argv.push_back("-Wl,-rpath," + settings.library_directory);
  }
  return plan;
}

}  // namespace augur::experiment
