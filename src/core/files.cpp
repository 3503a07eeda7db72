#include "core/files.hpp"

#include <stdlib.h>
#include <unistd.h>

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
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a folder " + pattern + ": " + std::strerror(errno));
  path_ = pattern;
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void write_file_atomically(const std::string& path, std::string_view content) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  const int saved_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    std::remove(temporary.c_str());
    throw std::runtime_error(path + ": cannot write: " + std::strerror(written ? errno : saved_errno));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(temporary.c_str());
    throw std::runtime_error(path + ": cannot write: " + std::strerror(rename_errno));
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
