// Files: written whole or not at all, never over an input (docs/formats.md, "Output files").
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace augur::core {

// An output file, written whole or not at all. What `path` names decides how:
//  - a regular file, or nothing yet: the text goes to a temporary file in its folder (without a name while
//    it is written, where the file system allows: a process killed meanwhile leaves nothing), renamed over
//    it by commit(), so that a reader sees the old file or the new one, never half; a file replaced keeps
//    its permissions (and, for root, its owner);
//  - a symbolic link (a chain of them, dangling or not): the same for the file at its end; the link stays;
//  - a device, a FIFO or a socket, anything under /proc/, and /dev/stdout, /dev/stderr, /dev/fd/N: written
//    through, in place (a device node is never replaced; /dev/stdout is this process' standard output);
//  - a directory: refused.
// write() buffers and never throws: the first error is kept and reported by commit(). Destroyed without a
// successful commit(), it removes its temporary file (what was written through cannot be taken back).
class OutputFile {
 public:
  // Opens the output; throws std::runtime_error "PATH: cannot write: why" when it cannot.
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view text) noexcept;
  // Writes what is buffered and puts the file in place; throws std::runtime_error "PATH: cannot write: why"
  // (a full disk, a file too large, ...) after removing the temporary file.
  void commit();
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  void flush() noexcept;
  void discard() noexcept;

  std::string path_;        // as given (for messages)
  std::string target_;      // the file that gets the text, links followed
  std::string temporary_;   // beside target_, renamed over it; empty when written through or not named yet
  bool anonymous_ = false;  // written to a file without a name (O_TMPFILE), named beside target_ by commit()
  int descriptor_ = -1;
  int error_ = 0;  // the first errno of a failed write
  std::string buffer_;
};

// `content` as the whole of `path` through an OutputFile. Throws std::runtime_error naming the path.
void write_file_atomically(const std::string& path, std::string_view content);

// Refuses an output that is an input of the same command: throws std::runtime_error "the output OUT is the
// input IN (the same file); an output never replaces an input, nothing was written" when `output`, links
// followed, is the same existing regular file (device and inode) as one of `inputs` ("-" or "": standard
// input, compared with what it is). An output not there yet, or not a regular file, is never refused.
void refuse_output_over_inputs(const std::string& output, const std::vector<std::string>& inputs);

// Reads a whole file; throws std::runtime_error "PATH: cannot read: why" when it cannot (a directory
// included).
[[nodiscard]] std::string read_file(const std::string& path);

// `text` made a safe part of a file name: every character other than a letter, a digit, '.' or '_'
// becomes '_' (a name given by a user or a program may hold '/', blanks, anything).
[[nodiscard]] std::string file_name_part(std::string text);

// A fresh private folder, $TMPDIR/PREFIX-XXXXXX (or /tmp), removed with its contents at destruction.
// Throws std::runtime_error when it cannot be made.
class TemporaryFolder {
 public:
  explicit TemporaryFolder(const std::string& prefix);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace augur::core
