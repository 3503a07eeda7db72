// The program model's parser (src/sim/cache/model.hpp): every construct, the layout, and every error at
// file:line:col.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "sim/cache/model.hpp"

namespace augur::sim::cache {
namespace {

Model parse(const std::string& text, const core::Bindings& defines = {}) {
  return parse_model(core::SourceText("m.model", text), defines);
}

// The diagnostic of a model that must be refused ("" when it parses).
std::string error_of(const std::string& text, const core::Bindings& defines = {}) {
  try {
    (void)parse(text, defines);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "";
}

const std::string seed_example = R"(# the seed's a/b example: one loop reading two scalars
param N = 1000
array a[1] element 8
array m[N][N] element 8 align 64
proc main
  for i = 0 to N - 1
    read a[0]
    write m[i][i + 1 - 1]
    read *m miss 0.5
    if 0.3
      call helper
    else if 0.2
      read a[0]
    else
    end
  end
end
proc helper
  read a[0]
end
)";

TEST(CacheModel, TheSeedExampleParsesIntoItsParts) {
  const Model model = parse(seed_example);
  ASSERT_EQ(model.parameters.size(), 1u);
  EXPECT_EQ(model.parameters[0].name, "N");
  EXPECT_EQ(model.parameters[0].value, 1000.0);
  ASSERT_EQ(model.arrays.size(), 2u);
  EXPECT_EQ(model.arrays[0].base, 0u);
  EXPECT_EQ(model.arrays[0].bytes, 8u);
  EXPECT_EQ(model.arrays[1].base, 64u);  // 8 rounded up to the alignment 64
  EXPECT_EQ(model.arrays[1].elements, 1000000u);
  EXPECT_EQ(model.footprint, 64u + 8000000u);
  ASSERT_EQ(model.procedures.size(), 2u);
  EXPECT_EQ(model.entry, 0u);
  EXPECT_EQ(model.procedures[0].loop_depth, 1u);
  EXPECT_EQ(model.reference_count, 5u);
  EXPECT_FALSE(model.recursive);
  EXPECT_EQ(model.max_depth, 2u);

  const Loop& loop = std::get<Loop>(model.procedures[0].body.at(0).node);
  EXPECT_EQ(loop.variable, "i");
  EXPECT_EQ(loop.first.constant, 0);
  EXPECT_EQ(loop.last.constant, 999);
  EXPECT_EQ(loop.step, 1);
  EXPECT_EQ(loop.where.line, 6);
  ASSERT_EQ(loop.body.size(), 4u);
  const Reference& write = std::get<Reference>(loop.body[1].node);
  EXPECT_EQ(write.kind, AccessKind::Write);
  EXPECT_EQ(write.id, 1u);
  ASSERT_EQ(write.indices.size(), 2u);
  EXPECT_EQ(write.indices[1].constant, 0);
  EXPECT_EQ(write.indices[1].coefficients, std::vector<std::int64_t>{1});
  // m[i][i]: 64 + 8 × (1000 i + i)
  EXPECT_EQ(write.address.constant, 64);
  EXPECT_EQ(write.address.coefficients, std::vector<std::int64_t>{8008});
  const Reference& pointer = std::get<Reference>(loop.body[2].node);
  EXPECT_TRUE(pointer.through_pointer);
  EXPECT_EQ(pointer.array, 1u);
  EXPECT_EQ(pointer.miss_probability, 0.5);
  const Branch& branch = std::get<Branch>(loop.body[3].node);
  ASSERT_EQ(branch.arms.size(), 3u);
  EXPECT_EQ(branch.arms[0].probability, 0.3);
  EXPECT_EQ(std::get<Call>(branch.arms[0].body.at(0).node).procedure, 1u);
  EXPECT_EQ(branch.arms[1].probability, 0.2);
  EXPECT_TRUE(branch.arms[2].is_else);
  EXPECT_NEAR(branch.arms[2].probability, 0.5, 1e-12);
  EXPECT_TRUE(branch.arms[2].body.empty());
  EXPECT_EQ(std::get<Reference>(model.procedures[1].body.at(0).node).id, 4u);
}

TEST(CacheModel, DefinesOverrideParametersAndLaterDeclarationsUseThem) {
  const Model model =
      parse("param N = 4\nparam M = N * 2\narray x[M] element 4\nproc main\nread x[M - 1]\nend\n", {{"N", 10.0}});
  EXPECT_EQ(model.parameters[1].value, 20.0);
  EXPECT_EQ(model.arrays[0].dimensions, std::vector<std::int64_t>{20});
  EXPECT_EQ(std::get<Reference>(model.procedures[0].body[0].node).address.constant, 76);
  EXPECT_EQ(error_of("param N = 4\nproc main\nend\n", {{"K", 1.0}}),
            "--define: unknown parameter 'K' (the model declares N)");
}

TEST(CacheModel, ArraysAreLaidOutInDeclarationOrderAtTheirAlignment) {
  const Model model =
      parse("array s element 3\narray v[5] element 2 align 16\narray w[2][3] align 4096 element 1\nproc main\nend\n");
  EXPECT_TRUE(model.arrays[0].dimensions.empty());
  EXPECT_EQ(model.arrays[0].base, 0u);
  EXPECT_EQ(model.arrays[1].base, 16u);
  EXPECT_EQ(model.arrays[1].bytes, 10u);
  EXPECT_EQ(model.arrays[2].base, 4096u);
  EXPECT_EQ(model.arrays[2].bytes, 6u);
  EXPECT_EQ(model.footprint, 4102u);
}

TEST(CacheModel, AffineIndicesReduceWithEveryOperatorOfTheLanguage) {
  const Model model = parse(
      "param N = 8\narray m[N][N] element 4\nproc main\nfor i = 1 to N / 2\nfor j = i to 2 * i - 1 step 1\n"
      "read m[(j - i) * 2 / 2][-(-j) + max(0, 1) - 1]\nend\nend\nend\n");
  const Loop& outer = std::get<Loop>(model.procedures[0].body[0].node);
  const Loop& inner = std::get<Loop>(outer.body[0].node);
  EXPECT_EQ(inner.depth, 1u);
  EXPECT_EQ(inner.first.coefficients, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(inner.last.coefficients, (std::vector<std::int64_t>{2}));
  EXPECT_EQ(inner.last.constant, -1);
  const Reference& reference = std::get<Reference>(inner.body[0].node);
  // m[j - i][j] = 4 × (8 (j - i) + j) = -32 i + 36 j
  EXPECT_EQ(reference.address.coefficients, (std::vector<std::int64_t>{-32, 36}));
  EXPECT_EQ(model.procedures[0].loop_depth, 2u);
}

TEST(CacheModel, TripCountsFollowTheStep) {
  const Model model = parse(
      "array a[10]\nproc main\nfor i = 0 to 9 step 4\nread a[i]\nend\nfor k = 9 to 0 step -3\nread a[k]\nend\nend\n");
  const Loop& up = std::get<Loop>(model.procedures[0].body[0].node);
  const Loop& down = std::get<Loop>(model.procedures[0].body[1].node);
  EXPECT_EQ(trip_count(up, {}), 3);    // 0 4 8
  EXPECT_EQ(trip_count(down, {}), 4);  // 9 6 3 0
}

TEST(CacheModel, IndicesAreCheckedOverTheWholeIterationSpace) {
  // Triangular nests: j runs 0..i-1, empty when i = 0, so j never reaches 9.
  EXPECT_EQ(error_of("array a[9]\nproc main\nfor i = 0 to 9\nfor j = 0 to i - 1\nread a[j]\nend\nend\nend\n"), "");
  EXPECT_EQ(error_of("array a[8]\nproc main\nfor i = 0 to 9\nfor j = 0 to i - 1\nread a[j]\nend\nend\nend\n"),
            "m.model:5:8: index 'j' of array 'a' reaches 8 on some iteration, outside 0..7");
  EXPECT_EQ(error_of("array a[3]\nproc main\nfor i = 0 to 9\nfor j = i to i + 2\nread a[j - i]\nend\nend\nend\n"), "");
  // The step stops at 8, short of the bound 9.
  EXPECT_EQ(error_of("array a[9]\nproc main\nfor i = 0 to 9 step 4\nread a[i]\nend\nend\n"), "");
  EXPECT_EQ(error_of("array a[10]\nproc main\nfor i = 9 to 0 step -1\nread a[i]\nend\nend\n"), "");
  EXPECT_EQ(error_of("array a[10]\nproc main\nfor i = 9 to 0 step -1\nread a[i - 1]\nend\nend\n"),
            "m.model:4:8: index 'i - 1' of array 'a' reaches -1 on some iteration, outside 0..9");
  EXPECT_EQ(
      error_of("param N = 4\narray m[N][N]\nproc main\n  for i = 0 to N - 1\n    write m[i][i + 1]\n  end\nend\n"),
      "m.model:5:16: index 'i + 1' of array 'm' reaches 4 on some iteration, outside 0..3 (dimension 2)");
  EXPECT_EQ(error_of("array a[2]\nproc main\nread a[2]\nend\n"),
            "m.model:3:8: index '2' of array 'a' reaches 2 on some iteration, outside 0..1");
}

TEST(CacheModel, DeclarationErrorsAreLocated) {
  EXPECT_EQ(error_of("proc helper\nend\n"), "m.model: the model has no procedure 'main'");
  EXPECT_EQ(error_of("array a[1]\narray a[2]\nproc main\nend\n"), "m.model:2:7: array 'a' is already an array");
  EXPECT_EQ(error_of("param a = 1\narray a[2]\nproc main\nend\n"), "m.model:2:7: array 'a' is already a parameter");
  EXPECT_EQ(error_of("array a[0]\nproc main\nend\n"),
            "m.model:1:9: a dimension must be a whole number in 1..140737488355328, not 0");
  EXPECT_EQ(error_of("array a[2] element 0\nproc main\nend\n"),
            "m.model:1:20: the element size must be a whole number in 1..16383, not 0");
  EXPECT_EQ(error_of("array a[2] align 48\nproc main\nend\n"), "m.model:1:18: the alignment must be a power of two");
  EXPECT_EQ(error_of("array a[2] colour 4\nproc main\nend\n"),
            "m.model:1:12: expected 'element', 'align' or the end of the line but found 'colour'");
  EXPECT_EQ(error_of("param N = M\nproc main\nend\n"), "m.model:1:11: unknown name 'M'");
  EXPECT_EQ(error_of("param N 4\nproc main\nend\n"),
            "m.model:1:9: expected '=' after the parameter name but found '4'");
  EXPECT_EQ(error_of("  parameter N = 4\n"),
            "m.model:1:3: expected param, array, max_depth or proc but found 'parameter'");
  EXPECT_EQ(error_of("proc main\nend\nproc main\nend\n"),
            "m.model:3:6: procedure 'main' is declared twice (first at line 1)");
  EXPECT_EQ(error_of("array a[65536][65536][65536]\nproc main\nend\n"),
            "m.model:1:7: array 'a' has more than 2^47 elements");
  EXPECT_EQ(error_of("array a[4398046511104] element 128\nproc main\nend\n"),
            "m.model:1:7: the arrays need more than 2^48 bytes of addresses (array 'a')");
  EXPECT_EQ(error_of("max_depth 0\nproc main\nend\n"),
            "m.model:1:11: max_depth must be a whole number in 1..100000, not 0");
}

TEST(CacheModel, StatementErrorsAreLocated) {
  const std::string head = "param N = 4\narray a[N]\narray m[N][N]\nproc main\n";
  EXPECT_EQ(error_of(head + "read b[0]\nend\n"), "m.model:5:6: unknown array 'b'");
  EXPECT_EQ(error_of(head + "read a[K]\nend\n"), "m.model:5:8: unknown name 'K'");
  EXPECT_EQ(error_of(head + "read m[0]\nend\n"),
            "m.model:5:6: array 'm' has 2 dimensions but the reference gives 1 index");
  EXPECT_EQ(error_of(head + "read a[0][0]\nend\n"),
            "m.model:5:6: array 'a' has 1 dimension but the reference gives 2 indices");
  EXPECT_EQ(error_of(head + "for i = 0 to 3\nfor j = 0 to 3\nread a[i * j]\nend\nend\nend\n"),
            "m.model:7:10: 'i * j' is not affine: it multiplies loop variables together");
  EXPECT_EQ(error_of(head + "for i = 0 to 3\nread a[i / 2]\nend\nend\n"),
            "m.model:6:10: 'i / 2' does not reduce to integer coefficients (indices and bounds are integers)");
  EXPECT_EQ(error_of(head + "for i = 0 to 3\nread a[sqrt(i)]\nend\nend\n"),
            "m.model:6:8: 'sqrt(i)' is not affine in the loop variables");
  EXPECT_EQ(error_of(head + "for i = 0 to 3 -\nread a[0]\nend\nend\n"),
            "m.model:5:17: the expression continues past the end of the line (one statement per line)");
  EXPECT_EQ(error_of(head + "for i = 0 to 3\nend\nend\n"), "m.model:5:1: loop 'i' has an empty body");
  EXPECT_EQ(error_of(head + "for i = 5 to 4\nread a[0]\nend\nend\n"),
            "m.model:5:1: loop 'i' never runs (its bounds are empty on every iteration of the loops around it)");
  EXPECT_EQ(error_of(head + "  for i = 0 to 3 step 0\nread a[0]\nend\nend\n"), "m.model:5:23: the step must not be 0");
  EXPECT_EQ(error_of(head + "for N = 0 to 3\nread a[0]\nend\nend\n"),
            "m.model:5:5: loop variable 'N' is already a keyword, parameter, array or outer loop variable");
  EXPECT_EQ(error_of(head + "for i = 0 to 3\nread a[0]\nend\n"), "m.model:4:1: procedure 'main' has no 'end'");
  EXPECT_EQ(error_of(head + "  for i = 0 to 3\nread a[0]\n"), "m.model:5:3: loop 'i' has no 'end'");
  EXPECT_EQ(error_of(head + "read *a\nend\n"),
            "m.model:5:8: expected 'miss' after a reference through a pointer (read *a miss P) but the line ends");
  EXPECT_EQ(error_of(head + "read *a miss 2\nend\n"), "m.model:5:14: the miss probability must be in [0, 1], not 2");
  EXPECT_EQ(error_of(head + "if -0.5\nread a[0]\nend\nend\n"),
            "m.model:5:4: the branch probability must be in [0, 1], not -0.5");
  EXPECT_EQ(error_of(head + "if 0.6\nread a[0]\nelse if 0.5\nread a[1]\nend\nend\n"),
            "m.model:7:9: the branch's probabilities sum to 1.1, over 1");
  EXPECT_EQ(error_of(head + "if 0.6\nelse\nelse\nend\nend\n"),
            "m.model:7:1: expected 'end' after the branch's 'else' arm but found 'else'");
  EXPECT_EQ(error_of(head + "else\nend\n"), "m.model:5:1: expected 'end' to close procedure 'main' but found 'else'");
  EXPECT_EQ(error_of(head + "if 0.5\nread a[0]\n"), "m.model:5:1: 'if' has no 'end'");
  EXPECT_EQ(error_of(head + "call nowhere\nend\n"), "m.model:5:6: unknown procedure 'nowhere'");
  EXPECT_EQ(error_of(head + "array b[2]\nend\n"),
            "m.model:5:1: 'array' inside procedure 'main' (is an 'end' missing?)");
  EXPECT_EQ(error_of(head + "load a[0]\nend\n"),
            "m.model:5:1: expected a statement (for, read, write, if, call) or 'end' but found 'load'");
  EXPECT_EQ(error_of(head + "read a[0] now\nend\n"),
            "m.model:5:11: unexpected text after the reference but found 'now'");
  EXPECT_EQ(error_of(head + "for i = 0 to 2^48\nread a[0]\nend\nend\n"),
            "m.model:5:15: '2^48' goes beyond 2^47 in magnitude");
  EXPECT_EQ(error_of(head + "for i = 0 to 2^46\nfor j = 0 to 4 * i\nread a[0]\nend\nend\nend\n"),
            "m.model:6:1: loop 'j' goes beyond 2^47 in magnitude");
  EXPECT_EQ(error_of(head + "for i = 0 to 2^46\nfor j = 0 to 2^46 * i\nread a[0]\nend\nend\nend\n"),
            "m.model:6:1: the last value of loop 'j' is too large to compute in 64 bits");
  EXPECT_EQ(error_of(head + "end extra\n"), "m.model:5:5: unexpected text after 'end' but found 'extra'");
}

TEST(CacheModel, RecursionNeedsABranchAndAStatedDepth) {
  const std::string recursive = "proc main\ncall walk\nend\nproc walk\nread a[0]\nif 0.5\ncall walk\nend\nend\n";
  EXPECT_EQ(error_of("array a[1]\n" + recursive),
            "m.model:8:1: the recursive call of 'walk' needs a 'max_depth D' line to bound the call depth");
  const Model model = parse("array a[1]\nmax_depth 20\n" + recursive);
  EXPECT_TRUE(model.recursive);
  EXPECT_EQ(model.max_depth, 20u);
  EXPECT_FALSE(std::get<Call>(model.procedures[0].body[0].node).recursive);
  const Branch& branch = std::get<Branch>(model.procedures[1].body[1].node);
  EXPECT_TRUE(std::get<Call>(branch.arms[0].body[0].node).recursive);
  // A cycle through two procedures, neither call under a branch.
  EXPECT_EQ(
      error_of("max_depth 5\nproc main\ncall f\nend\nproc f\ncall g\nend\nproc g\ncall f\nend\n"),
      "m.model:6:1: the recursion through this call of 'g' is under no branch, so it never ends (put a call of the "
      "cycle under 'if P')");
  // One guarded call on the cycle is enough.
  EXPECT_EQ(error_of("max_depth 5\nproc main\ncall f\nend\nproc f\ncall g\nend\nproc g\nif 0.1\ncall f\nend\nend\n"),
            "");
}

TEST(CacheModel, CommentsBlankLinesAndIndentationAreFree) {
  const Model model = parse("\xEF\xBB\xBF# head\n\n   array a[2] # two\n\tproc main   \n  read a[1]#x\n end\n");
  EXPECT_EQ(std::get<Reference>(model.procedures[0].body[0].node).where.line, 5);
  EXPECT_EQ(std::get<Reference>(model.procedures[0].body[0].node).where.column, 3);
  EXPECT_EQ(std::get<Reference>(model.procedures[0].body[0].node).address.constant, 8);
}

// The model of docs/formats.md ("Program models", its last block) parses, with its recursion bounded.
TEST(CacheModel, TheModelOfTheFormatsPageParses) {
  std::ifstream file(std::string(AUGUR_SOURCE_DIR) + "/docs/formats.md");
  const std::string page{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  const std::size_t section = page.find("## Program models");
  ASSERT_NE(section, std::string::npos);
  const std::size_t open = page.rfind("```\n", page.rfind("\n```") - 1);
  ASSERT_GT(open, section);
  const std::size_t close = page.find("\n```", open + 4);
  const Model model = parse(page.substr(open + 4, close + 1 - (open + 4)));
  EXPECT_TRUE(model.recursive);
  EXPECT_EQ(model.max_depth, 8u);
  EXPECT_EQ(model.arrays[1].base, 64u);
  EXPECT_EQ(model.procedures.size(), 2u);
}

}  // namespace
}  // namespace augur::sim::cache
