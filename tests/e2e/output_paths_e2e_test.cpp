// Every kind of output path behaves as docs/formats.md ("Output files") says: a regular file is replaced
// whole (its permissions kept), a symbolic link is followed to its file and stays, a FIFO and a device are
// written through (never replaced: /dev/null stays a device, /dev/stdout is our standard output, /dev/full
// is an error), a full disk and a read-only folder are errors that leave nothing behind. The real augur
// binary, run as a user runs it (output_support.hpp: a lowered file size limit stands for a full disk, the
// capabilities that let root ignore permissions given up for a folder root could otherwise write).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "output_support.hpp"

namespace {

using namespace augur::e2e;
namespace fs = std::filesystem;

const std::string augur_exe = AUGUR_EXE;
const std::string examples = AUGUR_EXAMPLES_DIR;
const std::vector<std::string> generate{"gen-tasks", "--tasks", "300", "--resources", "3", "--seed", "5"};

class OutputPaths : public ::testing::Test {
 protected:
  OutputPaths() {
    fs::permissions(directory.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                          fs::perms::others_read | fs::perms::others_exec);  // others may enter
    fs::create_directories(work);
    fs::create_directories(scratch);
  }
  ~OutputPaths() override { EXPECT_EQ(names_in(scratch), std::vector<std::string>{}) << "left in $TMPDIR"; }

  Outcome augur(Child child) {
    child.environment.push_back("TMPDIR=" + scratch.string());
    return run_augur(augur_exe, child, directory.path() / "logs");
  }
  // gen-tasks into `output` (the generated text is `expected`).
  Outcome generate_to(const std::string& output, long long limit = -1, bool without_override = false) {
    Child child{generate, "", limit, without_override, {}};
    child.arguments.insert(child.arguments.end(), {"-o", output});
    return augur(child);
  }
  std::string expected_text() {
    const Outcome printed = augur({generate, "", -1, false, {}});
    EXPECT_EQ(printed.exit_code, 0) << describe(printed);
    return printed.standard_output;
  }

