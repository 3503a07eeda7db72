// The CALL pragma translator (seed 001, section 3: CALL's front end `call`): C and C++ sources annotated
// with
//
//     #pragma parallel MPI [COMMUNICATOR]          once, before the first report: an MPI program
//     #pragma cll NAME FORMULA                     begins experiment NAME, e.g. fft fft[0]+fft[1]*log(P)
//     #pragma cll end NAME                         ends it
//     #pragma cll report all | NAME1 NAME2 ...     writes the records (gathered to rank 0 under MPI)
//
// become sources that call libaugur's C API (include/augur/augur.h, "CALL experiments"). The translation
// keeps every line where it was: a preamble (the includes, one static id per experiment, a constructor
// that declares them) ends with `#line 1 "FILE"`, and each pragma becomes code on its own first line
// followed by one empty line per continuation line. Pure: text in, text and diagnostics out.
// The language, every check and the generated code: docs/cc.md.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"

namespace augur::experiment {

// An experiment of the translated file.
struct Experiment {
  std::string name;                    // "fft"
  std::string formula;                 // as written at its first begin (continuations joined, runs of blanks as one space)
  std::vector<std::string> variables;  // the formula's variables, sorted: the values recorded at each begin
  core::SourceLocation location;       // the name in its first '#pragma cll NAME'
  int begins = 0;                      // the '#pragma cll NAME' lines that begin it
};

struct Translation {
  std::string code;                       // the translated source; empty when there are errors
  std::vector<core::InputError> errors;   // every error, in the order of their places in the file
  std::vector<Experiment> experiments;    // in the order of their first begin
  int pragmas = 0;                        // the pragmas translated ('#pragma cll ...', '#pragma parallel MPI')
  bool mpi = false;                       // '#pragma parallel MPI' was given
  std::string communicator;               // its communicator (MPI_COMM_WORLD by default)

  [[nodiscard]] bool ok() const { return errors.empty(); }
};

// Translates `source` (its file() names it in the diagnostics and in the `#line` directive).
// Errors never throw: they are collected in the result, which then has no code.
[[nodiscard]] Translation translate(const core::SourceText& source);

// ---- Wrapper mode: a compiler command with its sources translated --------------------------------

// True for the names of C and C++ sources: .c .cc .cpp .cxx .C .c++ (not an option).
[[nodiscard]] bool is_source_path(std::string_view argument);

struct CompilerSource {
  std::size_t argument = 0;  // its index in the command
  std::string original;      // the path as given
  std::string translated;    // where its translation goes: the temporary directory, the same base name
};

struct CompilerCommand {
  std::vector<std::string> argv;        // the command to run
  std::vector<CompilerSource> sources;  // the arguments replaced by their translations
  bool links = true;                    // no -c, -S, -E, -M, -MM, -fsyntax-only: libaugur was added
};

struct CompilerSettings {
  std::string temporary_directory;  // where the translations go (sources of the same base name: in 2/, 3/, ...)
  std::string include_directory;    // holds augur/augur.h
  std::string library_directory;    // holds libaugur.so
};

// The command `command` (compiler first) with each source argument replaced by its translation, then
// -I<include directory> and -iquote <the directory of each original source> after the compiler, and,
// when the command links, -L<library directory> -laugur -Wl,-rpath,<library directory> at the end.
// The values of options that take a separate argument (-o out.c, -include x.h, -x c, ...) are not sources.
[[nodiscard]] CompilerCommand plan_compiler_command(const std::vector<std::string>& command, const CompilerSettings& settings);

}  // namespace augur::experiment
