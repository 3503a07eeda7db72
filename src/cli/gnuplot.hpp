// Pictures drawn by gnuplot (augur plot, augur cache curve --plot): SVG or PNG chosen by the output's
// extension, written whole or not at all.
#pragma once

#include <string>

namespace augur::cli {

// `text` as a gnuplot string literal.
[[nodiscard]] std::string gnuplot_quote(const std::string& text);
// The extension of `path` in lower case ("svg", "png"; "" without one).
[[nodiscard]] std::string picture_extension(const std::string& path);
// The `set terminal` line of the picture for "svg" or "png".
[[nodiscard]] std::string gnuplot_terminal(const std::string& extension);
// Runs gnuplot on `script` (which sets no output) in a private temporary folder and puts the picture, checked
// whole, in `output`; throws std::runtime_error when gnuplot is missing or fails (nothing written then).
void draw_picture(const std::string& script, const std::string& output, const std::string& extension);

}  // namespace augur::cli
