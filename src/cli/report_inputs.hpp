// augur report's inputs (docs/report.md): a file read whole, its kind detected or forced; a performance
// database turned into JSON; fit's measurements attached from its data file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/report.hpp"

namespace augur::cli {

// Reads FILE ("-": standard input): JSON (malformed: core::InputError at file:line:col) or a performance
// database (SQLite). `forced`: the kind named by --kind, else detected from the keys.
[[nodiscard]] report::Input read_report_input(const std::string& file, std::optional<report::Kind> forced);

}  // namespace augur::cli
