// The flags every command shares, declared in one place so that the same thing has the same flag, the same
// default and the same bounds everywhere (docs/cli.md):
//   --json[=FILE]     the output as JSON: on standard output, or with =FILE into FILE (whole or not at all)
//   --csv[=FILE]      a table as CSV, the same way
//   -o,--output FILE  the file a command writes (whole or not at all, never over one of its inputs)
//   -p,--threads N    threads: of the program a command runs (OMP_NUM_THREADS), or of augur's own work
// An optional value is given only with '=': `--json -- prog` and `--json prog` never take `--` or the program
// as a file name.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI

namespace augur::cli {

// The largest thread count any command accepts (-p/--threads, --max-threads).
inline constexpr int thread_limit = 4096;
// The largest count of visit cycles V (-V, --visits) in tspp and sim alike, so that a system simulated with V
// can be predicted with the same V: the simulator streams its events (10^6 is tested), the predictors' chains
// refuse past their own limits with a message naming them.
inline constexpr int visit_limit = 1000000;

// --json[=FILE]: sets `json` when given. With =FILE, main() sends what the command prints on standard output
// into FILE instead (output_redirect.hpp).
CLI::Option* add_json_flag(CLI::App& command, bool& json, const std::string& description = "JSON instead of the table");
// --json[=FILE] of a command that runs a program (run, manage): bare, `json` is set (the JSON instead of the
// table); with =FILE, `file` is set and the command writes FILE itself, the table staying on standard output
// after the program's own output.
CLI::Option* add_json_flag(CLI::App& command, bool& json, std::string& file, const std::string& description);
// --csv[=FILE], the same way; it excludes --json when the command has one (declare --json first).
CLI::Option* add_csv_flag(CLI::App& command, bool& csv, const std::string& description = "CSV instead of the table");
// -o,--output FILE.
CLI::Option* add_output_option(CLI::App& command, std::string& output, const std::string& description);
// -p,--threads N in [minimum, max_threads].
CLI::Option* add_threads_option(CLI::App& command, int& threads, const std::string& description, int minimum = 1);

// --progress (progress lines on standard error even when it is not a terminal; `detail` follows the text,
// e.g. " (every 2^24 accesses)") and -q,--quiet (no progress), for the commands with long work.
void add_progress_flags(CLI::App& command, bool& progress, bool& quiet, const std::string& detail = "");

// The check to put first on every floating-point option: a finite number, never nan or inf (CLI11's ranges
// let nan through, and print the limits of double for inf). Nothing added to --help.
[[nodiscard]] CLI::Validator finite_number();

// The check CLI11 2.1 lacks on integer options: it reads them with strtoull/strtoll, which saturate past 64
// bits and (strtoull) take a minus sign, so `--seed 18446744073709551616` and `--seed -1` both became
// 2^64 - 1. An integer of 64 bits (`is_unsigned`: 0 to 2^64 - 1, else -2^63 to 2^63 - 1), read as CLI11 reads
// it (decimal, 0x hex, 0 octal); a narrower type's range CLI11 checks itself. Nothing added to --help.
[[nodiscard]] CLI::Validator integer_within_64_bits(bool is_unsigned);
// Puts that check on every option of `app` and of its commands, at every depth, whose type is an integer
// (CLI11's INT or UINT); main() calls it once every command is declared. An option with a type name of its
// own (ID, N) gets the check where it is declared.
void refuse_out_of_range_integers(CLI::App& app);

// The file named by --json=FILE or --csv=FILE on `command` (empty: standard output, or not given).
[[nodiscard]] std::string redirected_output(const CLI::App& command);

}  // namespace augur::cli

namespace CLI {
class Formatter;
}

namespace augur::cli {

// augur's --help layout: CLI11's, with the default of every option that has one after its type (TYPE=DEFAULT)
// and none shown for an empty list.
[[nodiscard]] std::shared_ptr<CLI::Formatter> help_formatter();

// Everything the user gave `command` and the commands above it except --json and --csv: the files an output
// must not replace.
[[nodiscard]] std::vector<std::string> given_values(const CLI::App& command);

}  // namespace augur::cli
