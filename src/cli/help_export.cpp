// augur help-export: man pages, completion scripts and the command tree, from the command table
// (help_export.hpp). The build runs it (src/cli/CMakeLists.txt); it is hidden from augur --help.
#include "help_export.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "core/files.hpp"

namespace augur::cli {

namespace {

void walk(const CLI::App& command, const std::string& path,
          const std::function<void(const std::string&, const CLI::App&)>& visit) {
  visit(path, command);
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
    walk(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), visit);
  }
}

struct ExportOptions {
  std::string what;
  std::string folder;
};

int run_export(const ExportOptions& options, const CLI::App& root) {
  if (options.what == "bash" || options.what == "zsh") {
    const std::string script = options.what == "bash" ? bash_completion(root) : zsh_completion(root);
    if (options.folder.empty()) {
      std::fputs(script.c_str(), stdout);
    } else {
      core::write_file_atomically(options.folder, script);
    }
  } else if (options.what == "tree") {
    for_each_command(root, [](const std::string& path, const CLI::App&) {
      if (!path.empty()) std::printf("%s\n", path.c_str());
    });
  } else {  // man
    if (options.folder.empty()) throw std::runtime_error("man needs the folder to write the pages in");
    std::filesystem::create_directories(options.folder);
    for_each_command(root, [&options](const std::string& path, const CLI::App& command) {
      std::string file = "augur";
      for (const char c : path) file += c == ' ' ? '-' : c;
      if (!path.empty()) file.insert(5, "-");
      core::write_file_atomically((std::filesystem::path(options.folder) / (file + ".1")).string(), man_page(command, path));
    });
  }
  return 0;
}

}  // namespace

void for_each_command(const CLI::App& root, const std::function<void(const std::string&, const CLI::App&)>& visit) {
  walk(root, "", visit);
}

Runner declare_help_export(CLI::App& command, const CLI::App& root) {
  auto options = std::make_shared<ExportOptions>();
  command.group("");  // hidden: a tool of the build, not a command of the user
  command.add_option("what", options->what, "man, bash, zsh or tree")->required()->check(CLI::IsMember({"man", "bash", "zsh", "tree"}));
  command.add_option("folder", options->folder, "man: the folder to write the pages in; bash, zsh: the file to write (default: standard output)");
  return [options, &root] {
    try {
      return run_export(*options, root);
    } catch (const std::exception& error) {
      return report_error("help-export", error);
    }
  };
}

}  // namespace augur::cli
