// The BSP superstep trace reader's every error, each at its file:line:column (the models: bsp_test.cpp).
#include "bsp/bsp.hpp"

#include <gtest/gtest.h>

#include <string>

#include "bsp_test_support.hpp"
#include "core/files.hpp"

namespace {

using namespace augur;
using namespace augur::bsp;
using namespace augur::bsp::test;  // data_dir, header2, record

// The message of the InputError that parsing `text` (as file "t.jsonl") throws, or "no error".
std::string error_of(const std::string& text) {
  try {
    (void)parse_trace("t.jsonl", text);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

// ---- Reader errors -----------------------------------------------------------------------------

TEST(TraceErrors, Header) {
  EXPECT_EQ(error_of(""), "t.jsonl: empty trace: expected the header {\"augur\":\"bsp\",\"version\":1,\"ranks\":P}");
  EXPECT_EQ(error_of("# only\n" + record(0, 1)),
            "t.jsonl:2:1: the first line must be the header {\"augur\":\"bsp\",\"version\":1,\"ranks\":P}");
  EXPECT_EQ(error_of(R"({"augur":"experiments","version":1,"ranks":2})"),
            "t.jsonl:1:10: unknown header 'augur': 'experiments' (expected 'bsp')");
  EXPECT_EQ(error_of(R"({"augur":"bsp","version":2,"ranks":2})"),
            "t.jsonl:1:26: augur bsp version 2 is not supported (expected 1)");
  EXPECT_EQ(error_of(R"({"augur":"bsp","version":"1","ranks":2})"), "t.jsonl:1:26: 'version' must be an integer");
  EXPECT_EQ(error_of(R"({"augur":"bsp","version":1,"ranks":0})"), "t.jsonl:1:36: 'ranks' must be at least 1 (0)");
  EXPECT_EQ(error_of(R"({"augur":"bsp","version":1})"), "t.jsonl:1:1: missing key 'ranks'");
  EXPECT_EQ(error_of(R"({"augur":"bsp","version":1,"ranks":2,"lable":"x"})"),
            "t.jsonl:1:46: unknown key 'lable' in the header (expected augur, version, ranks, label)");
  EXPECT_EQ(error_of(R"({"augur":"bsp","version":1,"ranks":2,"label":3})"), "t.jsonl:1:46: 'label' must be a string");
  EXPECT_EQ(error_of(header2), "t.jsonl:1:1: no supersteps in the trace");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1) + "\n" + header2),
            "t.jsonl:3:1: the header {\"augur\": ...} must be the first line");
}

TEST(TraceErrors, JsonAndKeys) {
  EXPECT_EQ(
      error_of(header2 + "\n{\"rank\":0,}"),
      "t.jsonl:2:11: invalid JSON: syntax error while parsing object key - unexpected '}'; expected string literal");
  EXPECT_EQ(error_of(header2 + "\n[1]"), "t.jsonl:2:1: expected a JSON object");
  EXPECT_EQ(error_of(header2 + "\n" + R"({"rank":0})"), "t.jsonl:2:1: missing key 'machine'");
  EXPECT_EQ(
      error_of(header2 + "\n" + record(0, 1, "oblivious", R"(,"parnters":[])")),
      "t.jsonl:2:134: unknown key 'parnters' in a superstep record (expected rank, machine, pid, nprocs, superstep, "
      "work, in, out, partners, sync, end, child, before_child)");
  EXPECT_EQ(error_of(header2 + "\n" + R"({"rank":"0","machine":"/"})"), "t.jsonl:2:9: 'rank' must be an integer");
}

