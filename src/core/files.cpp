#include "core/files.hpp"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

#include "core/process.hpp"

namespace augur::core {

TemporaryFolder::TemporaryFolder(const std::string& prefix) {
  std::string pattern = temporary_directory() + "/" + prefix + "-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("cannot create a folder " + pattern + ": " + std::strerror(errno));
  path_ = pattern;
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

namespace {

constexpr std::size_t buffer_limit = std::size_t{1} << 16;

std::runtime_error write_error(const std::string& path, int error) {
  return std::runtime_error(path + ": cannot write: " + std::strerror(error));
}

// The descriptor that a name of this process' own open files stands for (/dev/stdout: 1, /dev/stderr: 2,
// /dev/fd/N and /proc/self/fd/N: N), or -1.
int own_descriptor(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"}) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0 || path.size() > prefix.size() + 9)
      continue;
    int descriptor = 0;
    for (std::size_t i = prefix.size(); i < path.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(path[i]))) return -1;
      descriptor = descriptor * 10 + (path[i] - '0');
    }
    return descriptor;
  }
  return -1;
}

// Where the text of the output `path` goes: symbolic links followed to the file at their end.
struct Target {
  std::string path;
  bool through = false;  // written in place (not a regular file, or one of our own descriptors)
  int descriptor = -1;   // >= 0: this process' own descriptor
};

Target resolve(const std::string& path) {
  std::string current = path;
  for (int hop = 0; hop < 40; ++hop) {
    if (const int descriptor = own_descriptor(current); descriptor >= 0) return {current, true, descriptor};
    if (current.rfind("/proc/", 0) == 0) return {current, true, -1};  // its links are not paths (pipe:[123])
    struct stat status {};
    if (::lstat(current.c_str(), &status) != 0) {
      if (errno == ENOENT) return {current, false, -1};  // a new file (or a missing folder, said when opened)
      throw write_error(path, errno);
    }
    if (S_ISDIR(status.st_mode)) throw write_error(path, EISDIR);
    if (!S_ISLNK(status.st_mode)) return {current, !S_ISREG(status.st_mode), -1};
    std::string link(PATH_MAX, '\0');
    const ssize_t length = ::readlink(current.c_str(), link.data(), link.size());
    if (length < 0) throw write_error(path, errno);
    link.resize(static_cast<std::size_t>(length));
    const std::filesystem::path next(link);
    current = next.is_absolute() ? link : (std::filesystem::path(current).parent_path() / next).string();
  }
  throw write_error(path, ELOOP);
}

// Gives the file `target` the permissions (and, if we may, the owner) of `existing`.
void keep_permissions(int descriptor, const struct stat& existing) {
  if (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid())
    (void)!::fchown(descriptor, existing.st_uid, existing.st_gid);
  (void)!::fchmod(descriptor, existing.st_mode & 07777);
}

// A new file named beside `target` (O_EXCL: never an existing one), in `temporary`; -1 and errno when it
// cannot be made.
int open_named_temporary(const std::string& target, std::string& temporary) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = target + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    const int descriptor = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (descriptor >= 0 || errno != EEXIST) {
      if (descriptor < 0) temporary.clear();
      return descriptor;
    }
  }
  temporary.clear();
  errno = EEXIST;
  return -1;
}

