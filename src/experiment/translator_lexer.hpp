// The lexer of the CALL pragma translator (private to src/experiment): after line splicing, the source's
// preprocessing directives (their text with comments as one blank, the original offset of each byte, the
// control keyword just before each) and the identifiers of the code, in text order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace augur::experiment::detail {

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

// Lexes `text` (a C or C++ source): its directives and the identifiers outside them.
[[nodiscard]] Lexed lex(const std::string& text);

}  // namespace augur::experiment::detail
