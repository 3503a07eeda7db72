// --json=FILE and --csv=FILE for every command at once: what the command prints on standard output (through
// stdio or std::cout) goes into FILE, written whole when the command succeeds and not at all when it fails.
// The file descriptor 1 is left alone, so that the programs a command runs keep the terminal.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace augur::cli {

class StandardOutputToFile {
 public:
  // Refuses `path` when it is one of `inputs` (core::refuse_output_over_inputs); then captures.
  StandardOutputToFile(std::string path, const std::vector<std::string>& inputs);
  ~StandardOutputToFile();
  StandardOutputToFile(const StandardOutputToFile&) = delete;
  StandardOutputToFile& operator=(const StandardOutputToFile&) = delete;

  // Ends the capture: writes the file when `status` is 0; returns `status`, or 1 when the file cannot be
  // written (said on stderr).
  int finish(int status);

 private:
  void restore() noexcept;

  std::string path_;
  std::FILE* original_ = nullptr;
  std::FILE* capture_ = nullptr;
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
  struct CoutBuffer;
  std::unique_ptr<CoutBuffer> cout_;
};

}  // namespace augur::cli
