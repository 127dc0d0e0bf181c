#include "cli/scan_options.h"

namespace mpsready {

namespace {

// One value per occurrence, or a comma list (`--select py-float64,py-cuda-*`), as ruff takes them.
CLI::Option* list_option(CLI::App& cmd, const std::string& name, std::vector<std::string>& into, const std::string& help) {
  return cmd.add_option(name, into, help)
      ->expected(1)
      ->allow_extra_args(false)
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace

const char* program_help_footer() {
  return R"(Examples:
  mpsready scan                                  scan the current directory, print findings and the verdict
  mpsready scan path/to/repo --format json -o report.json
  mpsready scan --select py-float64,py-cuda-* --exclude 'legacy/**' .
  mpsready scan --diff origin/main --fail-on partial     findings on changed lines; gate CI
  mpsready scan --format github                  GitHub Actions annotations (no SARIF needed)
  mpsready scan --format concise --statistics    one line per finding / counts per rule
  mpsready init                                  write a commented [tool.mpsready] into pyproject.toml
  mpsready rules explain py-tensor-dot-cuda

Configuration: ROOT/.mpsready.json, else [tool.mpsready] in ROOT/pyproject.toml (same keys);
  .mpsready.json wins when both exist. Command-line options add to it or replace it.
Colour: on a terminal unless NO_COLOR is set; --color always|never overrides.

Exit codes:
  0  the scan ran (and the verdict is below --fail-on, if given)
  1  the verdict reached --fail-on (or `rules test` found a failing fixture)
  2  usage or input error: bad option, missing path, invalid configuration or rules
)";
}

CLI::App* add_scan_command(CLI::App& app, ScanCommandOptions& scan) {
  CLI::App* cmd = app.add_subcommand("scan", "Scan a repository (or one file) and give a verdict");
  cmd->footer(program_help_footer());
  cmd->add_option("paths", scan.paths,
                  "Repository root or file (default: .); several paths are parts of the repository in the "
                  "current directory, and only their findings are reported");
  // Values in any case (`--format=SARIF`), written back in the canonical one; `--output-format`
  // is ruff's name for the same option.
  cmd->add_option("--format,--output-format", scan.format, "Output format")
      ->transform(CLI::IsMember({"text", "concise", "github", "json", "sarif", "markdown", "html"}, CLI::ignore_case))
      ->capture_default_str();
  cmd->add_option("-o,--output", scan.output, "Write the report to FILE instead of stdout (- is stdout)");
  cmd->add_option("--report", scan.reports,
                  "Also write the same scan as FORMAT to FILE (FORMAT=FILE, repeatable: sarif=mpsready.sarif)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--link-base", scan.link_base,
                  "URL prefix that makes the Markdown comment's paths permalinks (default in GitHub Actions: "
                  "<server>/<repo>/blob/<sha>/)");
  cmd->add_option("--fail-on", scan.fail_on, "Exit 1 when the verdict is at least this")
      ->transform(CLI::IsMember({"partial", "stay-on-linux"}, CLI::ignore_case));
  cmd->add_flag("--exit-zero", scan.exit_zero,
                "Exit 0 whatever the verdict, even with --fail-on or a configured fail_on (the report is unchanged)");
  list_option(*cmd, "--exclude", scan.excludes, "Skip paths matching GLOB (gitignore syntax; repeatable, or a comma list)");
  list_option(*cmd, "--select", scan.select,
              "Run only these rule ids, replacing the configuration's select (a trailing * is a prefix, ALL "
              "is every rule; repeatable, or a comma list)");
  list_option(*cmd, "--extend-select", scan.extend_select,
              "Add these rule ids to the selection in force (the configuration's select or --select)");
  list_option(*cmd, "--ignore", scan.ignore,
              "Do not run these rule ids, besides the configuration's ignore (repeatable, or a comma list)");
  // ruff's name for the same addition: --ignore already adds to the configuration's list.
  list_option(*cmd, "--extend-ignore", scan.ignore, "The same as --ignore");
  cmd->add_option("--color", scan.color, "Colour the text report: auto (a terminal, NO_COLOR unset), always, never")
      ->transform(CLI::IsMember({"auto", "always", "never"}, CLI::ignore_case))
      ->capture_default_str();
  cmd->add_flag("--all", scan.all_findings,
                "List every finding in the text report (more than 50: only those that decide the verdict are listed, "
                "the rest counted per rule)");
  cmd->add_flag("--statistics", scan.statistics, "Print how many findings each rule has, instead of the findings");
  cmd->add_option("-j,--jobs", scan.jobs, "Worker threads (default: one per core)");
  cmd->add_option("--max-file-size", scan.max_file_size, "Skip files larger than this many bytes")->capture_default_str();
  cmd->add_flag("--no-gitignore", scan.no_gitignore, "Do not honour .gitignore files");
  cmd->add_option("--compile-commands", scan.compile_commands,
                  "compile_commands.json for C++/CUDA files (default: ROOT/ or ROOT/build/)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--config", scan.config,
                  "Configuration file, JSON or TOML with [tool.mpsready] (default: ROOT/.mpsready.json, else "
                  "ROOT/pyproject.toml)");
  cmd->add_flag("--no-config", scan.no_config, "Do not read ROOT/.mpsready.json or ROOT/pyproject.toml");
  cmd->add_option("--write-baseline", scan.write_baseline, "Write the findings' fingerprints to FILE");
  cmd->add_option("--baseline", scan.baseline, "Report only findings not in this baseline FILE");
  cmd->add_option("--diff", scan.diff,
                  "Report only the findings a change adds since this git revision: its merge base with HEAD "
                  "(BASE...HEAD the same; BASE..HEAD compares with BASE itself; HEAD in a repository without "
                  "commits: everything tracked); the configuration and baseline are BASE's");
  cmd->add_flag("--allow-incomplete", scan.allow_incomplete,
                "With --fail-on: do not fail because some files could not be read (the report still says so)");
  cmd->add_flag("--allow-config-change", scan.allow_config_change,
                "With --diff and --fail-on: do not fail because the change edits the configuration, the baseline or "
                "what is scanned");
  cmd->add_option("--cache", scan.cache_dir, "Reuse the results of unchanged files from this directory (CI, PR bots)");
  cmd->add_flag("-q,--quiet", scan.quiet, "No progress line or cache notes on stderr");
  cmd->add_option("--clang-time-limit", scan.clang_time_limit,
                  "Seconds Clang may spend on one C++/CUDA file before it is read token by token")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--file-time-limit", scan.file_time_limit,
                  "Seconds one file's analysis may take, plus 20 s per MiB of its size, before the scan leaves it out and lists it "
                  "in errors (0: no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_flag("--in-process", scan.in_process,
                "Scan in this process, without the supervising parent that survives a front-end crash (for debuggers)");
  cmd->add_option("--target-pytorch", scan.target_pytorch,
                  "PyTorch version the code must run on: its op coverage is checked against that bundled op-status table "
                  "(default: the configuration's target-pytorch, else the newest bundled)");
  cmd->add_option("--torch-version", scan.torch_version, "The older name of --target-pytorch");
  // Paths may hold commas: one value per occurrence, no list.
  cmd->add_option("--native-functions", scan.native_functions,
              "native_functions.yaml (or op-status table) to check op coverage against instead of the bundled tables, "
              "PATH or VERSION=PATH (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_flag("--allow-outside-worktree", scan.allow_outside_worktree,
                "Scan a root that is a symbolic link, or whose real path leaves its git work tree (refused by default)");
  return cmd;
}

}  // namespace mpsready
