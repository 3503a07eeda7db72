// tspp [-b] [-d] <in >out: the seed's own interface to the predictor (seed 004, section 1.3).
#include <cstdio>
#include <cstring>

#include "tspp_command.hpp"

int main(int argc, char** argv) {
  augur::cli::TsppOptions options;
  options.method = "mak-lundstrom";  // the seed's tool keeps the seed's method (augur tspp's default is hybrid)
  for (int index = 1; index < argc; ++index) {
    if (std::strcmp(argv[index], "-b") == 0) {
      options.brief = true;
    } else if (std::strcmp(argv[index], "-d") == 0) {
      options.dump = true;
    } else if (std::strcmp(argv[index], "-h") == 0 || std::strcmp(argv[index], "--help") == 0) {
      std::puts("usage: tspp [-b] [-d] <in >out\n  -b  brief: tasks' times and the completion time only\n"
                "  -d  dump: one value per line (the seed's Figure 13)\nThe same as 'augur tspp --method mak-lundstrom'; see docs/tspp.md.");
      return 0;
    } else {
      std::fprintf(stderr, "tspp: unknown option '%s' (usage: tspp [-b] [-d] <in >out)\n", argv[index]);
      return 2;
    }
  }
  return augur::cli::run_tspp_command(options);
}
