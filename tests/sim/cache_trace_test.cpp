// The exact expansion of a program model (src/sim/cache/model_trace.hpp) against address sequences
// computed by hand, and the trace writer (trace_writer.hpp).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cache/model.hpp"
#include "sim/cache/model_trace.hpp"
#include "sim/cache/trace_writer.hpp"

namespace augur::sim::cache {
namespace {

Model parse(const std::string& text) {
  return parse_model(core::SourceText("t.model", text), {});
}

// The whole trace, read in batches of `batch` accesses.
std::vector<Access> expand(const Model& model, std::size_t batch = 4096, std::uint64_t seed = 1) {
  ModelTrace trace(model, RandomStream(seed, 0));
  std::vector<Access> all;
  std::vector<Access> buffer(batch);
  for (std::size_t count; (count = trace.read(buffer)) > 0;)
    all.insert(all.end(), buffer.begin(), buffer.begin() + count);
  return all;
}

std::vector<std::uint64_t> addresses(const std::vector<Access>& accesses) {
  std::vector<std::uint64_t> result;
  for (const Access& access : accesses) result.push_back(access.address);
  return result;
}

TEST(CacheTrace, TheAbLoopAlternatesItsTwoScalars) {
  const Model model = parse("array a[1]\narray b[1]\nproc main\nfor i = 1 to 3\nread a[0]\nwrite b[0]\nend\nend\n");
  const std::vector<Access> trace = expand(model);
  ASSERT_EQ(trace.size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(trace[k].address, k % 2 == 0 ? 0u : 64u);  // b at the next 64-byte boundary
    EXPECT_EQ(trace[k].size, 8u);
    EXPECT_EQ(trace[k].kind, k % 2 == 0 ? AccessKind::Read : AccessKind::Write);
  }
}

TEST(CacheTrace, NestsStepsAndTriangularBoundsGiveTheHandComputedSequence) {
  const Model model = parse(
      "array m[3][4] element 4 align 16\narray v[5] element 2 align 16\nproc main\n"
      "for i = 0 to 2\nfor j = 0 to 3 step 2\nread m[i][j]\nend\nend\n"
      "for i = 0 to 3\nfor j = 0 to i - 1\nwrite v[j + 1]\nend\nend\n"
      "for k = 4 to 0 step -2\nread v[k]\nend\nend\n");
  std::vector<std::uint64_t> expected;
  for (std::uint64_t i = 0; i <= 2; ++i) {
    for (std::uint64_t j = 0; j <= 3; j += 2) expected.push_back(4 * (4 * i + j));
  }
  for (std::uint64_t i = 0; i <= 3; ++i) {
    for (std::uint64_t j = 0; j < i; ++j) expected.push_back(48 + 2 * (j + 1));
  }
  for (std::uint64_t k : {4, 2, 0}) expected.push_back(48 + 2 * k);
  EXPECT_EQ(addresses(expand(model)), expected);
  // The same sequence whatever the batch size (the fast path for whole iterations stops and resumes).
  for (const std::size_t batch : {1u, 2u, 3u, 5u, 7u}) EXPECT_EQ(addresses(expand(model, batch)), expected) << batch;
}

TEST(CacheTrace, CalledProceduresHaveTheirOwnLoopVariables) {
  const Model model = parse(
      "array a[2]\narray b[2]\nproc main\nfor i = 0 to 1\ncall helper\nread a[i]\nend\nend\n"
      "proc helper\nfor k = 0 to 1\nread b[k]\nend\nend\n");
  const std::vector<std::uint64_t> expected = {64, 72, 0, 64, 72, 8};
  EXPECT_EQ(addresses(expand(model)), expected);
  EXPECT_EQ(addresses(expand(model, 1)), expected);
}

TEST(CacheTrace, RecursionStopsAtTheStatedDepth) {
  const Model model =
      parse("array a[1]\nmax_depth 3\nproc main\ncall f\nend\nproc f\nread a[0]\nif 1\ncall f\nend\nend\n");
  ModelTrace trace(model, RandomStream(7, 0));
  std::vector<Access> buffer(16);
  EXPECT_EQ(trace.read(buffer), 2u);  // f at depths 2 and 3; the third call would make 4 frames
  EXPECT_EQ(trace.read(buffer), 0u);
  EXPECT_EQ(trace.skipped_calls(), 1u);
}

const std::string random_model =
    "array a[1]\narray b[1]\narray c[1]\narray p[10] element 4\nproc main\nfor i = 1 to 100000\n"
    "if 0.3\nread a[0]\nelse if 0.2\nread b[0]\nelse\nread c[0]\nend\nread *p miss 0.5\nend\nend\n";

TEST(CacheTrace, TheSameSeedGivesTheSameTrace) {
  const Model model = parse(random_model);
  EXPECT_EQ(addresses(expand(model, 4096, 11)), addresses(expand(model, 13, 11)));
  EXPECT_NE(addresses(expand(model, 4096, 11)), addresses(expand(model, 4096, 12)));
}

TEST(CacheTrace, PointerDrawsDoNotDependOnTheBatchSize) {
  // A loop body of references only takes the fast path when whole iterations fit the buffer, and the
  // statement-by-statement path otherwise: both draw in the same order.
  const Model model = parse(
      "array a[100]\narray p[1000]\nproc main\nfor i = 0 to 99\nread *p miss 0.5\n"
      "write a[i]\nread *p miss 0.5\nend\nend\n");
  const std::vector<std::uint64_t> whole = addresses(expand(model, 4096, 5));
  ASSERT_EQ(whole.size(), 300u);
  for (std::size_t i = 0; i < 100; ++i) EXPECT_EQ(whole[3 * i + 1], 8 * i);
  for (const std::size_t batch : {1u, 2u, 4u, 7u}) EXPECT_EQ(addresses(expand(model, batch, 5)), whole) << batch;
}

TEST(CacheTrace, BranchesAndPointersFollowTheirProbabilities) {
  const Model model = parse(random_model);
  std::map<std::uint64_t, int> counts;
  for (const Access& access : expand(model)) ++counts[access.address];
  // 100000 draws: the standard deviation of a count is at most 158, the tolerances are 5 of them.
  EXPECT_NEAR(counts[0], 30000, 800);
  EXPECT_NEAR(counts[64], 20000, 800);
  EXPECT_NEAR(counts[128], 50000, 800);
  for (std::uint64_t element = 0; element < 10; ++element)
    EXPECT_NEAR(counts[192 + 4 * element], 10000, 500) << element;
  EXPECT_EQ(counts.size(), 13u);
}

TEST(CacheTrace, TheBinaryWriterWritesTheMagicAndOneLittleEndianWordPerAccess) {
  std::ostringstream out;
  TraceWriter writer(out, TraceFormat::Augur);
  const std::vector<Access> accesses = {{0x123456789abc, 8, AccessKind::Write}, {64, 1, AccessKind::Instruction}};
  writer.write(accesses);
  writer.flush();
  const std::string bytes = out.str();
  ASSERT_EQ(bytes.size(), 24u);
  EXPECT_EQ(bytes.substr(0, 8), "AUGURTR1");
  for (std::size_t k = 0; k < 2; ++k) {
    std::uint64_t word = 0;
    for (int b = 7; b >= 0; --b) word = (word << 8) | static_cast<unsigned char>(bytes[8 + 8 * k + b]);
    const Access read = unpack_access(word);
    EXPECT_EQ(read.address, accesses[k].address);
    EXPECT_EQ(read.size, accesses[k].size);
    EXPECT_EQ(read.kind, accesses[k].kind);
  }
  EXPECT_EQ(writer.accesses(), 2u);
  EXPECT_EQ(writer.bytes(), 24u);
  EXPECT_THROW(writer.write(std::vector<Access>{{std::uint64_t{1} << 48, 8, AccessKind::Read}}), std::invalid_argument);
  EXPECT_THROW(writer.write(std::vector<Access>{{0, 16384, AccessKind::Read}}), std::invalid_argument);
}

TEST(CacheTrace, TheDinWriterWritesLabelHexAddressAndSize) {
  std::ostringstream out;
  TraceWriter writer(out, TraceFormat::Din);
  writer.write(
      std::vector<Access>{{0, 8, AccessKind::Read}, {0xabc0, 4, AccessKind::Write}, {16, 2, AccessKind::Instruction}});
  writer.flush();
  EXPECT_EQ(out.str(), "0 0 8\n1 abc0 4\n2 10 2\n");
}

// A reference interpreter: the model run by recursion over its statements, drawing from the same stream in
// the same order (a branch's draw, then each pointer reference's), with none of the expansion's machinery.
class Interpreter {
 public:
  Interpreter(const Model& model, std::uint64_t seed) : model_(model), random_(seed, 0) {}

