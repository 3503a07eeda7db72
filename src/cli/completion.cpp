// The bash and zsh completion scripts, from the command table (help_export.hpp).
#include <CLI/CLI.hpp>

#include "help_export.hpp"

namespace augur::cli {

namespace {

struct Level {
  std::string path;                   // "" for augur itself, "couple measure"
  std::vector<std::string> commands;  // its visible subcommands
  std::vector<std::string> options;   // its flags: "--formula", "-p"
};

std::vector<Level> levels(const CLI::App& root) {
  std::vector<Level> all;
  for_each_command(root, [&all](const std::string& path, const CLI::App& command) {
    Level level{path, {}, {}};
    for (const CLI::App* sub : command.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
      level.commands.push_back(sub->get_name());
    }
    for (const CLI::Option* option : command.get_options([](const CLI::Option* o) { return o->nonpositional(); })) {
      for (const std::string& name : option->get_snames()) level.options.push_back("-" + name);
      for (const std::string& name : option->get_lnames()) level.options.push_back("--" + name);
    }
    all.push_back(std::move(level));
  });
  return all;
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

// The loop both shells share in spirit: the command path is the words that name commands, options skipped.
std::string known_paths(const std::vector<Level>& all) {
  std::string cases;
  for (const Level& level : all) {
    if (!level.path.empty()) cases += (cases.empty() ? "" : "|") + std::string("\" ") + level.path + "\"";
  }
  return cases;
}

}  // namespace

std::string bash_completion(const CLI::App& root) {
  const std::vector<Level> all = levels(root);
  std::string script =
      "# bash completion for augur, generated from its command table by 'augur help-export bash'.\n"
      "# Source it, or install it as share/bash-completion/completions/augur.\n"
      "_augur() {\n"
      "  local current=${COMP_WORDS[COMP_CWORD]} command_path='' word i commands='' options=''\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    word=${COMP_WORDS[i]}\n"
      "    if [[ $word == -- ]]; then COMPREPLY=($(compgen -f -- \"$current\")); return; fi\n"
      "    [[ $word == -* ]] && continue\n"
      "    case \"$command_path $word\" in\n"
      "      " + known_paths(all) + ") command_path=\"$command_path $word\" ;;\n"
      "    esac\n"
      "  done\n"
      "  case \"$command_path\" in\n";
  for (const Level& level : all) {
    script += "    \"" + (level.path.empty() ? "" : " " + level.path) + "\") commands='" + joined(level.commands) +
              "'; options='" + joined(level.options) + "' ;;\n";
  }
  script +=
      "  esac\n"
      "  if [[ $current == -* ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$options\" -- \"$current\"))\n"
      "  elif [[ -n $commands ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$commands\" -- \"$current\"))\n"
      "  else\n"
      "    COMPREPLY=($(compgen -f -- \"$current\"))\n"
      "  fi\n"
      "}\n"
      "complete -o filenames -F _augur augur\n";
  return script;
}

std::string zsh_completion(const CLI::App& root) {
  const std::vector<Level> all = levels(root);
  std::string script =
      "#compdef augur\n"
      "# zsh completion for augur, generated from its command table by 'augur help-export zsh'.\n"
      "# Install it as _augur in a folder of $fpath (share/zsh/site-functions).\n"
      "_augur() {\n"
      "  local command_path='' word i\n"
      "  local -a commands options\n"
      "  for ((i = 2; i < CURRENT; i++)); do\n"
      "    word=${words[i]}\n"
      "    if [[ $word == -- ]]; then _files; return; fi\n"
      "    [[ $word == -* ]] && continue\n"
      "    case \"$command_path $word\" in\n"
      "      (" + known_paths(all) + ") command_path=\"$command_path $word\" ;;\n"
      "    esac\n"
      "  done\n"
      "  case \"$command_path\" in\n";
  for (const Level& level : all) {
    script += "    (\"" + (level.path.empty() ? "" : " " + level.path) + "\") commands=(" + joined(level.commands) +
              "); options=(" + joined(level.options) + ") ;;\n";
  }
  script +=
      "  esac\n"
      "  if [[ $PREFIX == -* ]]; then\n"
      "    compadd -a options\n"
      "  elif (( ${#commands} )); then\n"
      "    compadd -a commands\n"
      "  else\n"
      "    _files\n"
      "  fi\n"
      "}\n"
      "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
      "  _augur \"$@\"\n"
      "else\n"
      "  compdef _augur augur\n"
      "fi\n";
  return script;
}

}  // namespace augur::cli
