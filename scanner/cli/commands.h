#pragma once
// The subcommands of the mpsready executable. Each returns the process exit code:
// 0 ran, 1 the --fail-on threshold was reached (or a check failed), 2 usage or input error.
#include <string>
#include <vector>

namespace mpsready {

struct GlobalOptions {
  std::string rules_dir;  // --rules
  const char* argv0 = nullptr;
};

struct ScanCommandOptions {
  std::string path;                // the root scanned (set from `paths` by run_scan_command)
  std::vector<std::string> paths;  // as given (default "."); several: parts of the repository in "."
  std::string format = "text";     // text, concise, github, json, sarif, markdown, html
  std::string output;  // -o, "" or "-" = stdout
  std::string color = "auto";  // --color auto|always|never (auto: a terminal, and NO_COLOR unset)
  bool all_findings = false;   // --all: the text report lists every finding, however many
  bool statistics = false;     // --statistics: counts per rule instead of the findings
  std::vector<std::string> reports;  // --report FORMAT=FILE: more reports of the same scan
  std::string link_base;             // --link-base URL ("" = from GitHub Actions' environment, or relative)
  std::string fail_on;  // "", partial, stay-on-linux
  bool exit_zero = false;  // --exit-zero: no --fail-on or configured fail_on gates the exit code
  std::vector<std::string> excludes;
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  // Added to the selection in force (the configuration's `select`, or --select): ruff's
  // --extend-select. With no selection in force every rule runs already.
  std::vector<std::string> extend_select;
  unsigned jobs = 0;
  unsigned long long max_file_size = 16ull << 20;
  bool no_gitignore = false;
  std::string compile_commands;  // --compile-commands
  std::string config;            // --config FILE ("" = ROOT/.mpsready.json when present)
  bool no_config = false;        // --no-config
  std::string write_baseline;    // --write-baseline FILE
  std::string baseline;          // --baseline FILE
  std::string diff;              // --diff BASE (a git revision)
  bool allow_incomplete = false;  // --allow-incomplete: --fail-on passes a scan that could not read some files
  bool allow_config_change = false;  // --allow-config-change: --fail-on passes a change that edits the scan's inputs
  std::string cache_dir;         // --cache DIR ("" = no cache)
  bool quiet = false;            // --quiet: no progress line, no cache notes
  double clang_time_limit = 10;  // --clang-time-limit SECONDS (per C++/CUDA file)
  // --file-time-limit SECONDS: a file's front ends may take this plus 20 s per MiB of the file
  // (engine/in_flight.h, file_budget_s), then it is left out (0: none).
  double file_time_limit = 30;
  bool in_process = false;       // --in-process: no supervising parent (a front-end crash ends the scan)
  std::string target_pytorch;                 // --target-pytorch (op coverage and the fixes' target; default: config)
  std::string torch_version;                  // --torch-version: the older name of --target-pytorch
  std::vector<std::string> native_functions;  // --native-functions PATH or VERSION=PATH (repeatable)
  bool allow_outside_worktree = false;        // --allow-outside-worktree: follow a root that is a link or leaves the work tree
};

int run_scan_command(const GlobalOptions& global, const ScanCommandOptions& options);
int run_rules_list(const GlobalOptions& global, const std::string& format);
int run_rules_explain(const GlobalOptions& global, const std::string& id);
int run_rules_test(const GlobalOptions& global, const std::vector<std::string>& ids);
// `mpsready init [DIR]`: writes a commented [tool.mpsready] table (README "Configuration").
int run_init_command(const std::string& dir, bool to_stdout);

}  // namespace mpsready
