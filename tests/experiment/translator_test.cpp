// The CALL pragma translator: the seed's Figures 3 and 4, the code generated (lines kept in place),
// comments, strings and continuations (every error with its line and column, and wrapper mode's compiler
// command: translator_errors_test.cpp). That the generated code compiles as C and C++ is tested end to end
// (cc_e2e_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "experiment/translator.hpp"
#include "translator_test_support.hpp"

namespace {

using namespace augur;
using experiment::translate;
using experiment::Translation;
using namespace augur::experiment::translator_test;  // run, body_lines, messages, error_of, read_data, ...

// ---- The seed's figures ------------------------------------------------------------------------

TEST(TranslatorFigure3, BecomesTheFftExperimentWithAnMpiReportOnTheSameLines) {
  const std::string source = read_data("figure3.c");
  const Translation translation = run(source, "figure3.c");
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  ASSERT_EQ(translation.experiments.size(), 1u);
  const experiment::Experiment& fft = translation.experiments[0];
  EXPECT_EQ(fft.name, "fft");
  EXPECT_EQ(fft.formula, "fft[0]+fft[1]*log(P)+fft[2]*(N/P)*log(N/P)+ fft[3]*N*(P-1)/P");
  EXPECT_EQ(fft.variables, (std::vector<std::string>{"N", "P"}));
  EXPECT_EQ(fft.location.line, 11);
  EXPECT_EQ(fft.location.column, 15);
  EXPECT_EQ(fft.begins, 1);
  EXPECT_EQ(translation.pragmas, 4);
  EXPECT_TRUE(translation.mpi);
  EXPECT_EQ(translation.communicator, "MPI_COMM_WORLD");

  EXPECT_EQ(translation.code.rfind("/* Translated by augur cc from figure3.c", 0), 0u) << translation.code;
  EXPECT_TRUE(contains(translation.code,
                       "#include <augur/augur.h>\n"
                       "#include <augur/augur_mpi.h>\n"
                       "static int augur_cll_fft __attribute__((unused)) = AUGUR_NO_EXPERIMENT;\n"
                       "static void augur_cll_declare(void) __attribute__((constructor));\n"
                       "static void augur_cll_declare(void) {\n"
                       "  augur_cll_fft = augur_experiment_declare(\"fft\", \"fft[0]+fft[1]*log(P)+fft[2]*(N/P)*log(N/P)+ fft[3]*N*(P-1)/P\", \"N,P\");\n"
                       "}\n"
                       "#line 1 \"figure3.c\"\n"))
      << translation.code;

  const std::vector<std::string> original = split_lines(source);
  const std::vector<std::string> lines = body_lines(translation, "figure3.c");
  ASSERT_EQ(lines.size(), original.size());
  EXPECT_EQ(lines[3], "");  // #pragma parallel MPI
  EXPECT_EQ(lines[10], "  { const double augur_cll_values[] = {(double)(N), (double)(P)}; augur_experiment_begin(augur_cll_fft, augur_cll_values); }");
  EXPECT_EQ(lines[11], "");  // the continuation line of the formula
  EXPECT_EQ(lines[13], "  augur_experiment_end(augur_cll_fft);");
  EXPECT_EQ(lines[15], "  augur_mpi_report(MPI_COMM_WORLD, 0);");
  for (std::size_t line : {0u, 4u, 7u, 8u, 9u, 12u, 14u, 16u, 17u}) EXPECT_EQ(lines[line], original[line]) << "line " << line + 1;
}

TEST(TranslatorFigure3, PubIsNotSupported) {
  const Translation translation = run(read_data("figure3_pub.c"), "figure3_pub.c");
  EXPECT_EQ(messages(translation),
            (std::vector<std::string>{"figure3_pub.c:1:18: '#pragma parallel PUB' is not supported: augur gathers the records of a "
                                      "parallel program through MPI; write '#pragma parallel MPI [COMMUNICATOR]'"}));
  EXPECT_TRUE(translation.code.empty());
}

TEST(TranslatorFigure4, HasSevenExperimentsWithCDAndEBegunInBothBranches) {
  const std::string source = read_data("figure4.c");
  const Translation translation = run(source, "figure4.c");
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  std::vector<std::string> names;
  for (const auto& experiment : translation.experiments) names.push_back(experiment.name);
  EXPECT_EQ(names, (std::vector<std::string>{"A", "B", "C", "D", "E", "F", "G"}));
  const auto& experiments = translation.experiments;
  EXPECT_EQ(experiments[0].begins, 1);
  EXPECT_EQ(experiments[2].begins, 2);
  EXPECT_EQ(experiments[3].begins, 2);
  EXPECT_EQ(experiments[4].begins, 2);
  EXPECT_TRUE(experiments[0].variables.empty());
  EXPECT_EQ(experiments[3].variables, (std::vector<std::string>{"size"}));
  EXPECT_EQ(experiments[5].variables, (std::vector<std::string>{"n"}));
  EXPECT_EQ(experiments[6].variables, (std::vector<std::string>{"N"}));
  EXPECT_EQ(experiments[6].formula, "G[0]+G[1]*N*log(N)");
  EXPECT_EQ(translation.pragmas, 20);
  EXPECT_FALSE(translation.mpi);

  // One declaration per experiment, not per begin.
  EXPECT_TRUE(contains(translation.code, "  augur_cll_D = augur_experiment_declare(\"D\", \"D[0]+D[1]*size\", \"size\");\n"));
  EXPECT_TRUE(contains(translation.code, "  augur_cll_A = augur_experiment_declare(\"A\", \"A[0]\", \"\");\n"));
  std::size_t declarations = 0;
  for (std::size_t at = translation.code.find("augur_experiment_declare"); at != std::string::npos;
       at = translation.code.find("augur_experiment_declare", at + 1)) {
    ++declarations;
  }
  EXPECT_EQ(declarations, 7u);

  const std::vector<std::string> original = split_lines(source);
  const std::vector<std::string> lines = body_lines(translation, "figure4.c");
  ASSERT_EQ(lines.size(), original.size());
  EXPECT_EQ(lines[12], "augur_experiment_begin(augur_cll_A, 0);");
  EXPECT_EQ(lines[14], "augur_experiment_end(augur_cll_A);");
  EXPECT_EQ(lines[26], "{ const double augur_cll_values[] = {(double)(size)}; augur_experiment_begin(augur_cll_D, augur_cll_values); }");
  EXPECT_EQ(lines[54], "{ const double augur_cll_values[] = {(double)(N)}; augur_experiment_begin(augur_cll_G, augur_cll_values); }");
  for (std::size_t line = 0; line < original.size(); ++line) {
    if (original[line].find("#pragma") == std::string::npos) {
      EXPECT_EQ(lines[line], original[line]) << "line " << line + 1;
    }
  }
}

TEST(TranslatorFigure4, AnElseWithoutBracesAroundTheExperimentIsAnError) {
  const Translation translation = run(read_data("figure4_no_braces.c"), "figure4_no_braces.c");
  EXPECT_EQ(messages(translation),
            (std::vector<std::string>{"figure4_no_braces.c:9:13: experiment G begins as the whole body of 'else' without braces: only "
                                      "its begin would depend on it; put the statements, with the pragmas around them, in braces"}));
}

TEST(TranslatorControl, EveryBraceLessBodyIsCaughtButBracesAndSemicolonsAreNot) {
  EXPECT_EQ(error_of("int f(int x) {\n  if (x > 0)\n#pragma cll A A[0]\n  x = 1;\n#pragma cll end A\n  return x; }\n"),
            "t.c:3:13: experiment A begins as the whole body of 'if (...)' without braces: only its begin would depend on it; put the "
            "statements, with the pragmas around them, in braces");
  EXPECT_TRUE(contains(error_of("void f(int n) { for (int i = 0; i < n; ++i) /* note */\n #pragma cll A A[0]\n g();\n #pragma cll end A\n}\n"),
                       "t.c:2:14: experiment A begins as the whole body of 'for (...)'"));
  EXPECT_TRUE(contains(error_of("void f(int n) { do\n#pragma cll A A[0]\n g();\n#pragma cll end A\n while (n); }\n"), "body of 'do'"));
  EXPECT_TRUE(run("void f(int x) { if (x) { g(); }\n#pragma cll A A[0]\n g((x));\n#pragma cll end A\n do { g(); } while (x);\n#pragma cll B B[0]\n#pragma cll end B\n}\n").ok());
}

// ---- Generated code ----------------------------------------------------------------------------

TEST(TranslatorOutput, ReportsNamesAndAllWithAndWithoutMpi) {
  const std::string text = "int f(int n) {\n#pragma cll fft fft[0] + fft[1]*n\n#pragma cll end fft\n#pragma cll A A[0]\n#pragma cll end A\n"
                           "#pragma cll report fft, A fft\n#pragma cll report all\nreturn n; }\n";
  const Translation serial = run(text);
  ASSERT_TRUE(serial.ok()) << ::testing::PrintToString(messages(serial));
  const std::vector<std::string> lines = body_lines(serial);
  EXPECT_EQ(lines[5], "augur_experiment_report(\"fft,A\");");
  EXPECT_EQ(lines[6], "augur_experiment_report(0);");
  EXPECT_FALSE(contains(serial.code, "augur_mpi.h"));

  const Translation parallel = run("#pragma parallel MPI my_comm\n" + text);
  ASSERT_TRUE(parallel.ok()) << ::testing::PrintToString(messages(parallel));
  EXPECT_EQ(parallel.communicator, "my_comm");
  const std::vector<std::string> mpi_lines = body_lines(parallel);
  EXPECT_EQ(mpi_lines[0], "");
  EXPECT_EQ(mpi_lines[6], "augur_mpi_report(my_comm, \"fft,A\");");
  EXPECT_EQ(mpi_lines[7], "augur_mpi_report(my_comm, 0);");
  EXPECT_TRUE(contains(parallel.code, "#include <augur/augur_mpi.h>\n"));
}

TEST(TranslatorOutput, AFileWithoutPragmasOnlyGetsItsLineDirective) {
  const Translation translation = run("int main(void) { return 0; }\n#pragma once\n#pragma omp parallel for\n#pragma parallel OpenMP\n");
  ASSERT_TRUE(translation.ok());
  EXPECT_EQ(translation.code, "#line 1 \"t.c\"\nint main(void) { return 0; }\n#pragma once\n#pragma omp parallel for\n#pragma parallel OpenMP\n");
  EXPECT_EQ(translation.pragmas, 0);
}

TEST(TranslatorOutput, EscapesTheFileNameOfTheLineDirective) {
  const Translation translation = run("int x;\n", "dir\\a \"b\".c");
  EXPECT_EQ(translation.code, "#line 1 \"dir\\\\a \\\"b\\\".c\"\nint x;\n");
}

TEST(TranslatorOutput, KeepsTheIndentationAndWhatFollowsWithoutAFinalNewline) {
  const Translation translation = run("int f(int N) {\n\t  #  pragma   cll   A   A[0] + A[1]*N   \n\t#pragma cll end A");
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  EXPECT_EQ(translation.experiments[0].formula, "A[0] + A[1]*N");
  const std::vector<std::string> lines = body_lines(translation);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "\t  { const double augur_cll_values[] = {(double)(N)}; augur_experiment_begin(augur_cll_A, augur_cll_values); }");
  EXPECT_EQ(lines[2], "\taugur_experiment_end(augur_cll_A);");
  EXPECT_EQ(translation.code.back(), ';');
}

