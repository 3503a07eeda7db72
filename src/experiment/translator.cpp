// The CALL pragma translator (translator.hpp): reads the directives of the lexed source, then checks the
// pragmas and, when they are right, generates the code. Its parts: translator_text.cpp (characters and
// places), translator_lexer.cpp (the lexer), translator_pragmas.cpp (reading the pragmas),
// translator_check.cpp (the checks); the wrapper mode's compiler command is compiler_command.cpp.
#include "experiment/translator.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "translator_internal.hpp"

namespace augur::experiment {
namespace detail {

Translation Translator::run() {
  Lexed lexed = lex(source_.text());
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

// ---- Generation ------------------------------------------------------------------------------------

std::string Translator::preamble() const {
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

std::string Translator::code_of(const Pragma& pragma) const {
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

std::string Translator::generate() const {
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

}  // namespace detail

Translation translate(const core::SourceText& source) { return detail::Translator(source).run(); }

}  // namespace augur::experiment
