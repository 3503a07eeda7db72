// The layering of the house, as docs/developing.md states it, checked on the sources: every quoted
// #include under src/ names a header that its folder may include (the table between the markers
// <!-- layering --> and <!-- /layering -->), every public header has an owner (<!-- public-headers -->),
// and every folder of sources is in the table. The page is the rule; this test keeps the code to it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/files.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path source_root = AUGUR_SOURCE_DIR;

std::string read_text(const fs::path& path) { return augur::core::read_file(path.string()); }

std::string trim(std::string text) {
  const auto blank = [](unsigned char c) { return std::isspace(c) != 0; };
  text.erase(text.begin(), std::find_if_not(text.begin(), text.end(), blank));
  text.erase(std::find_if_not(text.rbegin(), text.rend(), blank).base(), text.end());
  return text;
}

// The rows of the two-column Markdown table between <!-- name --> and <!-- /name --> (header row and
// rule skipped).
std::vector<std::pair<std::string, std::string>> table(const std::string& page, const std::string& name) {
  const std::string open = "<!-- " + name + " -->";
  const std::string close = "<!-- /" + name + " -->";
  const std::size_t begin = page.find(open);
  const std::size_t end = page.find(close);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return {};
  std::istringstream lines(page.substr(begin + open.size(), end - begin - open.size()));
  std::vector<std::pair<std::string, std::string>> rows;
  std::string line;
  int row = 0;
  while (std::getline(lines, line)) {
    if (trim(line).empty() || line[0] != '|') continue;
    if (row++ < 2) continue;  // header and rule
    std::vector<std::string> cells;
    std::stringstream cells_text(line.substr(1));
    for (std::string cell; std::getline(cells_text, cell, '|');) cells.push_back(trim(cell));
    if (cells.size() >= 2) rows.emplace_back(cells[0], cells[1]);
  }
  return rows;
}

struct Layering {
  std::map<std::string, std::set<std::string>> allowed;             // folder -> folders it may include
  std::vector<std::pair<std::string, std::string>> public_headers;  // header (or folder/) -> owner
};

Layering read_layering() {
  const std::string page = read_text(source_root / "docs" / "developing.md");
  Layering layering;
  for (const auto& [folder, list] : table(page, "layering")) {
    std::set<std::string>& allowed = layering.allowed[folder];
    allowed.insert(folder);
    std::stringstream items(list);
    for (std::string item; std::getline(items, item, ',');) {
      if (!trim(item).empty()) allowed.insert(trim(item));
    }
  }
  layering.public_headers = table(page, "public-headers");
  return layering;
}

// The folder of src/ a source file belongs to: "model", or "sim/engine" for src/sim/engine/x.cpp.
std::string folder_of(const fs::path& file) {
  const fs::path relative = fs::relative(file, source_root / "src");
  auto part = relative.begin();
  std::string folder = part->string();
  if (folder == "sim" && std::distance(relative.begin(), relative.end()) > 2) folder += "/" + std::next(part)->string();
  return folder;
}

// Who owns an included header: the public table for "augur/...", the folder for "<folder>/...",
// "" for a header private to the including folder (no '/') or not augur's.
std::string owner_of(const std::string& header, const Layering& layering) {
  if (header.rfind("augur/", 0) == 0) {
    for (const auto& [name, owner] : layering.public_headers) {
      if (header == name || (name.back() == '/' && header.rfind(name, 0) == 0)) return owner;
    }
    return "?";  // a public header nobody owns
  }
  const std::size_t slash = header.find('/');
  if (slash == std::string::npos) return "";
  const std::size_t second = header.find('/', slash + 1);
  if (second != std::string::npos && layering.allowed.count(header.substr(0, second)) != 0)
    return header.substr(0, second);
  const std::string first = header.substr(0, slash);
  return layering.allowed.count(first) != 0 ? first : "";
}