  std::vector<Access> run() {
    frames_ = 1;
    std::vector<std::int64_t> variables(model_.procedures[model_.entry].loop_depth, 0);
    block(model_.procedures[model_.entry].body, variables);
    return std::move(trace_);
  }

 private:
  void block(const Block& statements, std::vector<std::int64_t>& variables) {
    for (const Statement& statement : statements) {
      if (const auto* reference = std::get_if<Reference>(&statement.node)) {
        const ModelArray& array = model_.arrays[reference->array];
        std::uint64_t address = 0;
        if (reference->through_pointer) {
          const auto element = std::min<std::uint64_t>(
              static_cast<std::uint64_t>(random_.uniform() * static_cast<double>(array.elements)), array.elements - 1);
          address = array.base + element * array.element_size;
        } else {
          // Row-major from the indices themselves, not from the precomputed address form.
          std::uint64_t element = 0;
          for (std::size_t k = 0; k < reference->indices.size(); ++k) {
            element = element * static_cast<std::uint64_t>(array.dimensions[k]) +
                      static_cast<std::uint64_t>(reference->indices[k].evaluate(variables));
          }
          address = array.base + element * array.element_size;
        }
        trace_.push_back(Access{address, array.element_size, reference->kind});
      } else if (const auto* loop = std::get_if<Loop>(&statement.node)) {
        const std::int64_t last = loop->last.evaluate(variables);
        for (std::int64_t i = loop->first.evaluate(variables); loop->step > 0 ? i <= last : i >= last;
             i += loop->step) {
          variables[loop->depth] = i;
          block(loop->body, variables);
        }
      } else if (const auto* branch = std::get_if<Branch>(&statement.node)) {
        const double draw = random_.uniform();
        double cumulative = 0.0;
        for (const BranchArm& arm : branch->arms) {
          cumulative += arm.probability;
          if (draw < cumulative || arm.is_else) {
            block(arm.body, variables);
            break;
          }
        }
      } else if (const auto* call = std::get_if<Call>(&statement.node)) {
        if (frames_ >= model_.max_depth) continue;
        ++frames_;
        const Procedure& procedure = model_.procedures[call->procedure];
        std::vector<std::int64_t> own(procedure.loop_depth, 0);
        block(procedure.body, own);
        --frames_;
      }
    }
  }

