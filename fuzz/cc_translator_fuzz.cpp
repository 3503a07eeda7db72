// The pragma translator of `augur cc` (src/experiment/translator*.cpp): translate a C source. The
// translator never throws; a translation either has errors (each at a place inside the file) and no
// code, or code with as many lines as the source after its preamble (every line stays where it was).
#include <algorithm>
#include <string>

#include "experiment/translator.hpp"
#include "fuzz_common.hpp"

namespace {

long lines_of(const std::string& text) {
  return static_cast<long>(std::count(text.begin(), text.end(), '\n')) + (text.empty() || text.back() == '\n' ? 0 : 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > fuzz::max_input) return 0;
  const std::string text = fuzz::text_of(data, size);
  const experiment::Translation translation = experiment::translate(core::SourceText("input.c", text));
  if (!translation.ok()) {
    fuzz::expect(translation.code.empty(), "a translation with errors has code", text);
    const long lines = std::max(1L, lines_of(text) + 1);
    for (const core::InputError& error : translation.errors) {
      fuzz::expect(error.location().file == "input.c", "an error names another file", error.what());
      fuzz::expect(error.location().line >= 0 && error.location().line <= lines, "an error beyond the last line",
                   std::string(error.what()) + "\n--- input\n" + text);
    }
    return 0;
  }
  const std::string::size_type directive = translation.code.find("#line 1 \"input.c\"\n");
  fuzz::expect(directive != std::string::npos, "no #line directive before the source", translation.code);
  const std::string body = translation.code.substr(directive + std::string("#line 1 \"input.c\"\n").size());
  fuzz::expect(lines_of(body) == lines_of(text), "the translation moved lines",
               text + "\n--- translated\n" + translation.code);
  for (const experiment::Experiment& experiment : translation.experiments)
    fuzz::expect(experiment.begins >= 1, "an experiment that never begins", experiment.name);
  return 0;
}
