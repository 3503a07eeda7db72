// The program model's parser: a line-oriented language (docs/formats.md, "Program models"), every expression
// read by the core expression parser, indices and bounds reduced to affine forms and checked over the
// iteration space. The declarations (param, array, max_depth) are read here; the statements of procedures
// in model_statements.cpp; the call graph is checked in model_calls.cpp.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "sim/cache/model_parser.hpp"

namespace augur::sim::cache {

ModelParser::ModelParser(const core::SourceText& source, const core::Bindings& defines)
    : source_(source), text_(source.text()), defines_(defines) {
  split_lines();
}

void ModelParser::split_lines() {
  std::size_t start = 0;
  long number = 1;
  if (text_.rfind("\xEF\xBB\xBF", 0) == 0) start = 3;  // a UTF-8 byte order mark
  while (start <= text_.size()) {
    std::size_t end = text_.find('\n', start);
    if (end == std::string::npos) end = text_.size();
    std::size_t limit = std::min(text_.find('#', start), end);
    while (limit > start && std::isspace(static_cast<unsigned char>(text_[limit - 1]))) --limit;
    std::size_t first = start;
    while (first < limit && std::isspace(static_cast<unsigned char>(text_[first]))) ++first;
    if (first < limit) lines_.push_back(Line{start, first, limit, number});
    if (end == text_.size()) break;
    start = end + 1;
    ++number;
  }
}

// ---- lines and tokens ----

bool ModelParser::at_line() const {
  return line_ < lines_.size();
}

void ModelParser::begin_line() {
  position_ = lines_[line_].first;
  limit_ = lines_[line_].limit;
}

core::SourceLocation ModelParser::locate(std::size_t offset) const {
  if (line_ >= lines_.size()) return source_.locate(offset);
  return core::SourceLocation{source_.file(), lines_[line_].number,
                              static_cast<long>(offset - lines_[line_].start) + 1};
}

void ModelParser::fail(std::size_t offset, const std::string& message) const {
  throw core::InputError(locate(offset), message);
}

void ModelParser::skip_spaces() {
  while (position_ < limit_ && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
}

char ModelParser::peek() {
  skip_spaces();
  return position_ < limit_ ? text_[position_] : '\0';
}

std::string ModelParser::peek_word() {
  skip_spaces();
  std::size_t end = position_;
  if (end < limit_ && (std::isalpha(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) {
    while (end < limit_ && (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) ++end;
  }
  return text_.substr(position_, end - position_);
}

std::string ModelParser::word(const std::string& what) {
  std::string found = peek_word();
  if (found.empty()) fail_expected(what);
  position_ += found.size();
  return found;
}

void ModelParser::expect_word(const std::string& keyword, const std::string& context) {
  const std::size_t at = (skip_spaces(), position_);
  if (peek_word() != keyword) fail(at, "expected '" + keyword + "' " + context + found_text());
  position_ += keyword.size();
}

void ModelParser::expect_char(char c, const std::string& context) {
  if (peek() != c) fail(position_, std::string("expected '") + c + "' " + context + found_text());
  ++position_;
}

void ModelParser::expect_line_end(const std::string& after) {
  if (peek() != '\0') fail(position_, "unexpected text after " + after + found_text());
  ++line_;
}

std::string ModelParser::found_text() {
  skip_spaces();
  if (position_ >= limit_) return " but the line ends";
  std::size_t end = position_ + 1;
  while (end < limit_ && end - position_ < 20 && !std::isspace(static_cast<unsigned char>(text_[end]))) ++end;
  return " but found '" + text_.substr(position_, end - position_) + "'";
}

void ModelParser::fail_expected(const std::string& what) {
  skip_spaces();
  fail(position_, "expected " + what + found_text());
}

std::unique_ptr<core::Expression> ModelParser::expression(const std::string& what) {
  if (peek() == '\0') fail_expected(what);
  auto parsed = core::parse_expression(source_, position_);
  // The expression parser skips line breaks: it may not take anything from the next lines.
  for (std::size_t k = limit_; k < position_; ++k) {
    if (!std::isspace(static_cast<unsigned char>(text_[k]))) {
      fail(limit_, "the expression continues past the end of the line (one statement per line)");
    }
  }
  position_ = std::min(position_, limit_);
  return parsed;
}

double ModelParser::constant(const std::string& what) {
  const auto parsed = expression(what);
  return core::evaluate(*parsed, parameter_values_, source_);
}

std::int64_t ModelParser::integer(const std::string& what, std::int64_t minimum, std::int64_t maximum) {
  skip_spaces();
  const std::size_t at = position_;
  const double value = constant(what);
  if (value != std::floor(value) || value < static_cast<double>(minimum) || value > static_cast<double>(maximum)) {
    fail(at, what + " must be a whole number in " + std::to_string(minimum) + ".." + std::to_string(maximum) +
                 ", not " + core::format_shortest(value));
  }
  return static_cast<std::int64_t>(value);
}

double ModelParser::probability(const std::string& what) {
  skip_spaces();
  const std::size_t at = position_;
  const double value = constant(what);
  if (!(value >= 0.0 && value <= 1.0)) fail(at, what + " must be in [0, 1], not " + core::format_shortest(value));
  return value;
}

// ---- declarations ----

Model ModelParser::parse() {
  declare_procedures();
  line_ = 0;
  while (at_line()) {
    begin_line();
    const std::size_t at = position_;
    const std::string keyword = peek_word();
    if (keyword == "param") {
      parameter();
    } else if (keyword == "array") {
      array();
    } else if (keyword == "max_depth") {
      position_ += keyword.size();
      stated_max_depth_ = static_cast<std::size_t>(integer("max_depth", 1, 100000));
      expect_line_end("max_depth");
    } else if (keyword == "proc") {
      procedure();
    } else {
      fail(at, "expected param, array, max_depth or proc" + found_text());
    }
  }
  finish();
  return std::move(model_);
}

// The names of all procedures first, so that a call may name one declared further down.
void ModelParser::declare_procedures() {
  for (line_ = 0; at_line(); ++line_) {
    begin_line();
    if (peek_word() != "proc") continue;
    position_ += 4;
    const std::size_t at = (skip_spaces(), position_);
    const std::string name = peek_word();
    if (name.empty() || procedure_index_.count(name) != 0) continue;  // reported when the line is parsed
    procedure_index_[name] = model_.procedures.size();
    Procedure procedure;
    procedure.name = name;
    procedure.declared = locate(at);
    model_.procedures.push_back(std::move(procedure));
  }
  calls_.resize(model_.procedures.size());
}

void ModelParser::check_new_name(const std::string& name, std::size_t at, const std::string& what) {
  if (parameter_values_.count(name) != 0) fail(at, what + " '" + name + "' is already a parameter");
  if (array_index_.count(name) != 0) fail(at, what + " '" + name + "' is already an array");
  if (is_keyword(name)) fail(at, what + " '" + name + "' is a keyword of the language");
}

bool ModelParser::is_keyword(const std::string& name) {
  static constexpr const char* keywords[] = {"param", "array", "max_depth", "proc", "end",  "for",  "to",      "step",
                                             "read",  "write", "miss",      "if",   "else", "call", "element", "align"};
  return std::any_of(std::begin(keywords), std::end(keywords), [&](const char* k) { return name == k; });
}

void ModelParser::parameter() {
  position_ += 5;
  const std::size_t at = (skip_spaces(), position_);
  const std::string name = word("a parameter name");
  check_new_name(name, at, "parameter");
  expect_char('=', "after the parameter name");
  double value = constant("the parameter's value");
  if (const auto defined = defines_.find(name); defined != defines_.end()) value = defined->second;
  expect_line_end("the parameter's value");
  parameter_values_[name] = value;
  model_.parameters.push_back(ModelParameter{name, value});
}

void ModelParser::array() {
  position_ += 5;
  const std::size_t at = (skip_spaces(), position_);
  ModelArray array;
  array.name = word("an array name");
  check_new_name(array.name, at, "array");
  array.declared = locate(at);
  while (peek() == '[') {
    ++position_;
    array.dimensions.push_back(integer("a dimension", 1, std::int64_t{1} << 47));
    expect_char(']', "to close the dimension");
    if (__builtin_mul_overflow(array.elements, static_cast<std::uint64_t>(array.dimensions.back()), &array.elements) ||
        array.elements > (std::uint64_t{1} << 47)) {
      fail(at, "array '" + array.name + "' has more than 2^47 elements");
    }
  }
  for (std::string option = peek_word(); !option.empty(); option = peek_word()) {
    position_ += option.size();
    if (option == "element") {
      array.element_size = static_cast<std::uint32_t>(integer("the element size", 1, 16383));
    } else if (option == "align") {
      const std::size_t align_at = (skip_spaces(), position_);
      array.alignment = static_cast<std::uint64_t>(integer("the alignment", 1, std::int64_t{1} << 40));
      if ((array.alignment & (array.alignment - 1)) != 0) fail(align_at, "the alignment must be a power of two");
    } else {
      position_ -= option.size();
      fail_expected("'element', 'align' or the end of the line");
    }
  }
  place(array, at);
  expect_line_end("the array declaration");
}

// Arrays in declaration order from address 0, each base rounded up to the array's alignment.
void ModelParser::place(ModelArray& array, std::size_t at) {
  constexpr std::uint64_t address_limit = std::uint64_t{1} << 48;
  array.bytes = array.elements * array.element_size;
  array.base = (model_.footprint + array.alignment - 1) / array.alignment * array.alignment;
  if (array.bytes > address_limit || array.base > address_limit - array.bytes) {
    fail(at, "the arrays need more than 2^48 bytes of addresses (array '" + array.name + "')");
  }
  model_.footprint = array.base + array.bytes;
  array_index_[array.name] = model_.arrays.size();
  model_.arrays.push_back(std::move(array));
}

void ModelParser::procedure() {
  const std::size_t keyword_at = position_;
  position_ += 4;
  const std::size_t at = (skip_spaces(), position_);
  const std::string name = word("a procedure name");
  const std::size_t index = procedure_index_.at(name);
  if (locate(at).line != model_.procedures[index].declared.line) {
    fail(at, "procedure '" + name + "' is declared twice (first at line " +
                 std::to_string(model_.procedures[index].declared.line) + ")");
  }
  expect_line_end("the procedure name");
  const std::size_t opening = line_ - 1;
  BlockContext context;
  context.procedure = index;
  Block body = block(context);
  close_block(opening, keyword_at, "procedure '" + name + "'");
  model_.procedures[index].body = std::move(body);
  model_.procedures[index].loop_depth = context.deepest;
}

// After a block: the current line must be `end` alone; otherwise the construct opened at line `opening` is
// not closed.
void ModelParser::close_block(std::size_t opening, std::size_t opening_offset, const std::string& what) {
  if (!at_line()) {
    line_ = opening;
    fail(opening_offset, what + " has no 'end'");
  }
  begin_line();
  const std::size_t at = position_;
  if (peek_word() != "end") fail(at, "expected 'end' to close " + what + found_text());
  position_ += 3;
  expect_line_end("'end'");
}

void ModelParser::finish() {
  if (procedure_index_.count("main") == 0) {
    throw core::InputError(core::SourceLocation{source_.file(), 0, 0}, "the model has no procedure 'main'");
  }
  model_.entry = procedure_index_.at("main");
  for (const auto& [name, value] : defines_) {
    if (parameter_values_.count(name) == 0) {
      std::string known;
      for (const ModelParameter& parameter : model_.parameters) known += (known.empty() ? "" : ", ") + parameter.name;
      throw core::InputError(core::SourceLocation{"--define", 0, 0},
                             "unknown parameter '" + name + "' (the model declares " +
                                 (known.empty() ? std::string("none") : known) + ")");
    }
  }
  check_calls();
}

Model parse_model(const core::SourceText& source, const core::Bindings& defines) {
  return ModelParser(source, defines).parse();
}

}  // namespace augur::sim::cache