  TemporaryDirectory directory{"augur-output-test"};
  fs::path work = directory.path() / "work";
  fs::path scratch = directory.path() / "tmp";
};

TEST_F(OutputPaths, ARegularFileIsWrittenWholeAndKeepsItsPermissions) {
  const std::string expected = expected_text();
  const fs::path output = work / "tasks.tspp";
  Outcome outcome = generate_to(output.string());
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  EXPECT_EQ(read_text(output), expected);
  write_text(output, "previous\n");
  fs::permissions(output, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  outcome = generate_to(output.string());
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  EXPECT_EQ(read_text(output), expected);
  EXPECT_EQ(fs::status(output).permissions(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(names_in(work), std::vector<std::string>{"tasks.tspp"});
}

TEST_F(OutputPaths, ASymbolicLinkIsFollowedToItsFileAndStays) {
  const std::string expected = expected_text();
  fs::create_directories(work / "data");
  write_text(work / "data" / "target.tspp", "previous\n");
  fs::create_symlink("data/target.tspp", work / "link.tspp");
  fs::create_symlink("link.tspp", work / "chain.tspp");
  Outcome outcome = generate_to((work / "chain.tspp").string());
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  ASSERT_TRUE(fs::is_symlink(work / "chain.tspp")) << "the link was replaced";
  ASSERT_TRUE(fs::is_symlink(work / "link.tspp"));
  EXPECT_EQ(fs::read_symlink(work / "chain.tspp"), "link.tspp");
  EXPECT_EQ(read_text(work / "data" / "target.tspp"), expected);

  fs::create_symlink("data/new.tspp", work / "dangling.tspp");  // a link to a file not there yet
  outcome = generate_to((work / "dangling.tspp").string());
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  EXPECT_TRUE(fs::is_symlink(work / "dangling.tspp"));
  EXPECT_EQ(read_text(work / "data" / "new.tspp"), expected);
  EXPECT_EQ(names_in(work), (std::vector<std::string>{"chain.tspp", "dangling.tspp", "data", "link.tspp"}));
  EXPECT_EQ(names_in(work / "data"), (std::vector<std::string>{"new.tspp", "target.tspp"}));
}

TEST_F(OutputPaths, AFifoIsWrittenThrough) {
  const std::string expected = expected_text();  // 15 KB: fits in the pipe's buffer, read after augur ends
  const fs::path fifo = work / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // a reader, so that augur's open goes on
  ASSERT_GE(reader, 0);
  const Outcome outcome = generate_to(fifo.string());
  std::string received;
  char buffer[4096];
  for (ssize_t got; (got = ::read(reader, buffer, sizeof buffer)) > 0;)
    received.append(buffer, static_cast<std::size_t>(got));
  ::close(reader);
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  EXPECT_EQ(received, expected);
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO was replaced";
  EXPECT_EQ(names_in(work), std::vector<std::string>{"pipe"});
}

// The local cases come first: with a writer that replaced nodes, the test stops before /dev is touched.
TEST_F(OutputPaths, ADeviceIsWrittenThroughAndNeverReplaced) {
  const std::string expected = expected_text();
  fs::create_symlink("/dev/null", work / "null");
  Outcome outcome = generate_to((work / "null").string());
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  ASSERT_TRUE(fs::is_symlink(work / "null")) << "the link to /dev/null was replaced";
  if (::mknod((work / "mynull").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {  // root with CAP_MKNOD
    outcome = generate_to((work / "mynull").string());
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    ASSERT_TRUE(fs::is_character_file(fs::symlink_status(work / "mynull"))) << "the device node was replaced";
  }
  fs::create_symlink("/dev/stdout", work / "out");
  outcome = generate_to((work / "out").string());
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  ASSERT_TRUE(fs::is_symlink(work / "out"));
  EXPECT_EQ(outcome.standard_output, expected);

  const fs::file_status null_before = fs::symlink_status("/dev/null");
  outcome = generate_to("/dev/null");
  EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
  EXPECT_EQ(fs::symlink_status("/dev/null").type(), null_before.type());
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  const fs::file_status stdout_before = fs::symlink_status("/dev/stdout");
  outcome = generate_to("/dev/stdout");
  EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
  EXPECT_EQ(outcome.standard_output, expected);
  EXPECT_EQ(fs::symlink_status("/dev/stdout").type(), stdout_before.type());
  if (fs::exists("/dev/full")) {
    outcome = generate_to("/dev/full");
    EXPECT_EQ(outcome.exit_code, 1) << describe(outcome);
    EXPECT_EQ(outcome.standard_error, "augur gen-tasks: /dev/full: cannot write: No space left on device\n");
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/full")));
  }
  for (const char* name : {"null", "stdout", "full"})
    EXPECT_EQ(temporaries_of("/dev", name), std::vector<std::string>{}) << name;
  EXPECT_EQ(names_in(work).size(), fs::exists(work / "mynull") ? 3U : 2U);
}

// RLIMIT_FSIZE stands for a full disk: a write past it fails with EFBIG, as one on a full disk fails with
// ENOSPC, after part of the file was written.
TEST_F(OutputPaths, AFullDiskIsAnErrorAndLeavesNothing) {
  const fs::path output = work / "tasks.tspp";
  Outcome outcome = generate_to(output.string(), 4096);
  EXPECT_EQ(outcome.exit_code, 1) << describe(outcome);
  EXPECT_EQ(outcome.standard_error, "augur gen-tasks: " + output.string() + ": cannot write: File too large\n");
  EXPECT_EQ(names_in(work), std::vector<std::string>{});
  write_text(output, "previous\n");
  outcome = generate_to(output.string(), 4096);
  EXPECT_EQ(outcome.exit_code, 1) << describe(outcome);
  EXPECT_EQ(read_text(output), "previous\n");
  EXPECT_EQ(names_in(work), std::vector<std::string>{"tasks.tspp"});

  const fs::path trace = work / "trace.json";
  outcome = augur({{"sim", examples + "/tspp/figure11.tspp", "-r", "2", "-V", "50", "-q", "--trace", trace.string()},
                   "",
                   4096,
                   false,
                   {}});
  EXPECT_EQ(outcome.exit_code, 1) << describe(outcome);
  EXPECT_EQ(outcome.standard_error, "augur sim: " + trace.string() + ": cannot write: File too large\n");
  EXPECT_EQ(names_in(work), std::vector<std::string>{"tasks.tspp"});
}

// gnuplot exits with status 0 after a failed write: the picture is checked before it replaces the output.
TEST_F(OutputPaths, APlotOnAFullDiskIsAnErrorAndLeavesNothing) {
  if (!augur::core::run_process({"sh", "-c", "command -v gnuplot"}).succeeded())
    GTEST_SKIP() << "gnuplot is not installed";
  for (const std::string name : {"fft.svg", "fft.png"}) {
    const fs::path picture = work / name;
    // 20,000 bytes: room for gnuplot's script, not for the picture (27 KB of SVG, 40 KB of PNG)
    const Outcome outcome = augur(
        {{"plot", examples + "/model/fft_t3e.csv", "--formula", "c[0] + c[1]/P", "--x", "P", "-o", picture.string()},
         "",
         20000,
         false,
         {}});
    EXPECT_EQ(outcome.exit_code, 1) << describe(outcome);
    EXPECT_TRUE(contains(outcome.standard_error, "augur plot: gnuplot wrote an incomplete picture"))
        << describe(outcome);
    EXPECT_EQ(names_in(work), std::vector<std::string>{});
  }
}

TEST_F(OutputPaths, AReadOnlyFolderIsAnErrorAndLeavesNothing) {
  const fs::path folder = work / "read-only";
  fs::create_directories(folder);
  write_text(folder / "previous.tspp", "previous\n");
  fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                              fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  // root writes anywhere: the child runs without the capabilities that ignore permissions (output_support.hpp)
  for (const std::string name : {"new.tspp", "previous.tspp"}) {
    const fs::path output = folder / name;
    const Outcome outcome = generate_to(output.string(), -1, true);
    EXPECT_EQ(outcome.exit_code, 1) << describe(outcome);
    EXPECT_EQ(outcome.standard_error, "augur gen-tasks: " + output.string() + ": cannot write: Permission denied\n");
  }
  EXPECT_EQ(read_text(folder / "previous.tspp"), "previous\n");
  EXPECT_EQ(names_in(folder), std::vector<std::string>{"previous.tspp"});
  fs::permissions(folder, fs::perms::owner_all, fs::perm_options::add);
}

// A command killed while it writes leaves nothing: its file has no name until it is whole (O_TMPFILE).
TEST_F(OutputPaths, AKilledCommandLeavesNothing) {
  const std::string trace = (work / "trace.json").string();
  const std::string system = examples + "/tspp/figure11.tspp";
  const pid_t pid = ::fork();  // a simulation of minutes, killed once it writes
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    if (null < 0 || ::dup2(null, 1) < 0 || ::dup2(null, 2) < 0) ::_exit(126);
    ::execl(augur_exe.c_str(), augur_exe.c_str(), "sim", system.c_str(), "-r", "1", "--threads", "1", "-V", "1000000",
            "-q", "--trace", trace.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ASSERT_GT(pid, 0);
  const fs::path descriptors = "/proc/" + std::to_string(pid) + "/fd";
  bool writing = false;  // one of its descriptors is a file of the work folder
  for (int wait = 0; wait < 1200 && !writing; ++wait) {
    std::error_code error;
    for (fs::directory_iterator entry(descriptors, error), end; !error && entry != end; entry.increment(error)) {
      writing = writing || fs::read_symlink(entry->path(), error).string().rfind(work.string() + "/", 0) == 0;
    }
    if (!writing) ::usleep(50000);
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(writing) << "augur sim never opened its trace";
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(names_in(work), std::vector<std::string>{});
}

// The timeline is streamed to its file (a temporary beside it, renamed at the end): the memory of augur sim
// does not grow with the events. Before, the whole trace was a JSON document in memory (V = 10^4: 231 MB
// for 19 MB of trace, V = 10^3: 29 MB; V = 10^6 ended in std::bad_alloc).
TEST_F(OutputPaths, ATraceIsStreamedInMemoryIndependentOfItsLength) {
  const auto simulate = [&](const std::string& visits, const fs::path& trace) {
    const Outcome outcome = augur({{"sim", examples + "/tspp/figure11.tspp", "-r", "1", "--threads", "1", "-V", visits,
                                    "-q", "--trace", trace.string()},
                                   "",
                                   -1,
                                   false,
                                   {}});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    return outcome.peak_kilobytes;
  };
  const long short_peak = simulate("1000", work / "short.json");
  const long long_peak = simulate("10000", work / "long.json");
  const std::string text = read_text(work / "long.json");
  const auto growth = static_cast<long>(text.size() - fs::file_size(work / "short.json"));
  EXPECT_GT(growth, 15'000'000L);
  EXPECT_TRUE(starts_with(
      text,
      "{\"traceEvents\":[{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"cpu\"}},"));
  EXPECT_TRUE(text.size() > 30 && text.compare(text.size() - 27, 27, "}],\"displayTimeUnit\":\"ms\"}\n") == 0);
#if defined(__SANITIZE_ADDRESS__)
  std::cout << "(not compared under AddressSanitizer: its quarantine keeps freed memory)\n";
  (void)short_peak;
  (void)long_peak;
#else
  EXPECT_LT((long_peak - short_peak) * 1024, growth / 4)
      << "peak " << short_peak << " KB, then " << long_peak << " KB for " << growth << " more bytes of trace";
#endif
  EXPECT_EQ(names_in(work), (std::vector<std::string>{"long.json", "short.json"}));
}

}  // namespace