// The file the text goes to before it replaces `target`: a file without a name in the folder of `target`
// (O_TMPFILE: a process killed while writing leaves nothing), named by name_temporary() at the end; where
// the file system cannot make one, a named file beside `target` (`anonymous` false).
int open_temporary(const std::string& path, const std::string& target, std::string& temporary, bool& anonymous) {
  struct stat existing {};
  const bool replacing = ::stat(target.c_str(), &existing) == 0;
  const std::string folder = std::filesystem::path(target).parent_path().string();
  int descriptor = -1;
  anonymous = false;
#ifdef O_TMPFILE
  if (::access("/proc/self/fd", X_OK) == 0) {  // how the file gets its name at the end
    descriptor = ::open(folder.empty() ? "." : folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    anonymous = descriptor >= 0;
    if (descriptor < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) throw write_error(path, errno);
  }
#endif
  if (descriptor < 0) descriptor = open_named_temporary(target, temporary);
  if (descriptor < 0) throw write_error(path, errno);
  if (replacing) keep_permissions(descriptor, existing);
  return descriptor;
}

// A name beside `target` for the file without one open as `descriptor`, in `temporary`; errno or 0.
int name_temporary(int descriptor, const std::string& target, std::string& temporary) {
  static std::atomic<unsigned> counter{0};
  const std::string self = "/proc/self/fd/" + std::to_string(descriptor);
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = target + ".tmp." + std::to_string(::getpid()) + ".a" + std::to_string(counter++);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temporary.c_str(), AT_SYMLINK_FOLLOW) == 0) return 0;
    if (errno != EEXIST) break;
  }
  const int error = errno;
  temporary.clear();
  return error;
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw std::runtime_error("cannot write a file without a name");
  const Target target = resolve(path_);
  target_ = target.path;
  if (target.descriptor >= 0) {
    descriptor_ = ::fcntl(target.descriptor, F_DUPFD_CLOEXEC, 3);
  } else if (target.through) {
    descriptor_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);  // a FIFO waits for its reader
  } else {
    descriptor_ = open_temporary(path_, target_, temporary_, anonymous_);
  }
  if (descriptor_ < 0) throw write_error(path_, errno);
}

OutputFile::~OutputFile() {
  discard();
}

void OutputFile::write(std::string_view text) noexcept {
  if (error_ != 0) return;
  if (buffer_.size() + text.size() > buffer_limit) flush();
  if (text.size() < buffer_limit) {
    try {
      buffer_.append(text);
    } catch (...) {
      error_ = ENOMEM;
    }
    return;
  }
  while (error_ == 0 && !text.empty()) {  // a large piece goes straight to the file
    const ssize_t written = ::write(descriptor_, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      error_ = written < 0 ? errno : EIO;
      break;
    }
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

void OutputFile::flush() noexcept {
  const std::string pending = std::move(buffer_);
  buffer_.clear();
  if (error_ != 0 || pending.empty()) return;
  std::string_view rest(pending);
  while (!rest.empty()) {
    const ssize_t written = descriptor_ < 0 ? -1 : ::write(descriptor_, rest.data(), rest.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      error_ = descriptor_ < 0 ? EBADF : written < 0 ? errno : EIO;
      return;
    }
    rest.remove_prefix(static_cast<std::size_t>(written));
  }
}

void OutputFile::commit() {
  flush();
  int error = error_;
  if (error == 0 && anonymous_ && descriptor_ >= 0) error = name_temporary(descriptor_, target_, temporary_);
  if (descriptor_ >= 0) {
    if (::close(descriptor_) != 0 && error == 0) error = errno;
    descriptor_ = -1;
  } else if (error == 0) {
    error = EBADF;  // committed twice
  }
  if (error == 0 && !temporary_.empty() && ::rename(temporary_.c_str(), target_.c_str()) != 0) error = errno;
  if (error != 0) {
    discard();
    throw write_error(path_, error);
  }
  temporary_.clear();
}

void OutputFile::discard() noexcept {
  if (descriptor_ >= 0) ::close(descriptor_);
  descriptor_ = -1;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  temporary_.clear();
}

void write_file_atomically(const std::string& path, std::string_view content) {
  OutputFile file(path);
  file.write(content);
  file.commit();
}

void refuse_output_over_inputs(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat written {};
  if (output.empty() || ::stat(output.c_str(), &written) != 0 || !S_ISREG(written.st_mode)) return;
  for (const std::string& input : inputs) {
    const bool standard_input = input.empty() || input == "-";
    struct stat source {};
    const int status = standard_input ? ::fstat(STDIN_FILENO, &source) : ::stat(input.c_str(), &source);
    if (status != 0 || source.st_dev != written.st_dev || source.st_ino != written.st_ino) continue;
    throw std::runtime_error(
        "the output " + output + " is the input " + (standard_input ? "on standard input" : input) +
        " (the same file): an output never replaces an input of the same command; nothing written");
  }
}

std::string read_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw std::runtime_error(path + ": cannot read: it is a directory");
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

std::string file_name_part(std::string text) {
  for (char& character : text) {
    if (!std::isalnum(static_cast<unsigned char>(character)) && character != '.' && character != '_') character = '_';
  }
  return text;
}

}  // namespace augur::core
