// The manager's quantum (src/manager/service.hpp) on a real segment, with the clock given by the test.
#include "manager/service.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace augur::manager {
namespace {

constexpr std::uint64_t second = 1'000'000'000ULL;

class ServiceTest : public ::testing::Test {
protected:
  void SetUp() override {
    manager = Segment::create(name, 8, second / 10, "equipartition").segment;
    ASSERT_NE(manager, nullptr);
    options.policy.policy = PolicyKind::equipartition;
    options.policy.cpus = 8;
    options.silent_after_ns = 5 * second;
  }
  void TearDown() override { Segment::remove(name); }
  std::unique_ptr<Connection> connect(const char* program, int requested) {
    Connection::Result result = Connection::connect(name, ::getpid(), program, requested);
    EXPECT_NE(result.connection, nullptr) << result.error;
    return std::move(result.connection);
  }
  std::string name = "svc-" + std::to_string(::getpid()) + "-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()).substr(0, 40);
  std::unique_ptr<Segment> manager;
  ServiceOptions options;
};

int count(const std::vector<LogEntry>& log, LogEntry::Kind kind) {
  return static_cast<int>(std::count_if(log.begin(), log.end(), [&](const LogEntry& line) { return line.kind == kind; }));
}

TEST_F(ServiceTest, EquipartitionWritesEqualSharesAndLogsOnlyChanges) {
  std::unique_ptr<Connection> swim = connect("swim", 8);
  std::unique_ptr<Connection> apsi = connect("apsi", 8);
  const std::uint64_t now = monotonic_ns();
  Service service(*manager, options);
  std::vector<LogEntry> log = service.quantum(now);
  EXPECT_EQ(count(log, LogEntry::Kind::joined), 2);
  EXPECT_EQ(count(log, LogEntry::Kind::decided), 2);
  EXPECT_EQ(swim->allocation(), 4);
  EXPECT_EQ(apsi->allocation(), 4);
  log = service.quantum(now + second / 10);
  EXPECT_TRUE(log.empty()) << "nothing changed: nothing logged";
  // A third application: 8 among three, the extra processors to the earliest (3, 3, 2).
  std::unique_ptr<Connection> bt = connect("bt", 8);
  log = service.quantum(now + second / 5);
  EXPECT_EQ(swim->allocation(), 3);
  EXPECT_EQ(apsi->allocation(), 3);
  EXPECT_EQ(bt->allocation(), 2);
  // One leaves: its processors go back to the others.
  apsi->disconnect();
  log = service.quantum(now + 3 * second / 10);
  EXPECT_EQ(count(log, LogEntry::Kind::left), 1);
  EXPECT_EQ(swim->allocation(), 4);
  EXPECT_EQ(bt->allocation(), 4);
}

TEST_F(ServiceTest, ARequestCapsTheShare) {
  std::unique_ptr<Connection> small = connect("small", 2);
  std::unique_ptr<Connection> large = connect("large", 16);
  Service service(*manager, options);
  (void)service.quantum(monotonic_ns());
  EXPECT_EQ(small->allocation(), 2);
  EXPECT_EQ(large->allocation(), 6);
}

TEST_F(ServiceTest, ADeadApplicationIsReclaimedAndItsProcessorsShared) {
  std::unique_ptr<Connection> survivor = connect("survivor", 8);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Connection::connect(name, ::getpid(), "crashes", 8).connection.release();
    std::_Exit(0);
  }
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  Service service(*manager, options);
  const std::vector<LogEntry> log = service.quantum(monotonic_ns());
  ASSERT_EQ(count(log, LogEntry::Kind::reclaimed), 1);
  EXPECT_EQ(std::find_if(log.begin(), log.end(), [](const LogEntry& line) { return line.kind == LogEntry::Kind::reclaimed; })->pid,
            child);
  EXPECT_EQ(survivor->allocation(), 8);
  EXPECT_EQ(read_applications(*manager).size(), 1u);
}

TEST_F(ServiceTest, ASilentApplicationKeepsItsProcessorsOutOfTheShare) {
  std::unique_ptr<Connection> quiet = connect("quiet", 8);
  std::unique_ptr<Connection> busy = connect("busy", 8);
  const std::uint64_t start = monotonic_ns();
  Service service(*manager, options);
  (void)service.quantum(start);
  ASSERT_EQ(quiet->allocation(), 4);
  // Six seconds later only `busy` has reported: `quiet` keeps its 4, `busy` gets the other 4 (not 8).
  busy->report_iteration(start + 6 * second, 10, 4);
  std::vector<LogEntry> log = service.quantum(start + 6 * second);
  EXPECT_EQ(count(log, LogEntry::Kind::silent), 1);
  EXPECT_EQ(quiet->allocation(), 4);
  EXPECT_EQ(busy->allocation(), 4);
  // It reports again: back in the share.
  quiet->report_iteration(start + 7 * second, 1, 4);
  busy->report_iteration(start + 7 * second, 11, 4);
  log = service.quantum(start + 7 * second);
  EXPECT_EQ(count(log, LogEntry::Kind::resumed), 1);
  // A third joins while both report: 3, 3, 2.
  std::unique_ptr<Connection> third = connect("third", 8);
  third->report_iteration(start + 8 * second, 0, 1);
  quiet->report_iteration(start + 8 * second, 2, 4);
  busy->report_iteration(start + 8 * second, 12, 4);
  (void)service.quantum(start + 8 * second);
  EXPECT_EQ(quiet->allocation() + busy->allocation() + third->allocation(), 8);
}

