// core::OutputFile and write_file_atomically on every kind of path (docs/formats.md, "Output files"), and
// refuse_output_over_inputs. The same through the augur binary, with full disks and read-only folders:
// tests/e2e/output_paths_e2e_test.cpp.
#include "core/files.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "support/temporary_directory.hpp"

namespace augur::core {
namespace {

namespace fs = std::filesystem;

class OutputFiles : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (folder.path() / name).string(); }
  [[nodiscard]] std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(folder.path()), fs::directory_iterator()));
  }
  test::TemporaryDirectory folder{"augur-files-test"};
};

// The message of the std::runtime_error that `write` throws, or "" when it throws none.
template <typename Write>
std::string error_of(Write&& write) {
  try {
    write();
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

TEST_F(OutputFiles, ASymbolicLinkIsFollowedToItsFileAndStays) {
  fs::create_directory(path("data"));
  write_file_atomically(path("data/target.txt"), "old\n");
  fs::create_symlink("data/target.txt", path("link.txt"));
  fs::create_symlink(path("link.txt"), path("chain.txt"));  // absolute, to a relative one
  write_file_atomically(path("chain.txt"), "new\n");
  EXPECT_TRUE(fs::is_symlink(path("chain.txt")));
  EXPECT_TRUE(fs::is_symlink(path("link.txt")));
  EXPECT_EQ(read_file(path("data/target.txt")), "new\n");
  fs::create_symlink("data/later.txt", path("dangling.txt"));
  write_file_atomically(path("dangling.txt"), "later\n");
  EXPECT_TRUE(fs::is_symlink(path("dangling.txt")));
  EXPECT_EQ(read_file(path("data/later.txt")), "later\n");
  EXPECT_EQ(entries(), 4U);
  fs::create_symlink("loop.txt", path("loop.txt"));
  EXPECT_EQ(error_of([&] { write_file_atomically(path("loop.txt"), "x"); }),
            path("loop.txt") + ": cannot write: Too many levels of symbolic links");
}

TEST_F(OutputFiles, AReplacedFileKeepsItsPermissions) {
  write_file_atomically(path("private.txt"), "old\n");
  fs::permissions(path("private.txt"), fs::perms::owner_read | fs::perms::owner_write);
  write_file_atomically(path("private.txt"), "new\n");
  EXPECT_EQ(fs::status(path("private.txt")).permissions(), fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(read_file(path("private.txt")), "new\n");
}

TEST_F(OutputFiles, AFifoIsWrittenThrough) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  const int reader = ::open(path("pipe").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  write_file_atomically(path("pipe"), "through\n");
  char buffer[64] = {};
  const ssize_t got = ::read(reader, buffer, sizeof buffer);
  ::close(reader);
  EXPECT_EQ(std::string(buffer, static_cast<std::size_t>(std::max<ssize_t>(got, 0))), "through\n");
  EXPECT_TRUE(fs::is_fifo(path("pipe")));
  EXPECT_EQ(entries(), 1U);
}

// Through a link of our own first: a writer that replaced what it was given stops the test there.
TEST_F(OutputFiles, ADeviceIsWrittenThroughAndAFullOneIsAnError) {
  fs::create_symlink("/dev/null", path("null"));
  write_file_atomically(path("null"), "nothing\n");
  ASSERT_TRUE(fs::is_symlink(path("null")));
  write_file_atomically("/dev/null", "nothing\n");
  EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/null")));
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  EXPECT_EQ(error_of([] { write_file_atomically("/dev/full", "x"); }),
            "/dev/full: cannot write: No space left on device");
  EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/full")));
}

TEST_F(OutputFiles, ADirectoryOrAMissingFolderIsRefusedAndNothingIsLeft) {
  EXPECT_EQ(error_of([&] { write_file_atomically(folder.path().string(), "x"); }),
            folder.path().string() + ": cannot write: Is a directory");
  EXPECT_EQ(error_of([&] { write_file_atomically(path("missing/x.txt"), "x"); }),
            path("missing/x.txt") + ": cannot write: No such file or directory");
  EXPECT_EQ(entries(), 0U);
}

TEST_F(OutputFiles, AnOutputFileStreamsAndIsThereOnlyWhenCommitted) {
  std::string expected;
  {
    OutputFile file(path("big.txt"));
    for (int line = 0; line < 20000; ++line) {  // 370 KB: several buffers
      const std::string text = "line " + std::to_string(line) + " of the output\n";
      file.write(text);
      expected += text;
    }
    file.write(std::string(200000, 'x'));  // larger than a buffer: straight through
    expected += std::string(200000, 'x');
    EXPECT_FALSE(fs::exists(path("big.txt"))) << "not before commit()";
    file.commit();
    EXPECT_THROW(file.commit(), std::runtime_error);
  }
  EXPECT_EQ(read_file(path("big.txt")), expected);
  {
    OutputFile abandoned(path("big.txt"));
    abandoned.write("half");
  }  // destroyed without commit(): the previous file stays, the temporary is gone
  EXPECT_EQ(read_file(path("big.txt")), expected);
  EXPECT_EQ(entries(), 1U);
}

TEST_F(OutputFiles, AnOutputThatIsAnInputIsRefused) {
  write_file_atomically(path("input.txt"), "input\n");
  fs::create_symlink("input.txt", path("link.txt"));
  fs::create_hard_link(path("input.txt"), path("hard.txt"));
  for (const std::string name : {"input.txt", "link.txt", "hard.txt"}) {
    EXPECT_EQ(error_of([&] {
                refuse_output_over_inputs(path(name), {path("other.txt"), path("input.txt")});
              }),
              "the output " + path(name) + " is the input " + path("input.txt") +
                  " (the same file): an output never replaces an input of the same command; nothing written");
  }
  write_file_atomically(path("other.txt"), "other\n");
  EXPECT_EQ(error_of([&] { refuse_output_over_inputs(path("other.txt"), {path("input.txt")}); }), "");
  EXPECT_EQ(error_of([&] { refuse_output_over_inputs(path("new.txt"), {path("input.txt")}); }), "") << "not there yet";
  EXPECT_EQ(error_of([&] { refuse_output_over_inputs("/dev/null", {"/dev/null"}); }), "")
      << "a device is written through";
  EXPECT_EQ(error_of([&] { refuse_output_over_inputs("", {path("input.txt")}); }), "") << "no output";
}

}  // namespace
}  // namespace augur::core
