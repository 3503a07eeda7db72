// Putting an unmodified OpenMP program under the dynamic instrumentation (interposition.hpp).
#include "interposition.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/process.hpp"
#include "locations.hpp"

namespace augur::cli {

namespace fs = std::filesystem;

Linkage inspect_linkage(const std::string& program) {
  Linkage linkage;
  core::ProcessResult result = core::run_process({"ldd", program});
  const std::string& text = result.standard_output;
  linkage.libaugur = text.find("libaugur.so") != std::string::npos;
  if (text.find("libgomp") != std::string::npos) {
    linkage.runtime = OpenMpRuntime::Gomp;
  } else if (text.find("libomp.so") != std::string::npos || text.find("libiomp5") != std::string::npos) {
    linkage.runtime = OpenMpRuntime::LlvmOmp;
  } else if (!result.succeeded() || text.find("not a dynamic executable") != std::string::npos ||
             text.find("statically linked") != std::string::npos) {
    linkage.detail = "ldd: " + (text.empty() ? result.standard_error : text);
    while (!linkage.detail.empty() &&
           (linkage.detail.back() == '\n' || linkage.detail.back() == ' ' || linkage.detail.back() == '\t'))
      linkage.detail.pop_back();
    linkage.runtime = OpenMpRuntime::Static;
  }
  return linkage;
}

OpenMpRuntime detect_runtime(const std::string& program, std::string& detail) {
  Linkage linkage = inspect_linkage(program);
  detail = std::move(linkage.detail);
  return linkage.runtime;
}

int choose_interposition(const std::string& command, const std::string& program, OpenMpRuntime runtime,
                         const std::string& detail, const std::string& preload, bool preload_option,
                         Interposition& chosen) {
  switch (runtime) {
    case OpenMpRuntime::Gomp: break;
    case OpenMpRuntime::LlvmOmp:
      if (preload.empty() && installed_library("libaugur_ompt.so").empty()) {
        std::fprintf(stderr,
                     "%s: %s uses LLVM's OpenMP runtime (libomp), and this build of augur has no OMPT tool "
                     "(libaugur_ompt: omp-tools.h was not found when it was built); rebuild with gcc -fopenmp%s\n",
                     command.c_str(), program.c_str(), preload_option ? ", or give the tool with --preload" : "");
        return 1;
      }
      break;
    case OpenMpRuntime::Static:
      std::fprintf(stderr,
                   "%s: not an OpenMP program linked to libgomp or libomp: %s is not dynamically linked (%s); "
                   "LD_PRELOAD cannot interpose on it\n",
                   command.c_str(), program.c_str(), detail.c_str());
      return 1;
    case OpenMpRuntime::None:
      std::fprintf(stderr,
                   "%s: not an OpenMP program linked to libgomp or libomp: %s loads neither libgomp.so.1 nor "
                   "libomp.so (ldd); %s measures programs built with gcc -fopenmp or clang -fopenmp\n",
                   command.c_str(), program.c_str(), command.c_str());
      return 1;
  }
  chosen.ompt = runtime == OpenMpRuntime::LlvmOmp;
  chosen.library = !preload.empty() ? preload
                   : chosen.ompt    ? installed_library("libaugur_ompt.so").string()
                                    : (library_directory() / "libaugur_preload.so").string();
  if (::access(chosen.library.c_str(), R_OK) != 0) {
    std::fprintf(stderr, "%s: %s: cannot read the %s%s\n", command.c_str(), chosen.library.c_str(),
                 chosen.ompt ? "OMPT tool" : "interposition library", preload_option ? " (--preload)" : "");
    return 2;
  }
  return 0;
}

std::vector<std::pair<std::string, std::string>> interposition_environment(const Interposition& tool) {
  std::vector<std::pair<std::string, std::string>> environment;
  const std::string library = fs::absolute(tool.library).string();
  if (tool.ompt) {
    // libomp loads the tool itself (OMPT, OpenMP 5.0 section 4.2.1); a tool already named is kept, after ours.
    const char* previous_tools = std::getenv("OMP_TOOL_LIBRARIES");
    environment.emplace_back("OMP_TOOL_LIBRARIES", previous_tools != nullptr && *previous_tools != '\0'
                                                       ? library + ":" + previous_tools
                                                       : library);
    environment.emplace_back("OMP_TOOL", "enabled");
  }
  // libaugur_preload wraps libgomp's entry points; libaugur_ompt, preloaded too, wraps libomp's chunk
  // dispatcher for the baseline steps of one outer region (docs/self-analysis.md) and is the tool libomp finds.
  const char* previous_preload = std::getenv("LD_PRELOAD");
  environment.emplace_back("LD_PRELOAD", previous_preload != nullptr && *previous_preload != '\0'
                                             ? library + ":" + previous_preload
                                             : library);
  return environment;
}

}  // namespace augur::cli