TEST_F(ServiceTest, MoreApplicationsThanProcessorsGetOneEach) {
  options.policy.cpus = 2;
  std::unique_ptr<Connection> a = connect("a", 4);
  std::unique_ptr<Connection> b = connect("b", 4);
  std::unique_ptr<Connection> c = connect("c", 4);
  Service service(*manager, options);
  (void)service.quantum(monotonic_ns());
  EXPECT_EQ(a->allocation(), 1);
  EXPECT_EQ(b->allocation(), 1);
  EXPECT_EQ(c->allocation(), 1) << "the policy's 0 (waits) is written as 1: the manager never stops a program";
}

TEST_F(ServiceTest, TheReportCarriesTheCalculatedSpeedups) {
  std::unique_ptr<Connection> swim = connect("swim", 8);
  swim->report_reference(0.25, 2);
  swim->report_speedup(2, 1.8, 20.0);
  swim->report_speedup(4, 3.2, 11.0);
  const std::vector<Application> applications = read_applications(*manager);
  ASSERT_EQ(applications.size(), 1u);
  Application application = applications[0];
  application.allocation = 4;
  const ApplicationReport report = report_of(application, {});
  EXPECT_EQ(report.max_processors, 8);
  EXPECT_DOUBLE_EQ(report.reference_time, 0.25);
  EXPECT_DOUBLE_EQ(report.predicted_time, 11.0);
  ASSERT_EQ(report.speedups.size(), 2u);
  EXPECT_EQ(report.speedups[1].processors, 4);
  EXPECT_DOUBLE_EQ(report.speedups[1].speedup, 3.2);
  EXPECT_EQ(report.speedups[1].state, SpeedupState::calculated);
}

TEST_F(ServiceTest, WithTheHistoryANewRunOfAProgramStartsWhereItsLastRunMeasured) {
  // hesrpt-plan on 8 processors: a new application, nothing measured, may grow to 1 + step = 5. The first
  // run of "lin" reports S(8) = 8 and leaves; with the history the second run starts on min(8, 8 + 4) = 8,
  // without it on 5.
  options.policy.policy = PolicyKind::hesrpt_plan;
  for (const bool history : {false, true}) {
    options.history = history;
    Service service(*manager, options);
    const std::uint64_t now = monotonic_ns();
    std::unique_ptr<Connection> first = connect("lin", 8);
    (void)service.quantum(now);
    EXPECT_EQ(first->allocation(), 5);
    first->report_speedup(8, 8.0, -1.0);
    (void)service.quantum(now + second / 10);
    first->disconnect();
    (void)service.quantum(now + second / 5);
    std::unique_ptr<Connection> second_run = connect("lin", 8);
    (void)service.quantum(now + 3 * second / 10);
    EXPECT_EQ(second_run->allocation(), history ? 8 : 5) << history;
    second_run->disconnect();
    (void)service.quantum(now + 2 * second / 5);
  }
}

TEST_F(ServiceTest, TheDecisionClockCountsTheArrivalsSinceTheFirstIncludingThoseThatLeft) {
  // The clock a policy sees (PolicyParameters::clock): now, the first arrival and the arrivals seen, those
  // that left included. rollout-arrivals reads it: one arrival expected every (now - first) / (arrivals - 1)
  // seconds, none before a second arrival. a joins at 0, b at 2 s, c at 4 s: every 2.0 s; a leaves, and at
  // 8 s three arrivals in 8 s: every 4.0 s.
  options.policy.policy = PolicyKind::rollout_arrivals;
  options.silent_after_ns = 100 * second;  // no application is silent over these 8 s
  Service service(*manager, options);
  const std::uint64_t now = monotonic_ns();
  const auto reasons = [](const std::vector<LogEntry>& log) {
    std::string text;
    for (const LogEntry& line : log) text += line.kind == LogEntry::Kind::decided ? line.name + ": " + line.reason + "\n" : "";
    return text;
  };
  std::unique_ptr<Connection> a = connect("a", 8);
  std::string log = reasons(service.quantum(now));
  EXPECT_NE(log.find("a: speedup 5.00 with 5; rollout: "), std::string::npos) << log;
  std::unique_ptr<Connection> b = connect("b", 8);
  log = reasons(service.quantum(now + 2 * second));
  EXPECT_NE(log.find("rollout, an arrival expected every 2.0 s: "), std::string::npos) << log;
  std::unique_ptr<Connection> c = connect("c", 8);
  log = reasons(service.quantum(now + 4 * second));
  EXPECT_NE(log.find("rollout, an arrival expected every 2.0 s: "), std::string::npos) << log;
  a->disconnect();
  log = reasons(service.quantum(now + 8 * second));
  EXPECT_NE(log.find("rollout, an arrival expected every 4.0 s: "), std::string::npos) << log;
  EXPECT_EQ(log.find("every 2.0 s"), std::string::npos) << log;
}

}  // namespace
}  // namespace augur::manager
