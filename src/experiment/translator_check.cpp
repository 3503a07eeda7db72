// Checking the pragmas of the CALL translator (translator_internal.hpp): each begin's formula (constants
// NAME[i], variables that are C identifiers declared before the pragma, the same formula at every begin),
// the nesting of begins and ends, '#pragma parallel MPI' before the first report, and the names reported.
#include <algorithm>
#include <iterator>
#include <set>

#include "translator_internal.hpp"

namespace augur::experiment::detail {

using core::Expression;

// The original offset of a byte of a begin's formula.
std::size_t Translator::formula_offset(const Pragma& pragma, std::size_t position) {
  return position < pragma.formula_offsets.size() ? pragma.formula_offsets[position] : pragma.formula_end;
}

// A message of the expression parser that names a place in the formula ("the '(' at 1:13") names
// that place in the file instead.
std::string Translator::relocate(const Pragma& pragma, std::string message) const {
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
bool Translator::check_formula(const Pragma& pragma, model::Formula& formula, std::unique_ptr<Expression>& tree) {
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

void Translator::check_begin(const Pragma& pragma, std::vector<const Pragma*>& open) {
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

void Translator::check_end(const Pragma& pragma, std::vector<const Pragma*>& open) {
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

void Translator::check() {
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

}  // namespace augur::experiment::detail
