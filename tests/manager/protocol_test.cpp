// The manager's shared memory (src/manager/protocol.hpp): two processes on one segment, segments refused
// (foreign, older, full, a running manager's), dead applications' slots reclaimed.
#include "manager/protocol.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>

namespace augur::manager {
namespace {

// A manager name of this test alone; its segment is removed at the end.
class ProtocolTest : public ::testing::Test {
protected:
  void TearDown() override { Segment::remove(name); }
  std::string name = "test-" + std::to_string(::getpid()) + "-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()).substr(0, 40);
};

// Blocks until one byte comes through `descriptor`.
char await(int descriptor) {
  char byte = 0;
  EXPECT_EQ(::read(descriptor, &byte, 1), 1);
  return byte;
}

void signal(int descriptor, char byte = 'x') {
  ASSERT_EQ(::write(descriptor, &byte, 1), 1);
}

// Writes `bytes` as the whole segment of `name`, as another program might.
void plant_segment(const std::string& name, const void* bytes, std::size_t size) {
  const int descriptor = ::shm_open(segment_name(name).c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(descriptor, 0);
  ASSERT_EQ(::write(descriptor, bytes, size), static_cast<ssize_t>(size));
  ::close(descriptor);
}

TEST_F(ProtocolTest, TwoProcessesShareOneSegment) {
  Segment::Opened manager = Segment::create(name, 8, 100000000, "equipartition");
  ASSERT_NE(manager.segment, nullptr) << manager.error;
  int to_child[2];
  int to_parent[2];
  ASSERT_EQ(::pipe(to_child), 0);
  ASSERT_EQ(::pipe(to_parent), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Connection::Result connected = Connection::connect(name, ::getpid(), "swim", 4);
    if (connected.connection == nullptr) std::_Exit(10);
    Connection& connection = *connected.connection;
    connection.report_reference(0.5, 2);
    connection.report_speedup(2, 1.9, 12.0);
    connection.report_speedup(4, 3.5, 7.0);
    connection.report_iteration(12345, 17, 4);
    signal(to_parent[1]);
    await(to_child[0]);  // the manager decided
    const int allocation = connection.allocation();
    connection.disconnect();
    std::_Exit(allocation == 3 ? 0 : 20 + allocation);
  }
  await(to_parent[0]);
  const std::vector<Application> applications = read_applications(*manager.segment);
  ASSERT_EQ(applications.size(), 1u);
  const Application& swim = applications[0];
  EXPECT_EQ(swim.pid, child);
  EXPECT_EQ(swim.name, "swim");
  EXPECT_EQ(swim.requested, 4);
  EXPECT_EQ(swim.processors, 4);
  EXPECT_EQ(swim.iterations, 17);
  EXPECT_EQ(swim.heartbeat_ns, 12345u);
  EXPECT_EQ(swim.baseline, 2);
  EXPECT_DOUBLE_EQ(swim.reference_time, 0.5);
  ASSERT_EQ(swim.calculated.size(), 2u);
  EXPECT_EQ(swim.calculated[0].processors, 2);
  EXPECT_DOUBLE_EQ(swim.calculated[0].speedup, 1.9);
  EXPECT_DOUBLE_EQ(swim.calculated[0].predicted_time, 12.0);
  EXPECT_EQ(swim.calculated[1].processors, 4);
  EXPECT_DOUBLE_EQ(swim.calculated[1].speedup, 3.5);
  EXPECT_EQ(swim.allocation, 0);
  write_allocation(*manager.segment, swim.slot, 3, monotonic_ns());
  signal(to_child[1]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child saw another allocation than 3 (exit - 20), or could not connect (10)";
  EXPECT_TRUE(read_applications(*manager.segment).empty()) << "the slot is given back at disconnect";
}

TEST_F(ProtocolTest, NoManagerIsAbsentAndNamedInTheMessage) {
  Connection::Result connected = Connection::connect(name, ::getpid(), "prog", 2);
  EXPECT_EQ(connected.connection, nullptr);
  EXPECT_EQ(connected.failure, OpenFailure::Absent);
  EXPECT_NE(connected.error.find("no manager '" + name + "'"), std::string::npos) << connected.error;
}

TEST_F(ProtocolTest, AForeignSegmentIsRefused) {
  const char text[] = "this is not augur's segment at all, just bytes";
  plant_segment(name, text, sizeof text);
  Connection::Result connected = Connection::connect(name, ::getpid(), "prog", 2);
  EXPECT_EQ(connected.failure, OpenFailure::Foreign);
  EXPECT_NE(connected.error.find("is not an augur manager's segment"), std::string::npos) << connected.error;
  Segment::Opened manager = Segment::create(name, 4, 1000000, "fixed");
  EXPECT_EQ(manager.segment, nullptr) << "a manager never takes over a foreign segment";
  EXPECT_EQ(manager.failure, OpenFailure::Foreign);
}

TEST_F(ProtocolTest, AnOlderSegmentIsRefusedWithItsVersion) {
  std::uint64_t words[64] = {};
  words[0] = segment_magic;
  words[1] = 0;  // version 0, header size 0
  plant_segment(name, words, sizeof words);
  Segment::Opened opened = Segment::open(name);
  EXPECT_EQ(opened.failure, OpenFailure::OtherVersion);
  EXPECT_NE(opened.error.find("has layout version 0, this augur speaks version 1"), std::string::npos) << opened.error;
  EXPECT_EQ(Segment::create(name, 4, 1000000, "fixed").failure, OpenFailure::OtherVersion);
}

TEST_F(ProtocolTest, ATruncatedSegmentIsRefused) {
  std::uint64_t words[8] = {};
  words[0] = segment_magic;
  words[1] = protocol_version;
  plant_segment(name, words, sizeof words);
  EXPECT_EQ(Segment::open(name).failure, OpenFailure::Truncated);
}

TEST_F(ProtocolTest, AFullSegmentRefusesTheNextApplication) {
  Segment::Opened manager = Segment::create(name, 4, 1000000, "equipartition", 2);
  ASSERT_NE(manager.segment, nullptr) << manager.error;
  Connection::Result first = Connection::connect(name, ::getpid(), "a", 1);
  Connection::Result second = Connection::connect(name, ::getpid(), "b", 1);
  ASSERT_NE(first.connection, nullptr);
  ASSERT_NE(second.connection, nullptr);
  EXPECT_NE(first.connection->slot_index(), second.connection->slot_index());
  Connection::Result third = Connection::connect(name, ::getpid(), "c", 1);
  EXPECT_EQ(third.connection, nullptr);
  EXPECT_EQ(third.failure, OpenFailure::Full);
  EXPECT_NE(third.error.find("has no free slot (2 applications connected)"), std::string::npos) << third.error;
  second.connection->disconnect();
  EXPECT_NE(Connection::connect(name, ::getpid(), "c", 1).connection, nullptr) << "a slot given back is taken again";
}

TEST_F(ProtocolTest, ADeadApplicationsSlotIsReclaimed) {
  Segment::Opened manager = Segment::create(name, 4, 1000000, "equipartition", 1);
  ASSERT_NE(manager.segment, nullptr) << manager.error;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Connection::Result connected = Connection::connect(name, ::getpid(), "crashes", 2);
    connected.connection.release();  // never disconnected: the process dies holding its slot
    std::_Exit(connected.failure == OpenFailure::None ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_EQ(WEXITSTATUS(status), 0);
  std::vector<Application> applications = read_applications(*manager.segment);
  ASSERT_EQ(applications.size(), 1u);
  EXPECT_EQ(applications[0].pid, child);
  // The next application finds the one slot taken by a dead process and takes it.
  Connection::Result next = Connection::connect(name, ::getpid(), "next", 2);
  ASSERT_NE(next.connection, nullptr) << next.error;
  applications = read_applications(*manager.segment);
  ASSERT_EQ(applications.size(), 1u);
  EXPECT_EQ(applications[0].name, "next");
  EXPECT_FALSE(reclaim_if_dead(*manager.segment, applications[0])) << "a live process keeps its slot";
}

TEST_F(ProtocolTest, TheManagerFreesADeadApplicationsSlot) {
  Segment::Opened manager = Segment::create(name, 4, 1000000, "equipartition");
  ASSERT_NE(manager.segment, nullptr) << manager.error;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Connection::connect(name, ::getpid(), "crashes", 2).connection.release();
    std::_Exit(0);
  }
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  std::vector<Application> applications = read_applications(*manager.segment);
  ASSERT_EQ(applications.size(), 1u);
  EXPECT_TRUE(reclaim_if_dead(*manager.segment, applications[0]));
  EXPECT_TRUE(read_applications(*manager.segment).empty());
  EXPECT_FALSE(reclaim_if_dead(*manager.segment, applications[0])) << "freed once, not twice";
}

TEST_F(ProtocolTest, ASecondManagerIsRefusedWhileTheFirstRunsAndAdoptsADeadOnesSegment) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Segment::Opened first = Segment::create(name, 4, 1000000, "pdpa");
    std::_Exit(first.segment != nullptr ? 0 : 1);  // dies without removing its segment
  }
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  Connection::Result application = Connection::connect(name, ::getpid(), "survivor", 2);
  ASSERT_NE(application.connection, nullptr) << application.error;
  Segment::Opened second = Segment::create(name, 6, 2000000, "equipartition");
  ASSERT_NE(second.segment, nullptr) << second.error;
  EXPECT_EQ(second.segment->header().manager_pid.load(), ::getpid());
  EXPECT_EQ(second.segment->header().cpus.load(), 6);
  EXPECT_STREQ(second.segment->header().policy, "equipartition");
  ASSERT_EQ(read_applications(*second.segment).size(), 1u) << "the applications keep their slots";
  // A third manager, while this one (alive) holds the segment: refused, naming the running one.
  const pid_t third = ::fork();
  ASSERT_GE(third, 0);
  if (third == 0) {
    Segment::Opened refused = Segment::create(name, 4, 1000000, "fixed");
    const bool named = refused.error.find("runs already (pid " + std::to_string(::getppid()) + ")") != std::string::npos;
    std::_Exit(refused.segment == nullptr && named ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(third, &status, 0), third);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(ProtocolTest, NamesAreChecked) {
  EXPECT_EQ(check_manager_name("lab-1.a_b"), "");
  EXPECT_NE(check_manager_name(""), "");
  EXPECT_NE(check_manager_name("a/b"), "");
  EXPECT_NE(check_manager_name(std::string(65, 'a')), "");
  EXPECT_EQ(Segment::open("a/b").failure, OpenFailure::BadName);
  EXPECT_EQ(segment_name("x"), "/augur-manager-" + std::to_string(::getuid()) + "-x");
}

TEST(ProcessAlive, ADeadOrReusedPidIsNotAlive) {
  EXPECT_TRUE(process_alive(::getpid(), process_start_time(::getpid())));
  EXPECT_FALSE(process_alive(::getpid(), process_start_time(::getpid()) + 1)) << "another process under a reused pid";
  const pid_t child = ::fork();
  if (child == 0) std::_Exit(0);
  // A zombie (exited, not yet reaped) is dead.
  siginfo_t info{};
  ASSERT_EQ(::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT), 0);  // exited, left unreaped
  EXPECT_FALSE(process_alive(child, 0));
  ::waitpid(child, nullptr, 0);
  EXPECT_FALSE(process_alive(child, 0));
  EXPECT_FALSE(process_alive(0, 0));
}

}  // namespace
}  // namespace augur::manager
