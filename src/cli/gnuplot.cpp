#include "gnuplot.hpp"

#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "core/files.hpp"
#include "core/process.hpp"

namespace augur::cli {

std::string gnuplot_quote(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string picture_extension(const std::string& path) {
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos) return "";
  std::string extension = path.substr(dot + 1);
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension;
}

std::string gnuplot_terminal(const std::string& extension) {
  return extension == "svg" ? "set terminal svg size 900,600 dynamic enhanced font 'sans,12'\n"
                            : "set terminal pngcairo size 1200,800 enhanced font 'sans,12'\n";
}

namespace {

// Whether `picture` is whole: gnuplot exits with status 0 after a failed write (a full disk), so its status
// does not say. An SVG ends with its closing tag, a PNG with its IEND chunk.
bool complete_picture(const std::string& picture, const std::string& extension) {
  if (extension == "svg") {
    const std::size_t end = picture.find_last_not_of(" \t\r\n");
    return end != std::string::npos && picture.find("<svg") != std::string::npos && end >= 5 && picture.compare(end - 5, 6, "</svg>") == 0;
  }
  static const std::string signature("\x89PNG\r\n\x1a\n", 8);
  static const std::string last_chunk("\0\0\0\0IEND\xae\x42\x60\x82", 12);
  return picture.size() >= signature.size() + last_chunk.size() && picture.compare(0, signature.size(), signature) == 0 &&
         picture.compare(picture.size() - last_chunk.size(), last_chunk.size(), last_chunk) == 0;
}

}  // namespace

// gnuplot draws into a private temporary folder; the picture, checked whole, then replaces the output (an
// OutputFile: a temporary file beside it, renamed), so that a failure leaves the previous picture and
// nothing else.
void draw_picture(const std::string& script, const std::string& output, const std::string& extension) {
  const std::filesystem::path directory = std::filesystem::path(output).parent_path();
  std::error_code status;
  if (!directory.empty() && !std::filesystem::is_directory(directory, status)) {
    throw std::runtime_error("cannot write " + output + ": the directory " + directory.string() + " does not exist");
  }
  core::OutputFile file(output);  // before gnuplot runs: an output that cannot be written is said first
  const core::TemporaryFolder folder("augur-plot");
  const std::string temporary = (folder.path() / ("picture." + extension)).string();
  const std::string script_path = (folder.path() / "plot.gp").string();
  core::write_file_atomically(script_path, "set output " + gnuplot_quote(temporary) + "\n" + script);
  core::ProcessResult result;
  try {
    result = core::run_process({"gnuplot", script_path});
  } catch (const std::exception&) {
    throw std::runtime_error("gnuplot is not installed or cannot be started (Debian: apt-get install gnuplot-nox); no picture written");
  }
  if (!result.succeeded()) throw std::runtime_error("gnuplot " + result.describe_status() + ": " + result.standard_error);
  std::error_code missing;
  const std::string picture = std::filesystem::exists(temporary, missing) ? core::read_file(temporary) : std::string();
  if (!complete_picture(picture, extension)) {
    throw std::runtime_error("gnuplot wrote an incomplete picture (" + std::to_string(picture.size()) +
                             " bytes; is the disk full?); no picture written" +
                             (result.standard_error.empty() ? "" : ": " + result.standard_error));
  }
  file.write(picture);
  file.commit();
}

}  // namespace augur::cli