TEST(TraceErrors, NumbersAndSync) {
  const auto with = [](const std::string& from, const std::string& to) {
    std::string line = record(0, 1);
    line.replace(line.find(from), from.size(), to);
    return header2 + "\n" + line;
  };
  EXPECT_EQ(error_of(with(R"("work":1)", R"("work":-0.5)")), "t.jsonl:2:65: 'work' must not be negative (-0.5)");
  EXPECT_EQ(error_of(with(R"("end":1)", R"("end":-1)")), "t.jsonl:2:121: 'end' must not be negative (-1)");
  EXPECT_EQ(error_of(with(R"("in":0)", R"("in":-8)")), "t.jsonl:2:72: 'in' must not be negative (-8)");
  EXPECT_EQ(error_of(with(R"("out":0)", R"("out":1.5)")), "t.jsonl:2:80: 'out' must be an integer");
  EXPECT_EQ(error_of(with(R"("work":1)", R"("work":"1")")), "t.jsonl:2:65: 'work' must be a number");
  EXPECT_EQ(error_of(with(R"("sync":"oblivious")", R"("sync":"obvious")")),
            "t.jsonl:2:103: unknown sync 'obvious' (expected none, oblivious or barrier)");
  EXPECT_EQ(error_of(with(R"("superstep":1)", R"("superstep":0)")), "t.jsonl:2:56: 'superstep' must be at least 1 (0)");
  EXPECT_EQ(error_of(with(R"("nprocs":2)", R"("nprocs":0)")), "t.jsonl:2:42: 'nprocs' must be at least 1 (0)");
  EXPECT_EQ(error_of(with(R"("nprocs":2)", R"("nprocs":3)")),
            "t.jsonl:2:42: 'nprocs' is 3, more processes than the header's 2 ranks");
  EXPECT_EQ(error_of(with(R"("pid":0)", R"("pid":2)")), "t.jsonl:2:31: 'pid' is 2, out of range for nprocs 2 (0..1)");
  EXPECT_EQ(error_of(with(R"("machine":"/")", R"("machine":"/1/")")),
            "t.jsonl:2:21: '/1/' is not a machine id: a machine id is '/' followed by 'S:G/' per partition level, e.g. "
            "'/1:0/'");
  EXPECT_EQ(error_of(with(R"("sync":"oblivious")", R"("sync":"none")") + "\n" + record(1, 1, "none")), "no error");
  EXPECT_EQ(error_of(with(R"("in":0,"out":0,"partners":[],"sync":"oblivious")",
                          R"("in":0,"out":4,"partners":[],"sync":"none")")),
            "t.jsonl:2:80: a superstep with sync 'none' does not communicate: 'out' must be 0");
  EXPECT_EQ(error_of(with(R"("partners":[],"sync":"oblivious")", R"("partners":[1],"sync":"none")")),
            "t.jsonl:2:93: a superstep with sync 'none' does not communicate: 'partners' must be empty");
}

TEST(TraceErrors, MoreRanksThanTheHeaderSays) {
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1) + "\n" + record(2, 1)),
            "t.jsonl:3:9: 'rank' is 2, beyond the header's 2 ranks (0..1)");
  EXPECT_EQ(error_of(R"({"augur":"bsp","version":1,"ranks":3})"
                     "\n" +
                     record(0, 1) + "\n" + record(1, 1)),
            "t.jsonl:2:42: the top machine '/' has nprocs 2 but the header says 3 ranks");
}

TEST(TraceErrors, Partners) {
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1).replace(record(0, 1).find("[]"), 2, "[0,2]")),
            "t.jsonl:2:93: 'partners' is 2, out of range for nprocs 2 (0..1)");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1).replace(record(0, 1).find("[]"), 2, "[1,1]")),
            "t.jsonl:2:93: partner 1 appears twice in 'partners'");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1).replace(record(0, 1).find("[]"), 2, "[-1]")),
            "t.jsonl:2:93: 'partners' must not be negative (-1)");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1).replace(record(0, 1).find("[]"), 2, "1")),
            "t.jsonl:2:93: 'partners' must be an array of pids");
}

TEST(TraceErrors, PidCollisionsAndDuplicates) {
  std::string other = record(1, 1);
  other.replace(other.find(R"("pid":1)"), 7, R"("pid":0)");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1) + "\n" + other),
            "t.jsonl:3:31: pid 0 of machine '/' is rank 0 at line 2; rank 1 cannot have it too");
  std::string moved = record(0, 2);
  moved.replace(moved.find(R"("pid":0)"), 7, R"("pid":1)");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1) + "\n" + moved),
            "t.jsonl:3:31: rank 0 is pid 0 of machine '/' at line 2, not pid 1");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1) + "\n" + record(0, 1)),
            "t.jsonl:3:56: superstep 1 of rank 0 in machine '/' is already recorded at line 2");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1)), "t.jsonl:2:21: machine '/' has nprocs 2 but no record of pid 1");
}

TEST(TraceErrors, MissingSuperstepsAndDisagreeingMembers) {
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1) + "\n" + record(1, 1) + "\n" + record(0, 3)),
            "t.jsonl:4:56: missing superstep 2 of rank 0 in machine '/' (found superstep 3)");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1) + "\n" + record(1, 1) + "\n" + record(1, 2)),
            "t.jsonl:4:56: rank 1 has 2 supersteps in machine '/', rank 0 has 1 (line 2): the members of a machine "
            "have the same supersteps");
  std::string three = record(1, 1);
  three.replace(three.find(R"("nprocs":2)"), 10, R"("nprocs":3)");
  EXPECT_EQ(error_of(R"({"augur":"bsp","version":1,"ranks":3})"
                     "\n" +
                     record(0, 1) + "\n" + three),
            "t.jsonl:3:42: nprocs 3 differs from nprocs 2 of machine '/' at line 2");
}