TEST(TranslatorOutput, FeatureMacrosBeforeTheFirstIncludeAlsoPrecedeAugurH) {
  const Translation translation = run("/* c */\n#  define _GNU_SOURCE\n#define _POSIX_C_SOURCE /* x */ 200809L\n#define OTHER 1\n"
                                      "#include <stdio.h>\n#define _XOPEN_SOURCE 700\nvoid f(void) {\n#pragma cll a a[0]\n#pragma cll end a\n}\n");
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  EXPECT_TRUE(contains(translation.code, " do not edit. */\n#  define _GNU_SOURCE\n#define _POSIX_C_SOURCE   200809L\n#include <augur/augur.h>\n"))
      << translation.code;
  EXPECT_FALSE(contains(translation.code.substr(0, translation.code.find("#line")), "OTHER"));
  EXPECT_FALSE(contains(translation.code.substr(0, translation.code.find("#line")), "_XOPEN_SOURCE"));
}

TEST(TranslatorOutput, VariablesAreSortedAndEachIsOneValue) {
  const Translation translation = run("void f(int P, int N, int q) {\n#pragma cll x x[0]*q + x[1]*N*P + x[2]*log(N)/P\n#pragma cll end x\n}\n");
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  EXPECT_EQ(translation.experiments[0].variables, (std::vector<std::string>{"N", "P", "q"}));
  EXPECT_TRUE(contains(translation.code, "{(double)(N), (double)(P), (double)(q)}"));
  EXPECT_TRUE(contains(translation.code, "\"N,P,q\");"));
}

