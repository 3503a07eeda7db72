// --json=FILE and --csv=FILE for every command (output_redirect.hpp).
#include "output_redirect.hpp"

#include <ext/stdio_sync_filebuf.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "core/files.hpp"

namespace augur::cli {

// std::cout writing into the same stream as stdio, so that the two keep their order.
struct StandardOutputToFile::CoutBuffer {
  explicit CoutBuffer(std::FILE* file) : buffer(file) {}
  __gnu_cxx::stdio_sync_filebuf<char> buffer;
  std::streambuf* original = nullptr;
};

StandardOutputToFile::StandardOutputToFile(std::string path, const std::vector<std::string>& inputs) : path_(std::move(path)) {
  core::refuse_output_over_inputs(path_, inputs);
  std::fflush(stdout);
  std::cout.flush();
  capture_ = open_memstream(&buffer_, &size_);
  if (capture_ == nullptr) throw std::runtime_error(path_ + ": cannot write: out of memory");
  original_ = stdout;
  stdout = capture_;  // glibc's stdout is a variable (a documented GNU extension)
  cout_ = std::make_unique<CoutBuffer>(capture_);
  cout_->original = std::cout.rdbuf(&cout_->buffer);
}

StandardOutputToFile::~StandardOutputToFile() {
  restore();
  std::free(buffer_);
}

void StandardOutputToFile::restore() noexcept {
  if (capture_ == nullptr) return;
  std::cout.flush();
  std::cout.rdbuf(cout_->original);
  stdout = original_;
  std::fclose(capture_);  // sets buffer_ and size_
  capture_ = nullptr;
}

int StandardOutputToFile::finish(int status) {
  restore();
  if (status != 0) return status;
  try {
    core::write_file_atomically(path_, std::string_view(buffer_ == nullptr ? "" : buffer_, size_));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "augur: %s\n", error.what());
    return 1;
  }
  return 0;
}

}  // namespace augur::cli
