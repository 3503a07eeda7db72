// CALL complexity formulas (src/model/formula.cpp, `augur fit --formula`, `#pragma cll`): parse and check
// the canonical form; a formula that parses is written back (text()) and must parse to the same text, and
// its regressors are evaluated with every variable bound.
#include <string>

#include "fuzz_common.hpp"
#include "model/formula.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > 4096) return 0;
  const std::string text = fuzz::text_of(data, size);
  model::Formula formula;
  try {
    formula = model::Formula::parse(core::SourceText("input", text));
  } catch (const core::InputError&) {
    return 0;
  }
  const std::string written = formula.text();
  model::Formula again;
  try {
    again = model::Formula::parse(core::SourceText("written", written));
  } catch (const core::InputError& error) {
    fuzz::fail("a written formula does not parse", std::string(error.what()) + "\n--- written\n" + written);
  }
  fuzz::expect(again.text() == written, "a written formula reads back differently", written + "\n--- input\n" + text);
  core::Bindings bindings;
  for (const std::string& name : formula.variables()) bindings.emplace(name, 3.0);
  for (std::size_t term = 0; term < formula.terms().size(); ++term) {
    try {
      (void)formula.regressor(term, bindings);
    } catch (const core::InputError&) {
    }
  }
  (void)formula.with_values(std::vector<double>(formula.terms().size(), 1.5), core::ExpressionStyle::Python);
  return 0;
}
