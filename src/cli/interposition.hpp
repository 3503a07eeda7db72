// Putting an unmodified OpenMP program under augur's dynamic instrumentation, shared by `augur run` and
// `augur speedup`: which OpenMP runtime (and whether libaugur) the program loads, which interposition
// library measures it (libaugur_preload.so for libgomp, the OMPT tool libaugur_ompt.so for libomp), and
// the variables that load it. Guides: docs/run.md, docs/speedup.md.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace augur::cli {

enum class OpenMpRuntime { Gomp, LlvmOmp, None, Static };

// What `ldd PROGRAM` says of the program's dependencies (transitively).
struct Linkage {
  OpenMpRuntime runtime = OpenMpRuntime::None;
  bool libaugur = false;  // loads libaugur.so: statically instrumented
  std::string detail;     // ldd's words for a program that is not dynamically linked
};
[[nodiscard]] Linkage inspect_linkage(const std::string& program);

// Which OpenMP runtime the program loads; `detail` gets ldd's words for a program that is not
// dynamically linked.
OpenMpRuntime detect_runtime(const std::string& program, std::string& detail);

// The interposition library that measures a program.
struct Interposition {
  std::string library;  // absolute or as given (--preload)
  bool ompt = false;    // an OMPT tool (libomp), else an LD_PRELOAD library (libgomp)
  [[nodiscard]] std::string name() const { return ompt ? "libaugur_ompt" : "libaugur_preload"; }
  [[nodiscard]] std::string runtime_name() const { return ompt ? "libomp" : "libgomp"; }
};

// The interposition library for `program` (`runtime` and `detail` as detect_runtime says; `preload`: a
// library given with --preload, else the installation's; `preload_option`: the command has --preload) in
// `chosen`; 0, or the exit status after one line on stderr, starting with `command` ("augur run"), saying
// why the program cannot be measured under one.
int choose_interposition(const std::string& command, const std::string& program, OpenMpRuntime runtime,
                         const std::string& detail, const std::string& preload, bool preload_option,
                         Interposition& chosen);

// The variables that load the interposition library: LD_PRELOAD (an LD_PRELOAD already set is kept, after
// ours), or for an OMPT tool OMP_TOOL_LIBRARIES (a list already set is kept, after ours) and OMP_TOOL=enabled.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> interposition_environment(const Interposition& tool);

}  // namespace augur::cli