  const Model& model_;
  RandomStream random_;
  std::size_t frames_ = 0;
  std::vector<Access> trace_;
};

bool same_trace(const std::vector<Access>& left, const std::vector<Access>& right) {
  if (left.size() != right.size()) return false;
  for (std::size_t k = 0; k < left.size(); ++k) {
    if (left[k].address != right[k].address || left[k].size != right[k].size || left[k].kind != right[k].kind) {
      return false;
    }
  }
  return true;
}

TEST(CacheTrace, TheExampleModelsExpandAsTheReferenceInterpreterRunsThem) {
  const std::vector<std::pair<std::string, core::Bindings>> models = {
      {"ab_loop", {{"N", 40}}},
      {"matmul", {{"N", 8}}},
      {"matmul_tiled", {{"N", 8}, {"T", 4}}},
      {"stencil2d", {{"N", 7}, {"T", 2}}},
      {"transpose", {{"N", 9}}},
      {"linked_walk", {{"WALKS", 5}, {"LENGTH", 7}}},
  };
  for (const auto& [name, defines] : models) {
    const std::string path = std::string(AUGUR_SOURCE_DIR) + "/examples/cache/models/" + name + ".model";
    std::ifstream file(path);
    const Model model = parse_model(
        core::SourceText(path, {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()}), defines);
    const std::vector<Access> expected = Interpreter(model, 9).run();
    EXPECT_GT(expected.size(), 20u) << name;
    for (const std::size_t batch : {1u, 3u, 16u, 4096u}) {
      EXPECT_TRUE(same_trace(expand(model, batch, 9), expected)) << name << ", batches of " << batch;
    }
  }
}

}  // namespace
}  // namespace augur::sim::cache