TEST(TranslatorOutput, EscapesNothingSurprisingInTheFormulaText) {
  const Translation translation = run("void f(int n) {\n#pragma cll a a[0] + /* per element */ a[1]*n // linear\n#pragma cll end a\n}\n");
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  EXPECT_EQ(translation.experiments[0].formula, "a[0] + a[1]*n");
}

// ---- Lines, continuations, comments and strings -------------------------------------------------

TEST(TranslatorLines, AContinuedPragmaBecomesOneLineOfCodeAndEmptyLines) {
  const std::string text = "int f(int N, int P) {\n#pragma cll e e[0] + \\\n  e[1]*N + \\\r\n  e[2]*P\nreturn 0;\n#pragma \\\ncll \\\nend e\n}\n";
  const Translation translation = run(text);
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  EXPECT_EQ(translation.experiments[0].formula, "e[0] + e[1]*N + e[2]*P");
  const std::vector<std::string> lines = body_lines(translation);
  EXPECT_EQ(lines, (std::vector<std::string>{"int f(int N, int P) {",
                                             "{ const double augur_cll_values[] = {(double)(N), (double)(P)}; augur_experiment_begin(augur_cll_e, augur_cll_values); }",
                                             "", "", "return 0;", "augur_experiment_end(augur_cll_e);", "", "", "}"}));
}

