// The TSPP input language (seed 004, Figure 11) and the shared expression language.
#include <gtest/gtest.h>

#include <cmath>

#include "augur/core/expression.hpp"
#include "core/files.hpp"
#include "augur/tspp.hpp"

namespace augur::tspp {
namespace {

using core::InputError;

// The diagnostic of parsing `text`, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    (void)parse_task_system(text, "in.tspp");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

const std::string resources = "resource\n  cpu <- queuing;\n  disk <- queuing 2;\n  net <- delay;\n";

TEST(TsppLanguage, ParsesTheSeedsFigure11) {
  const std::string path = std::string(AUGUR_EXAMPLES_DIR) + "/tspp/figure11.tspp";
  const TaskSystem system = parse_task_system(core::read_file(path), path);
  ASSERT_EQ(system.resources.size(), 3u);
  EXPECT_EQ(system.resources[1].name, "disk-1");
  EXPECT_EQ(system.resources[2].kind, Resource::Kind::Queuing);
  EXPECT_EQ(system.resources[2].servers, 1);
  ASSERT_EQ(system.tasks.size(), 6u);
  EXPECT_EQ(system.tasks[2].name, "task-3");
  EXPECT_EQ(system.tasks[2].demands, (std::vector<double>{0.62, 0.6, 0.6}));
  EXPECT_EQ(describe_structure(system), "[ { [ task-1; task-2; ] task-3; } { task-4; [ task-5; task-6; ] } ]");
  EXPECT_EQ(system.structure.kind, Node::Kind::Parallel);
}

TEST(TsppLanguage, ResourceKindsServersAndExpressions) {
  const TaskSystem system =
      parse_task_system(resources + "task\n  a <- { cpu: 2 * (0.5 + 0.25); net: 1/4; }\nstructure\n  { a; }\n", "x");
  EXPECT_EQ(system.resources[1].servers, 2);
  EXPECT_EQ(system.resources[2].kind, Resource::Kind::Delay);
  EXPECT_DOUBLE_EQ(system.tasks[0].demands[0], 1.5);
  EXPECT_DOUBLE_EQ(system.tasks[0].demands[1], 0.0) << "no demand given: 0";
  EXPECT_DOUBLE_EQ(system.tasks[0].demands[2], 0.25);
}

TEST(TsppLanguage, NestsToAnyDepthAndIgnoresComments) {
  std::string structure = "a;";
  for (int depth = 0; depth < 50; ++depth) structure = (depth % 2 ? "{ " : "[ ") + structure + (depth % 2 ? " }" : " ]");
  const TaskSystem system = parse_task_system(
      "% comment\nresource cpu <- queuing; % trailing\ntask a <- { cpu: 1; } % x\nstructure " + structure + "\n% end\n", "x");
  EXPECT_EQ(system.tasks.size(), 1u);
}

TEST(TsppLanguage, RefusesNestingDeeperThanAThousand) {
  const std::string head = resources + "task a <- { cpu: 1; }\nstructure ";
  EXPECT_EQ(error_of(head + std::string(100000, '[') + "a;" + std::string(100000, ']')),
            "in.tspp:6:1011: groups nested more than 1000 deep");
  EXPECT_EQ(error_of(head + std::string(1000, '[') + "a;" + std::string(1000, ']')), "");
}

TEST(TsppLanguage, ReadsLargeSystems) {
  // 40 000 tasks: names are looked up in hash tables and lines counted once (the parse is linear).
  std::string text = "resource cpu <- queuing;\ntask\n";
  std::string structure = "structure {\n";
  for (int i = 0; i < 40000; ++i) {
    text += "  t" + std::to_string(i) + " <- { cpu: 1; }\n";
    structure += "  t" + std::to_string(i) + ";\n";
  }
  const TaskSystem system = parse_task_system(text + structure + "}\n", "big");
  EXPECT_EQ(system.tasks.size(), 40000u);
  EXPECT_EQ(system.tasks.back().declared.line, 40002);
  EXPECT_EQ(error_of(resources + "task a <- { cpu: 1e300; }\nstructure { a; }"),
            "in.tspp:5:18: the demand of task 'a' on 'cpu' is too large (1e+300; at most 1e15)");
}

TEST(TsppLanguage, ErrorsNameFileLineAndColumn) {
  const std::string tasks = "task\n  a <- { cpu: 1; }\n  b <- { disk: 2; }\n";
  EXPECT_EQ(error_of(resources + "task\n  a <- { gpu: 1; }\nstructure { a; }"),
            "in.tspp:6:10: unknown resource 'gpu' in task 'a'");
  EXPECT_EQ(error_of(resources + tasks + "structure\n  { a; b; a; }\n"),
            "in.tspp:9:11: task 'a' appears twice in the structure (first at 9:5)");
  EXPECT_EQ(error_of(resources + tasks + "structure\n  { a; }\n"),
            "in.tspp:7:3: task 'b' is declared but never used in the structure");
  EXPECT_EQ(error_of(resources + tasks + "structure\n  { a; [ ] b; }\n"), "in.tspp:9:8: empty parallel group []");
  EXPECT_EQ(error_of(resources + "task\n  a <- { cpu: 1 - 2; }\nstructure { a; }"),
            "in.tspp:6:15: the demand of task 'a' on 'cpu' is negative (-1)");
  EXPECT_EQ(error_of(resources + tasks + "structure\n  { a; c; b; }\n"), "in.tspp:9:8: unknown task 'c' in the structure");
  EXPECT_EQ(error_of("resource\n  cpu <- queuing 0;\n"),
            "in.tspp:2:18: the number of servers of 'cpu' must be a positive integer, not 0");
  EXPECT_EQ(error_of("resource\n  cpu <- queuing 1.5;\n"),
            "in.tspp:2:18: the number of servers of 'cpu' must be a positive integer, not 1.5");
  EXPECT_EQ(error_of("resource\n  cpu <- fast;\n"), "in.tspp:2:10: unknown resource type 'fast' (expected queuing or delay)");
  EXPECT_EQ(error_of("resource\n  cpu <- queuing;\n  cpu <- delay;\n"),
            "in.tspp:3:3: resource 'cpu' is declared twice (first at 2:3)");
  EXPECT_EQ(error_of(resources + "task\n  a <- { cpu: 1 / 0; }\nstructure { a; }"), "in.tspp:6:17: division by zero");
  EXPECT_EQ(error_of(resources + "task\n  a <- { cpu: 1 }\nstructure { a; }"),
            "in.tspp:6:17: expected ';' after the demand on 'cpu' but found '}'");
  EXPECT_EQ(error_of(resources + tasks + "structure\n  { a; b; \n"), "in.tspp:9:3: this '{' is never closed with '}'");
  EXPECT_EQ(error_of(resources + tasks + "structure\n  { a; b; ]\n"),
            "in.tspp:9:11: ']' does not close the '{' at 9:3");
  EXPECT_EQ(error_of(resources + tasks + "structure\n  { a; } { b; }\n"),
            "in.tspp:9:10: unexpected text after the structure (it is one group)");
  EXPECT_EQ(error_of("task\n  a <- { cpu: 1; }\n"),
            "in.tspp:1:1: expected the 'resource' section but found 'task' (sections come in the order resource, task, "
            "structure)");
  EXPECT_EQ(error_of(resources), "in.tspp:5:1: expected the 'task' section but the file ends");
  EXPECT_EQ(error_of(resources + "task\nstructure { }"), "in.tspp:6:1: the task section declares no task");
  EXPECT_EQ(error_of(resources + "task\n  a <- { cpu: 1; cpu: 2; }\nstructure { a; }"),
            "in.tspp:6:18: task 'a' gives its demand on 'cpu' twice");
  EXPECT_EQ(error_of(resources + "task\n  a <- { cpu: 1; }\n  a <- { cpu: 1; }\nstructure { a; }"),
            "in.tspp:7:3: task 'a' is declared twice (first at 6:3)");
  EXPECT_EQ(error_of(resources + "task\n  a <- { cpu: x; }\nstructure { a; }"), "in.tspp:6:15: unknown name 'x'");
  EXPECT_EQ(error_of(resources + "task\n  a { cpu: 1; }\nstructure { a; }"), "in.tspp:6:5: expected '<-'");
}

}  // namespace
}  // namespace augur::tspp