TEST(TraceErrors, Children) {
  const std::string top0 = record(0, 1, "barrier", R"(,"child":"/1:0/","before_child":0.5)");
  const std::string top1 = record(1, 1, "barrier", R"(,"child":"/1:1/")");
  const std::string sub0 =
      R"({"rank":0,"machine":"/1:0/","pid":0,"nprocs":1,"superstep":1,"work":1,"in":0,"out":0,"partners":[],"sync":"none","end":1})";
  const std::string sub1 =
      R"({"rank":1,"machine":"/1:1/","pid":0,"nprocs":1,"superstep":1,"work":1,"in":0,"out":0,"partners":[],"sync":"none","end":1})";
  const std::string good = header2 + "\n" + top0 + "\n" + top1 + "\n" + sub0 + "\n" + sub1 + "\n";
  ASSERT_EQ(error_of(good), "no error");

  // A child id that does not extend its parent in this superstep.
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1, "barrier", R"(,"child":"/2:0/")")),
            "t.jsonl:2:129: child '/2:0/' does not extend machine '/' in superstep 1 (expected '/1:G/')");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1, "barrier", R"(,"child":"/1:0/1:0/")")),
            "t.jsonl:2:129: child '/1:0/1:0/' does not extend machine '/' in superstep 1 (expected '/1:G/')");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1, "barrier", R"(,"child":"/")")),
            "t.jsonl:2:129: '/' is not a sub-machine id: a machine id is '/' followed by 'S:G/' per partition level, "
            "e.g. '/1:0/'");
  // A missing child machine.
  EXPECT_EQ(error_of(header2 + "\n" + top0 + "\n" + top1 + "\n" + sub0 + "\n"),
            "t.jsonl:3:129: no machine '/1:1/' in the trace");
  // The rank is not a member of the child it names.
  std::string wrong = top1;
  wrong.replace(wrong.find("/1:1/"), 5, "/1:0/");
  EXPECT_EQ(error_of(header2 + "\n" + top0 + "\n" + wrong + "\n" + sub0 + "\n"),
            "t.jsonl:3:129: rank 1 is not a member of machine '/1:0/'");
  // A member of a sub-machine whose parent superstep does not enter it.
  EXPECT_EQ(error_of(header2 + "\n" + top0 + "\n" + record(1, 1, "barrier") + "\n" + sub0 + "\n" + sub1 + "\n"),
            "t.jsonl:3:1: rank 1 is a member of machine '/1:1/' but its superstep 1 of machine '/' has no 'child'");
  // A sub-machine entered in a superstep its parent does not have.
  const std::string late =
      R"({"rank":1,"machine":"/5:0/","pid":0,"nprocs":1,"superstep":1,"work":1,"in":0,"out":0,"partners":[],"sync":"none","end":1})";
  EXPECT_EQ(error_of(header2 + "\n" + top0 + "\n" + top1 + "\n" + sub0 + "\n" + sub1 + "\n" + late + "\n"),
            "t.jsonl:6:21: machine '/5:0/' is entered in superstep 5 of machine '/', which has 1 supersteps");
  // A sub-machine without its parent.
  const std::string orphan =
      R"({"rank":1,"machine":"/1:1/1:0/","pid":0,"nprocs":1,"superstep":1,"work":1,"in":0,"out":0,"partners":[],"sync":"none","end":1})";
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1) + "\n" + record(1, 1) + "\n" + orphan + "\n"),
            "t.jsonl:4:21: machine '/1:1/1:0/' has no parent machine '/1:1/' in the trace");
  // before_child without child, or beyond work.
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1, "barrier", R"(,"before_child":0.5)")),
            "t.jsonl:2:136: 'before_child' without 'child'");
  EXPECT_EQ(error_of(header2 + "\n" + record(0, 1, "barrier", R"(,"child":"/1:0/","before_child":2)")),
            "t.jsonl:2:152: 'before_child' (2) exceeds 'work' (1), which includes it");
  // No top machine.
  EXPECT_EQ(error_of(header2 + "\n" + sub0 + "\n"), "t.jsonl: no record of the top machine '/'");
}

TEST(TraceErrors, ReadingAFileThatIsNotThere) {
  EXPECT_THROW((void)read_trace(data_dir + "/no-such-trace.jsonl"), std::runtime_error);
  try {
    (void)read_trace(data_dir);
    FAIL() << "a directory was read";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), data_dir + ": cannot read: it is a directory");
  }
}

}  // namespace
