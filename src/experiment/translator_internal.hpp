// The CALL pragma translator's insides (private to src/experiment): the pragmas read from the directives,
// a reader of a directive's text, and the Translator that reads the pragmas (translator_pragmas.cpp),
// checks them (translator_check.cpp) and generates the code (translator.cpp).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"
#include "experiment/translator.hpp"
#include "model/formula.hpp"
#include "translator_lexer.hpp"
#include "translator_text.hpp"

namespace augur::experiment::detail {

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

  Translation run();

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

  // ---- Reading (translator_pragmas.cpp) ----

  // Returns true when the directive is one of ours (translated, or an error).
  bool read_directive(const Directive& directive);
  Pragma make(Pragma::Kind kind, const Directive& directive);
  void read_cll(const Directive& directive, DirectiveReader& reader, const Word& family);
  void read_cll_end(const Directive& directive, DirectiveReader& reader);
  void read_cll_report(const Directive& directive, DirectiveReader& reader);
  void read_cll_begin(const Directive& directive, DirectiveReader& reader, const Word& first);

  // ---- Checking (translator_check.cpp) ----

  // The original offset of a byte of a begin's formula.
  static std::size_t formula_offset(const Pragma& pragma, std::size_t position);
  // A message of the expression parser that names a place in the formula ("the '(' at 1:13") names
  // that place in the file instead.
  [[nodiscard]] std::string relocate(const Pragma& pragma, std::string message) const;
  // Parses and checks a begin's formula; returns false after reporting an error.
  bool check_formula(const Pragma& pragma, model::Formula& formula, std::unique_ptr<core::Expression>& tree);
  void check_begin(const Pragma& pragma, std::vector<const Pragma*>& open);
  void check_end(const Pragma& pragma, std::vector<const Pragma*>& open);
  void check();

  // ---- Generation (translator.cpp) ----

  [[nodiscard]] std::string preamble() const;
  [[nodiscard]] std::string code_of(const Pragma& pragma) const;
  [[nodiscard]] std::string generate() const;

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

}  // namespace augur::experiment::detail