TEST(TranslatorLines, TheTranslationHasTheSourcesLinesAfterThePreamble) {
  for (const char* name : {"figure3.c", "figure4.c"}) {
    const std::string source = read_data(name);
    const Translation translation = run(source, name);
    ASSERT_TRUE(translation.ok()) << name;
    const auto count = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
    const std::size_t line_directive = translation.code.find("#line 1 ");
    const std::size_t body = translation.code.find('\n', line_directive) + 1;
    EXPECT_EQ(count(translation.code.substr(body)), count(source)) << name;
  }
}

TEST(TranslatorLexing, PragmasInCommentsAndLiteralsAreText) {
  const std::string text =
      "// #pragma cll a a[0]\n"
      "/* a comment\n"
      "#pragma cll b b[0]\n"
      "*/\n"
      "const char* s = \"#pragma cll c c[0]\\\"\";\n"
      "const char* r = R\"x(\n"
      "#pragma cll d d[0] )\"\n"
      ")x\";\n"
      "const char* u = u8R\"(\n"
      "#pragma cll e e[0]\n"
      ")\";\n"
      "char q = '\"';\n"
      "// a comment continued \\\n"
      "#pragma cll f f[0]\n"
      "int i = 1'000;\n"
      "const char* w = L\"#pragma cll g g[0]\";\n";
  const Translation translation = run(text);
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  EXPECT_EQ(translation.pragmas, 0);
  EXPECT_EQ(translation.code, "#line 1 \"t.c\"\n" + text);
}

TEST(TranslatorLexing, ADirectiveMayFollowAComment) {
  const Translation translation = run("int f(void) {\n/* c */ # /* d */ pragma cll a a[0]\n  /* e\n */ #pragma cll end a\nreturn 0; }\n");
  ASSERT_TRUE(translation.ok()) << ::testing::PrintToString(messages(translation));
  EXPECT_EQ(translation.pragmas, 2);
  const std::vector<std::string> lines = body_lines(translation);
  EXPECT_EQ(lines[1], "/* c */ augur_experiment_begin(augur_cll_a, 0);");
  EXPECT_EQ(lines[3], " */ augur_experiment_end(augur_cll_a);");
}

TEST(TranslatorLexing, APragmaAfterOtherTokensOnItsLineIsNotADirective) {
  const Translation translation = run("int x; #pragma cll a a[0]\n");
  EXPECT_TRUE(translation.ok());
  EXPECT_EQ(translation.pragmas, 0);
}

TEST(TranslatorLexing, OnlyIdentifiersOfTheCodeDeclareVariables) {
  // N only in a comment, a string, a character literal and the formula of another pragma: not declared.
  const std::string text = "/* N */ const char* s = \"N\"; char c = 'N';\nint f(void) {\n#pragma cll a a[0]*N\n#pragma cll end a\n"
                           "#pragma cll b b[0]*N\n#pragma cll end b\nreturn 0; }\n";
  EXPECT_EQ(messages(run(text)), (std::vector<std::string>{"t.c:3:20: variable 'N' of experiment a is not declared before this point",
                                                           "t.c:5:20: variable 'N' of experiment b is not declared before this point"}));
  // A macro's name counts; so does a number's neighbour but not its exponent (1e5 has no identifier e5).
  EXPECT_TRUE(run("#define N 1024\nvoid f(void) {\n#pragma cll a a[0]*N\n#pragma cll end a\n}\n").ok());
  EXPECT_EQ(messages(run("double x = 1e5;\nvoid f(void) {\n#pragma cll a a[0]*e5\n#pragma cll end a\n}\n")),
            (std::vector<std::string>{"t.c:3:20: variable 'e5' of experiment a is not declared before this point"}));
}

}  // namespace