std::vector<fs::path> sources_under(const fs::path& root) {
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
    const std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() &&
        (extension == ".cpp" || extension == ".hpp" || extension == ".c" || extension == ".h")) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Layering, TheTablesAreOnThePage) {
  const Layering layering = read_layering();
  EXPECT_GE(layering.allowed.size(), 14u);
  EXPECT_GE(layering.public_headers.size(), 10u);
  for (const auto& [folder, allowed] : layering.allowed) {
    for (const std::string& other : allowed) {
      EXPECT_EQ(layering.allowed.count(other), 1u)
          << folder << " may include " << other << ", which is not a folder of the table";
    }
  }
}

TEST(Layering, EveryFolderOfSourcesIsInTheTable) {
  const Layering layering = read_layering();
  std::set<std::string> folders;
  for (const fs::path& file : sources_under(source_root / "src")) folders.insert(folder_of(file));
  for (const std::string& folder : folders) {
    EXPECT_EQ(layering.allowed.count(folder), 1u)
        << "src/" << folder << " is not in docs/developing.md, \"What may include what\"";
  }
}

TEST(Layering, EveryPublicHeaderHasAnOwner) {
  const Layering layering = read_layering();
  for (const fs::path& file : sources_under(source_root / "include")) {
    const std::string header = fs::relative(file, source_root / "include").generic_string();
    EXPECT_NE(owner_of(header, layering), "?")
        << header << " has no owner in docs/developing.md's public-headers table";
  }
}

TEST(Layering, EveryIncludeUnderSrcRespectsTheTable) {
  const Layering layering = read_layering();
  const std::regex quoted(R"re(^\s*#\s*include\s*"([^"]+)")re");
  int includes = 0;
  for (const fs::path& file : sources_under(source_root / "src")) {
    const std::string folder = folder_of(file);
    const auto allowed = layering.allowed.find(folder);
    if (allowed == layering.allowed.end()) continue;  // reported by EveryFolderOfSourcesIsInTheTable
    std::istringstream lines(read_text(file));
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
      ++number;
      std::smatch match;
      if (!std::regex_search(line, match, quoted)) continue;
      ++includes;
      const std::string header = match[1].str();
      const std::string owner = owner_of(header, layering);
      const std::string where = fs::relative(file, source_root).string() + ":" + std::to_string(number);
      if (owner.empty()) {
        // A private header: it must be beside the file (or an internal one of the same folder).
        EXPECT_TRUE(fs::exists(file.parent_path() / header))
            << where << ": \"" << header << "\" is neither beside the file nor "
            << "spelt <folder>/<header> from src/";
        continue;
      }
      EXPECT_NE(owner, "?") << where << ": \"" << header << "\" is a public header nobody owns";
      EXPECT_EQ(allowed->second.count(owner), 1u)
          << where << ": src/" << folder << " may not include \"" << header << "\" (owned by " << owner
          << "); docs/developing.md, \"What may include what\"";
    }
  }
  EXPECT_GT(includes, 150);
}

// The pages name files of the repository (`src/cli/locations.hpp`, [install.md](install.md)): each must
// exist, so that a file moved or removed cannot leave a page pointing at nothing.
TEST(DocsPaths, EveryFileOfTheRepositoryThePagesNameExists) {
  std::vector<fs::path> pages{source_root / "README.md"};
  for (const fs::directory_entry& entry : fs::directory_iterator(source_root / "docs")) {
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  }
  const std::regex quoted("`([^`\\s]+)`");
  const std::regex repository_path(R"(^(src|include|tests|examples|bench|cmake|scripts|docs|fuzz)/[\w./+-]+$)");
  int named = 0;
  for (const fs::path& page : pages) {
    std::istringstream lines(read_text(page));
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
      ++number;
      for (auto match = std::sregex_iterator(line.begin(), line.end(), quoted); match != std::sregex_iterator(); ++match) {
        std::string path = (*match)[1].str();
        while (!path.empty() && std::string(".,:;").find(path.back()) != std::string::npos) path.pop_back();
        if (!std::regex_match(path, repository_path)) continue;
        ++named;
        EXPECT_TRUE(fs::exists(source_root / path))
            << fs::relative(page, source_root).string() << ":" << number << ": `" << path << "` does not exist";
      }
    }
  }
  EXPECT_GT(named, 100);
}

}  // namespace
