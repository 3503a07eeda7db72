// Reading the pragmas of the CALL translator (translator_internal.hpp): '#pragma parallel MPI [COMMUNICATOR]',
// '#pragma cll NAME FORMULA', '#pragma cll end NAME' and '#pragma cll report all | NAME...', each from the text
// of its directive, with an error at the place of each word that is wrong.
#include <utility>

#include "translator_internal.hpp"

namespace augur::experiment::detail {

// Returns true when the directive is one of ours (translated, or an error).
bool Translator::read_directive(const Directive& directive) {
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

Pragma Translator::make(Pragma::Kind kind, const Directive& directive) {
  Pragma pragma;
  pragma.kind = kind;
  pragma.hash = directive.hash;
  pragma.end = directive.end;
  pragma.context = directive.context;
  return pragma;
}

void Translator::read_cll(const Directive& directive, DirectiveReader& reader, const Word& family) {
  if (reader.at_end()) {
    error(family.offset, "expected an experiment name, 'end' or 'report' after '#pragma cll'");
    return;
  }
  const Word first = reader.word();
  if (first.text == "end") {
    read_cll_end(directive, reader);
    return;
  }
  if (first.text == "report") {
    read_cll_report(directive, reader);
    return;
  }
  read_cll_begin(directive, reader, first);
}

// #pragma cll end NAME
void Translator::read_cll_end(const Directive& directive, DirectiveReader& reader) {
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
}

// #pragma cll report all | NAME1 NAME2 ...
void Translator::read_cll_report(const Directive& directive, DirectiveReader& reader) {
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
}

// #pragma cll NAME FORMULA
void Translator::read_cll_begin(const Directive& directive, DirectiveReader& reader, const Word& first) {
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

}  // namespace augur::experiment::detail
