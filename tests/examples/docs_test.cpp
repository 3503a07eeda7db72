// The documentation quotes the tested outputs: in README.md and docs/*.md, an example's output sits between
//   <!-- example: examples/<folder>/<file>.out -->
//   ```
//   $ the command (optional; earlier `$ NAME='value'` lines may set shell variables it uses)
//   the output
//   ```
//   <!-- /example -->
// and this test checks, for every such block, that the file is an expected-output file that an
// augur_example() call tests, that the output equals the file under that example's filter (so a page cannot
// drift from the tool), and that the quoted command is the one the test runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "example_compare.hpp"

namespace {

namespace fs = std::filesystem;
using augur::examples::Example;

const std::string open_marker = "<!-- example: ";
const std::string close_marker = "<!-- /example -->";

struct Quote {
  std::string file;  // the expected-output file named by the marker
  int line = 0;      // of the marker
  std::vector<std::string> commands;  // the leading `$ ` lines, without "$ "
  std::string output;
};

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// The quoted blocks of one page; a malformed block is reported as page:line.
std::vector<Quote> read_quotes(const fs::path& page, std::vector<std::string>& errors) {
  const auto lines = augur::examples::split_lines(augur::examples::read_text(page));
  std::vector<Quote> quotes;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!starts_with(lines[i], open_marker)) continue;
    const std::string where = page.filename().string() + ":" + std::to_string(i + 1);
    const auto end = lines[i].find(" -->");
    if (end == std::string::npos) {
      errors.push_back(where + ": the marker does not end with ' -->'");
      continue;
    }
    Quote quote{lines[i].substr(open_marker.size(), end - open_marker.size()), static_cast<int>(i + 1), {}, {}};
    std::size_t j = i + 1;
    if (j >= lines.size() || !starts_with(lines[j], "```")) {
      errors.push_back(where + ": the marker is not followed by a ``` block");
      continue;
    }
    ++j;
    while (j < lines.size() && starts_with(lines[j], "$ ") && quote.output.empty()) quote.commands.push_back(lines[j++].substr(2));
    while (j < lines.size() && !starts_with(lines[j], "```")) quote.output += lines[j++] + "\n";
    if (j + 1 >= lines.size() || lines[j + 1] != close_marker) {
      errors.push_back(where + ": the ``` block is not closed and followed by '" + close_marker + "'");
      continue;
    }
    quotes.push_back(quote);
    i = j + 1;
  }
  return quotes;
}

