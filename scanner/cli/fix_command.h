#pragma once
// `mpsready fix PATH`: the mechanical rewrites of the rules' "autofix" data, as a unified diff
// (default) or written back (--write). Registered on the command line by main.cpp.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.h"

namespace mpsready {

struct FixCommandOptions {
  std::string path;
  std::string format = "text";  // text (the diff on stdout, the summary on stderr) or json
  bool write = false;
  bool include_guarded = false;
  bool all = false;  // every site, not only those that decide the verdict
  std::vector<std::string> components;  // --component: only these components' sites
  std::vector<std::string> excludes;
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  std::string config;
  bool no_config = false;
  bool no_gitignore = false;
  std::string target_pytorch;  // --target-pytorch (default: the configuration's)
  unsigned jobs = 0;
  std::vector<std::string> reports;  // --report FORMAT=FILE: markdown or html, with the fix's outcome
  bool allow_outside_worktree = false;  // --allow-outside-worktree: as in `scan`
  bool quiet = false;  // -q: no summary (the diff, or the JSON, is still written)
};

struct FixCommand {
  CLI::App* app = nullptr;
  FixCommandOptions options;
};

// Adds the subcommand to `app`; `command` must outlive the parse.
void register_fix_command(CLI::App& app, FixCommand& command);
int run_fix_command(const GlobalOptions& global, const FixCommandOptions& options);

}  // namespace mpsready
