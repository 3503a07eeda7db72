// The CALL pragma translator's errors, each at its line and column, and wrapper mode's compiler command (the
// translation itself: translator_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "experiment/translator.hpp"
#include "translator_test_support.hpp"

namespace {

using namespace augur;
using experiment::translate;
using experiment::Translation;
using namespace augur::experiment::translator_test;  // run, body_lines, messages, error_of, read_data, ...

// ---- Errors, each at its line and column --------------------------------------------------------

TEST(TranslatorErrors, UnbalancedAndBadlyNestedExperiments) {
  EXPECT_EQ(error_of("void f(void) {\n#pragma cll end a\n}\n"),
            "t.c:2:17: '#pragma cll end a' ends no open experiment: there is no '#pragma cll a ...' open here");
  EXPECT_EQ(error_of("void f(void) {\n  #pragma cll a a[0]\n}\n"), "t.c:2:15: experiment a is not ended: '#pragma cll end a' is missing");
  EXPECT_EQ(error_of("void f(void) {\n#pragma cll a a[0]\n#pragma cll b b[0]\n#pragma cll end a\n#pragma cll end b\n}\n"),
            "t.c:4:17: '#pragma cll end a' must first end experiment b (begun at line 3): experiments nest");
  EXPECT_EQ(messages(run("void f(void) {\n#pragma cll a a[0]\n#pragma cll b b[0]\n#pragma cll end a\n}\n")),
            (std::vector<std::string>{"t.c:3:13: experiment b is not ended: '#pragma cll end b' is missing",
                                      "t.c:4:17: '#pragma cll end a' must first end experiment b (begun at line 3): experiments nest"}));
  EXPECT_EQ(error_of("void f(void) {\n#pragma cll a a[0]\n#pragma cll a a[0]\n#pragma cll end a\n}\n"),
            "t.c:3:13: experiment a is already open here (begun at line 2): an experiment cannot be open inside itself; end it first");
}

TEST(TranslatorErrors, EveryBeginOfAnExperimentGivesTheSameFormula) {
  EXPECT_EQ(error_of("void f(int n) {\n#pragma cll a a[0] + a[1]*n\n#pragma cll end a\n#pragma cll a a[0]+a[1]*n\n#pragma cll end a\n"
                     "#pragma cll a a[0] + a[1]*n*n\n#pragma cll end a\n}\n"),
            "t.c:6:15: experiment a was begun with another formula at line 2 (a[0] + a[1]*n): every '#pragma cll a' must give the same formula");
}

TEST(TranslatorErrors, FormulasArePointedAtInTheFile) {
  EXPECT_EQ(error_of("void f(int N) {\n#pragma cll a a[0] + N*N\n#pragma cll end a\n}\n"),
            "t.c:2:22: the term N * N has no constant; write it as name[i] * (N * N)");
  EXPECT_EQ(error_of("void f(int N) {\n#pragma cll a a[0] +\\\n   a[1]*a[2]*N\n#pragma cll end a\n}\n"),
            "t.c:3:9: the term has two constants, a[1] and a[2]; each term of a canonical formula has exactly one");
  EXPECT_EQ(error_of("void f(int N) {\n#pragma cll a a[0] + a[1]*(N\n#pragma cll end a\n}\n"),
            "t.c:2:29: expected a ')' to close the '(' at line 2, column 27 but the text ends");
  EXPECT_EQ(error_of("void f(int N) {\n#pragma cll a a[0] + b[1]*N\n#pragma cll end a\n}\n"),
            "t.c:2:22: the constant b[1] of experiment a must be a[i]: the constants of an experiment are indexed by its name");
  EXPECT_EQ(error_of("void f(void) {\n#pragma cll a\n#pragma cll end a\n}\n"),
            "t.c:2:14: expected the complexity formula of experiment a after its name (e.g. a[0] + a[1]*N; for a constant time: a[0])");
}

TEST(TranslatorErrors, VariablesAreDeclaredBeforeThePragma) {
  EXPECT_EQ(error_of("void f(void) {\n#pragma cll a a[0] + a[1]*later\n#pragma cll end a\n  int later = 1; (void)later;\n}\n"),
            "t.c:2:27: variable 'later' of experiment a is not declared before this point");
  EXPECT_EQ(error_of("void f(int augur_n) {\n#pragma cll a a[0]*augur_n\n#pragma cll end a\n}\n"),
            "t.c:2:20: variable 'augur_n' of experiment a: names starting with augur_ are reserved for augur");
  EXPECT_EQ(error_of("void f(int n) {\n#pragma cll a a[0]*int\n#pragma cll end a\n}\n"),
            "t.c:2:20: variable 'int' of experiment a is not a C identifier (a keyword)");
}

TEST(TranslatorErrors, NamesAndWordsOfThePragmas) {
  EXPECT_EQ(error_of("#pragma cll\n"), "t.c:1:9: expected an experiment name, 'end' or 'report' after '#pragma cll'");
  EXPECT_EQ(error_of("#pragma cll fft[0]+fft[1]*N\n"),
            "t.c:1:13: 'fft[0]+fft[1]*N' is not an experiment name (a C identifier): write '#pragma cll NAME FORMULA'");
  EXPECT_EQ(error_of("#pragma cll all all[0]\n"), "t.c:1:13: the experiment name 'all' is reserved (all, end, report, values, declare)");
  EXPECT_EQ(error_of("#pragma cll end\n"), "t.c:1:16: expected the name of the experiment to end after '#pragma cll end'");
  EXPECT_EQ(error_of("#pragma cll a a[0]\n#pragma cll end a b\n"), "t.c:2:19: unexpected 'b' after '#pragma cll end a'");
  EXPECT_EQ(error_of("#pragma cll report // nothing\n"), "t.c:1:19: expected 'all' or the names of experiments after '#pragma cll report'");
  EXPECT_EQ(error_of("#pragma cll a a[0]\n#pragma cll end a\n#pragma cll report a all\n"),
            "t.c:3:22: 'all' stands alone: '#pragma cll report all' or '#pragma cll report NAME1 NAME2 ...'");
  EXPECT_EQ(error_of("#pragma cll a a[0]\n#pragma cll end a\n#pragma cll report a,b\n"),
            "t.c:3:22: '#pragma cll report' names b, which is not an experiment of this file (no '#pragma cll b ...')");
}

TEST(TranslatorErrors, ReportNamesMayComeBeforeTheirExperiment) {
  EXPECT_TRUE(run("void g(void) {\n#pragma cll report late\n}\nvoid f(void) {\n#pragma cll late late[0]\n#pragma cll end late\n}\n").ok());
}

TEST(TranslatorErrors, ParallelMpiOnceAndBeforeTheFirstReport) {
  EXPECT_EQ(error_of("#pragma parallel MPI\n#pragma parallel MPI\n"), "t.c:2:18: '#pragma parallel MPI' is given twice (first at line 1)");
  EXPECT_EQ(error_of("void f(void) {\n#pragma cll report all\n}\n#pragma parallel MPI\n"),
            "t.c:4:18: '#pragma parallel MPI' must come before the first '#pragma cll report' (line 2)");
  EXPECT_EQ(error_of("#pragma parallel MPI 3comm\n"),
            "t.c:1:22: expected the communicator (a C identifier, e.g. MPI_COMM_WORLD) after '#pragma parallel MPI' but found '3comm'");
  EXPECT_EQ(error_of("#pragma parallel MPI a b\n"), "t.c:1:24: unexpected 'b' after '#pragma parallel MPI a'");
}

TEST(TranslatorErrors, AllAreCollectedInTheOrderOfTheFile) {
  const Translation translation = run("void f(int n) {\n#pragma cll a a[0]*m\n#pragma cll end b\n#pragma cll c c[0] + n\n}\n#pragma parallel PUB g\n");
  EXPECT_EQ(messages(translation),
            (std::vector<std::string>{"t.c:2:13: experiment a is not ended: '#pragma cll end a' is missing",
                                      "t.c:2:20: variable 'm' of experiment a is not declared before this point",
                                      "t.c:3:17: '#pragma cll end b' ends no open experiment: there is no '#pragma cll b ...' open here",
                                      "t.c:4:13: experiment c is not ended: '#pragma cll end c' is missing",
                                      "t.c:4:22: the term n has no constant; write it as name[i] * (n)",
                                      "t.c:6:18: '#pragma parallel PUB' is not supported: augur gathers the records of a parallel program "
                                      "through MPI; write '#pragma parallel MPI [COMMUNICATOR]'"}));
  EXPECT_TRUE(translation.code.empty());
}

// ---- Wrapper mode ------------------------------------------------------------------------------

TEST(TranslatorLines, ADirectiveRunningToTheEndOfAFileWithoutANewlineKeepsItsLastLine) {
  // An unterminated comment continues '#pragma parallel MPI' to the end of the file (found by fuzzing).
  const Translation translation = run("int x;\n#pragma parallel MPI /* open\nint y;");
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  EXPECT_EQ(body_lines(translation).size(), 3u) << translation.code;
  EXPECT_EQ(body_lines(translation).front(), "int x;");
}

TEST(CompilerCommand, RecognisesSources) {
  for (const char* source : {"a.c", "dir/b.cc", "c.cpp", "d.cxx", "E.C", "f.c++"}) EXPECT_TRUE(experiment::is_source_path(source)) << source;
  for (const char* other : {"a.o", "a.h", "-c", "-", "libm.a", "dir.c/x", "a.cu", "a.s"}) EXPECT_FALSE(experiment::is_source_path(other)) << other;
}

TEST(CompilerCommand, ReplacesSourcesAndAddsTheLibrary) {
  const experiment::CompilerSettings settings{"/tmp/t", "/inc", "/lib"};
  const experiment::CompilerCommand plan =
      experiment::plan_compiler_command({"mpicc", "-O2", "fft.c", "src/main.c", "-o", "fft", "-lm", "-x", "c", "-include", "x.c", "lib/fft.c"}, settings);
  EXPECT_TRUE(plan.links);
  EXPECT_EQ(plan.argv, (std::vector<std::string>{"mpicc", "-I/inc", "-iquote", ".", "-iquote", "src", "-iquote", "lib", "-O2", "/tmp/t/fft.c",
                                                 "/tmp/t/main.c", "-o", "fft", "-lm", "-x", "c", "-include", "x.c", "/tmp/t/2/fft.c", "-L/lib",
                                                 "-laugur", "-Wl,-rpath,/lib"}));
  ASSERT_EQ(plan.sources.size(), 3u);
  EXPECT_EQ(plan.sources[2].argument, 11u);
  EXPECT_EQ(plan.sources[2].original, "lib/fft.c");
  EXPECT_EQ(plan.sources[2].translated, "/tmp/t/2/fft.c");
}

TEST(CompilerCommand, CompilingOnlyDoesNotLink) {
  const experiment::CompilerSettings settings{"/tmp/t", "/inc", "/lib"};
  for (const char* flag : {"-c", "-S", "-E", "-fsyntax-only"}) {
    const auto plan = experiment::plan_compiler_command({"c++", flag, "-std=c++20", "a.cpp"}, settings);
    EXPECT_FALSE(plan.links) << flag;
    EXPECT_EQ(plan.argv, (std::vector<std::string>{"c++", "-I/inc", "-iquote", ".", flag, "-std=c++20", "/tmp/t/a.cpp"}));
  }
  const auto link_only = experiment::plan_compiler_command({"cc", "a.o", "b.o", "-o", "prog"}, settings);
  EXPECT_TRUE(link_only.sources.empty());
  EXPECT_EQ(link_only.argv, (std::vector<std::string>{"cc", "-I/inc", "a.o", "b.o", "-o", "prog", "-L/lib", "-laugur", "-Wl,-rpath,/lib"}));
}

}  // namespace