// The words of a shell command line: quotes removed, $NAME and ${NAME} replaced from `variables`; a word
// starting with '#' ends the line.
std::vector<std::string> shell_words(const std::string& line, const std::map<std::string, std::string>& variables) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  const auto expand = [&](std::size_t& i) {  // at '$'
    std::size_t start = i + 1;
    const bool braced = start < line.size() && line[start] == '{';
    if (braced) ++start;
    std::size_t stop = start;
    while (stop < line.size() && (std::isalnum(static_cast<unsigned char>(line[stop])) || line[stop] == '_')) ++stop;
    const auto found = variables.find(line.substr(start, stop - start));
    word += found == variables.end() ? "" : found->second;
    i = braced ? stop : stop - 1;
  };
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '#' && !in_word) {
      break;
    } else if (c == '\'') {
      in_word = true;
      const auto close = line.find('\'', i + 1);
      word += line.substr(i + 1, close - i - 1);
      i = close == std::string::npos ? line.size() : close;
    } else if (c == '"') {
      in_word = true;
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '$') expand(i);
        else word += line[i];
      }
    } else if (c == '$') {
      in_word = true;
      expand(i);
    } else {
      in_word = true;
      word += c;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

// Whether the quoted command lines end with the example's command (leading NAME=value words are some of
// its environment). A line of NAME=value words only sets shell variables for the rest of the page, as in
// one terminal session (docs/fit.md sets F once for formula (11)).
bool quotes_command(const Quote& quote, const Example& example, std::map<std::string, std::string>& variables) {
  if (quote.commands.empty()) return true;
  for (std::size_t i = 0; i + 1 < quote.commands.size(); ++i) {
    for (const auto& word : shell_words(quote.commands[i], variables)) {
      const auto equals = word.find('=');
      if (equals != std::string::npos) variables[word.substr(0, equals)] = word.substr(equals + 1);
    }
  }
  auto words = shell_words(quote.commands.back(), variables);
  std::vector<std::string> environment;
  while (!words.empty() && words.front().find('=') != std::string::npos && words.front().front() != '-') {
    environment.push_back(words.front());
    words.erase(words.begin());
  }
  if (!words.empty() && words.front() == "build/bin/augur") words.front() = "augur";  // the pages write either
  // The page may leave out variables set for the machine rather than the example (OMPI_ALLOW_RUN_AS_ROOT).
  const bool environment_known = std::all_of(environment.begin(), environment.end(), [&](const std::string& assignment) {
    return std::find(example.environment.begin(), example.environment.end(), assignment) != example.environment.end();
  });
  return words == example.command && environment_known;
}

// The text without its trailing blank lines: a quoted block cannot end with one, an output may.
std::string without_trailing_blank_lines(std::string text) {
  while (text.size() >= 2 && text.compare(text.size() - 2, 2, "\n\n") == 0) text.pop_back();
  return text;
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

std::vector<std::string> pages() {
  std::vector<std::string> names{"README.md"};
  for (const auto& entry : fs::directory_iterator(fs::path(AUGUR_SOURCE_DIR) / "docs")) {
    if (entry.path().extension() == ".md") names.push_back("docs/" + entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class QuotedExamples : public ::testing::TestWithParam<std::string> {};

TEST_P(QuotedExamples, EqualTheirTestedFiles) {
  const auto examples = augur::examples::read_manifest(AUGUR_EXAMPLES_MANIFEST);
  std::vector<std::string> errors;
  const auto quotes = read_quotes(fs::path(AUGUR_SOURCE_DIR) / GetParam(), errors);
  std::map<std::string, std::string> variables;  // the page's shell variables
  for (const auto& error : errors) ADD_FAILURE() << error;
  for (const auto& quote : quotes) {
    const std::string where = GetParam() + ":" + std::to_string(quote.line);
    std::vector<const Example*> testing;
    for (const auto& example : examples) {
      if (example.expected == quote.file) testing.push_back(&example);
    }
    if (testing.empty()) {
      ADD_FAILURE() << where << ": " << quote.file << " is the expected output of no augur_example() (examples/Examples.cmake, examples/cache/Examples.cmake)";
      continue;
    }
    const auto file = fs::path(AUGUR_SOURCE_DIR) / quote.file;
    const auto difference = augur::examples::compare(without_trailing_blank_lines(augur::examples::read_text(file)), quote.output,
                                                     testing.front()->filter);
    EXPECT_FALSE(difference.has_value()) << where << ": the quoted output differs from " << quote.file
                                         << " (copy the file into the block)\n" << difference.value_or("");
    const bool any = std::any_of(testing.begin(), testing.end(), [&](const Example* example) { return quotes_command(quote, *example, variables); });
    std::string registered;
    for (const auto* example : testing) registered += "\n  " + joined(example->environment) + (example->environment.empty() ? "" : " ") + joined(example->command);
    EXPECT_TRUE(any) << where << ": the quoted command '" << quote.commands.back() << "' is not the command tested with " << quote.file
                     << "; tested:" << registered;
  }
}

INSTANTIATE_TEST_SUITE_P(Docs, QuotedExamples, ::testing::ValuesIn(pages()), [](const ::testing::TestParamInfo<std::string>& page) {
  std::string name = page.param;
  for (auto& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
});

// The markers are read at all: a page set that quotes no example would make the test above vacuous.
TEST(DocsQuotes, SomePageQuotesAnExample) {
  std::size_t count = 0;
  for (const auto& page : pages()) {
    std::vector<std::string> errors;
    count += read_quotes(fs::path(AUGUR_SOURCE_DIR) / page, errors).size();
  }
  EXPECT_GT(count, 0u);
}

}  // namespace

namespace {

// The first line of the ```sh block after `anchor` in `text` ("" when there is none).
std::string sh_line_after(const std::string& text, const std::string& anchor) {
  const std::size_t at = text.find(anchor);
  const std::size_t block = at == std::string::npos ? std::string::npos : text.find("```sh\n", at);
  if (block == std::string::npos) return "";
  const std::size_t begin = block + 6;
  return text.substr(begin, text.find('\n', begin) - begin);
}

// .ci/run runs exactly the README's test command, and the README's first screen says what augur is before
// its commands.
TEST(Readme, CiRunsTheReadmeTestCommand) {
  const std::string readme = augur::examples::read_text(fs::path(AUGUR_SOURCE_DIR) / "README.md");
  const std::string command = sh_line_after(readme, "this is what `.ci/run` runs");
  ASSERT_FALSE(command.empty());
  EXPECT_TRUE(starts_with(command, "scripts/setup.sh && cmake -S . -B build")) << command;
  const std::string ci = augur::examples::read_text(fs::path(AUGUR_SOURCE_DIR) / ".ci" / "run");
  EXPECT_EQ(ci.substr(ci.rfind('\n', ci.size() - 2) + 1), command + "\n");
  EXPECT_LT(readme.find("augur predicts and explains"), readme.find("```sh")) << "one paragraph on what augur is comes first";
}

}  // namespace