namespace augur::core {
namespace {

double value_of(const std::string& text, const Bindings& bindings = {}) {
  const SourceText source("expr", text);
  return evaluate(*parse_expression(source), bindings, source);
}

TEST(Expression, FollowsPrecedenceAndAssociativity) {
  EXPECT_DOUBLE_EQ(value_of("1 + 2 * 3"), 7.0);
  EXPECT_DOUBLE_EQ(value_of("(1 + 2) * 3"), 9.0);
  EXPECT_DOUBLE_EQ(value_of("8 / 4 / 2"), 1.0);
  EXPECT_DOUBLE_EQ(value_of("10 - 4 - 3"), 3.0);
  EXPECT_DOUBLE_EQ(value_of("2 ^ 3 ^ 2"), 512.0);
  EXPECT_DOUBLE_EQ(value_of("-2 ^ 2"), 4.0) << "unary minus binds tighter than ^";
  EXPECT_DOUBLE_EQ(value_of("- - 3"), 3.0);
  EXPECT_DOUBLE_EQ(value_of(".5e1 + 1E-1"), 5.1);
}

TEST(Expression, NamesAndFunctions) {
  const Bindings bindings{{"N", 1024.0}, {"P", 4.0}};
  EXPECT_DOUBLE_EQ(value_of("N * log2(N) / P", bindings), 1024.0 * 10.0 / 4.0);
  EXPECT_DOUBLE_EQ(value_of("max(1, P, 3) + min(2, 7)", bindings), 6.0);
  EXPECT_DOUBLE_EQ(value_of("sqrt(16) + pow(2, 3) + abs(-1) + exp(0) + log(1) + log10(100)"), 16.0);
}

TEST(Expression, ErrorsPointAtTheFault) {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      (void)value_of(text);
    } catch (const InputError& error) {
      return error.what();
    }
    return "";
  };
  EXPECT_EQ(error_of("1 +"), "expr:1:4: expected a number, a name or '(' but the text ends");
  EXPECT_EQ(error_of("(1 + 2"), "expr:1:7: expected a ')' to close the '(' at 1:1 but the text ends");
  EXPECT_EQ(error_of("2 * N"), "expr:1:5: unknown name 'N'");
  EXPECT_EQ(error_of("foo(1)"), "expr:1:1: unknown function 'foo' (known: sqrt, log, log2, ln, log10, exp, abs, min, max, pow)");
  EXPECT_EQ(error_of("sqrt(1, 2)"), "expr:1:1: sqrt() takes 1 argument, not 2");
  EXPECT_EQ(error_of("1 2"), "expr:1:3: unexpected '2' after the expression");
  EXPECT_EQ(error_of("log(0)"), "expr:1:1: the value of log(0) is not a finite number");
  EXPECT_EQ(error_of("1 / (2 - 2)"), "expr:1:3: division by zero");
  EXPECT_EQ(error_of(std::string(5000, '(') + "1" + std::string(5000, ')')), "expr:1:1001: expression nested more than 1000 deep");
  EXPECT_EQ(error_of(std::string(5000, '-') + "1"), "expr:1:1001: expression nested more than 1000 deep");
  // Long chains build deep trees without deep parsing: refused too, not a stack overflow later.
  std::string sum = "1";
  std::string tower = "1";
  for (int i = 0; i < 50000; ++i) {
    sum += "+1";
    tower += "^1";
  }
  EXPECT_NE(error_of(sum).find("expression nested more than 1000 deep"), std::string::npos);
  EXPECT_NE(error_of(tower).find("expression nested more than 1000 deep"), std::string::npos);
  std::string long_enough = "1";
  for (int i = 0; i < 900; ++i) long_enough += "+1";
  EXPECT_DOUBLE_EQ(value_of(long_enough), 901.0);
}

TEST(Expression, WritesItselfBack) {
  const SourceText source("expr", "a*b+-c/2^x");
  EXPECT_EQ(parse_expression(source)->to_string(), "((a * b) + (-(c) / (2^x)))");
  EXPECT_EQ(format_shortest(0.42), "0.42");
}

}  // namespace
}  // namespace augur::core
