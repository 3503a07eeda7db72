// The command line every benchmark answers the same way: `--help` (or `-h`) prints its usage on standard
// output and exits 0; an option it does not take, or more values than its usage names, prints the usage on
// standard error and exits 2, before any measurement. A benchmark calls check_arguments first in main() and
// then reads its own options and values as before. Checked on every benchmark by
// BenchHelp.EveryBenchmarkAnswersHelpAndRefusesAnUnknownOption (bench/bench_help_check.cmake).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

namespace augur::bench {

// `options`: the options the benchmark reads, each "--name" (a switch) or "--name VALUE" (the next argument is
// its value); `values`: how many other arguments it reads, at most.
inline void check_arguments(int argc, char** argv, const char* usage, std::initializer_list<const char*> options = {},
                            int values = 0) {
  int given = 0;
  for (int index = 1; index < argc; ++index) {
    const std::string argument = argv[index];
    if (argument == "--help" || argument == "-h") {
      std::printf("%s\n", usage);
      std::exit(0);
    }
    bool known = false;
    for (const std::string option : options) {
      if (argument != option.substr(0, option.find(' '))) continue;
      known = true;
      if (option.find(' ') != std::string::npos) ++index;  // its value
    }
    if (known) continue;
    if ((argument.size() > 1 && argument[0] == '-') || ++given > values) {
      std::fprintf(stderr, "%s: unknown argument '%s'\n%s\n", argv[0], argument.c_str(), usage);
      std::exit(2);
    }
  }
}

}  // namespace augur::bench
