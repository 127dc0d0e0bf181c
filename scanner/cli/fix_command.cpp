#include "cli/fix_command.h"

#include <fstream>
#include <iostream>

#include "cli/build_info.h"
#include "cli/config.h"
#include "cli/load_rules.h"
#include "cli/scan_root.h"
#include "fix/fix_engine.h"
#include "fix/fix_summary.h"
#include "report/scan_report.h"

namespace mpsready {

void register_fix_command(CLI::App& app, FixCommand& command) {
  FixCommandOptions& o = command.options;
  CLI::App* cmd = app.add_subcommand("fix", "Rewrite the mechanical CUDA-only sites device-agnostically (a diff, or --write)");
  cmd->add_option("path", o.path, "Repository root or file")->required();
  cmd->add_option("--format", o.format, "text: the diff on stdout, the summary on stderr; json: every edit")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--write", o.write, "Apply the fixes to the files instead of printing the diff");
  cmd->add_flag("--allow-outside-worktree", o.allow_outside_worktree,
                "Fix a root that is a symbolic link, or whose real path leaves its git work tree (refused by default)");
  cmd->add_flag("--include-guarded", o.include_guarded, "Also rewrite sites already behind a CUDA check");
  cmd->add_flag("--all", o.all,
                "Fix every site, not only those that decide the verdict (in the core, on the path a Mac runs "
                "with the defaults, above info)");
  cmd->add_option("--component", o.components,
                  "Fix only this component's sites (a name from the scan's components list; repeatable, or a comma "
                  "list); a component outside the core, such as one example, is fixed as its own core would be")
      ->allow_extra_args(false)
      ->delimiter(',');
  cmd->add_option("--exclude", o.excludes, "Skip paths matching GLOB (gitignore syntax; repeatable)");
  // One value per occurrence or a comma list, as `scan` takes them.
  cmd->add_option("--select", o.select, "Apply only these rule ids (a trailing * is a prefix, ALL every rule; repeatable, or a comma list)")
      ->allow_extra_args(false)
      ->delimiter(',');
  cmd->add_option("--ignore", o.ignore, "Do not apply these rule ids (repeatable, or a comma list)")
      ->allow_extra_args(false)
      ->delimiter(',');
  cmd->add_flag("-q,--quiet", o.quiet, "No summary of what was fixed and left (the diff or the JSON is still written)");
  cmd->add_option("--config", o.config, "Configuration file (default: ROOT/.mpsready.json when present)");
  cmd->add_flag("--no-config", o.no_config, "Do not read ROOT/.mpsready.json");
  cmd->add_flag("--no-gitignore", o.no_gitignore, "Do not honour .gitignore files");
  cmd->add_option("--target-pytorch", o.target_pytorch,
                  "PyTorch version the fixed code must run on (default: the configuration's target_pytorch)");
  cmd->add_option("-j,--jobs", o.jobs, "Worker threads (default: one per core)");
  cmd->add_option("--report", o.reports,
                  "Also write the scan's report with the fix's outcome: markdown=FILE (a PR comment) or html=FILE "
                  "(the migration plan); repeatable")
      ->check([](const std::string& value) {
        const size_t eq = value.find('=');
        const std::string format = value.substr(0, eq);
        if (eq == std::string::npos || eq + 1 == value.size() || (format != "markdown" && format != "html"))
          return std::string("expected markdown=FILE or html=FILE");
        return std::string();
      });
  command.app = cmd;
}

int run_fix_command(const GlobalOptions& global, const FixCommandOptions& options) {
  std::error_code ec;
  if (!std::filesystem::exists(options.path, ec)) {
    std::cerr << "mpsready: path not found: " << options.path << "\n(give the root directory of the repository, or one file in it)\n";
    return 2;
  }
  if (!std::filesystem::is_directory(options.path, ec) && !std::filesystem::is_regular_file(options.path, ec)) {
    std::cerr << "mpsready: not a directory or a regular file: " << options.path
              << "\n(give the root directory of the repository, or one file in it)\n";
    return 2;
  }
  if (const std::string problem = scan_root_problem(options.path); !problem.empty() && !options.allow_outside_worktree) {
    std::cerr << "mpsready: " << problem << "\n(fix the directory it leads to, or pass --allow-outside-worktree)\n";
    return 2;
  }
  ProjectConfig config;
  if (!options.no_config || !options.config.empty()) {
    ConfigResult loaded_config = load_project_config(options.path, options.config);
    if (!loaded_config.config) {
      std::cerr << "mpsready: " << loaded_config.error << "\n(fix the file, or run with --no-config to ignore it)\n";
      return 2;
    }
    config = std::move(*loaded_config.config);
    if (!options.quiet)
      for (const std::string& line : config.deprecations) std::cerr << "mpsready: " << config.source << ": " << line << "\n";
  }
  // As in `scan`: the command line adds excludes and ignores, and replaces the selection.
  std::vector<std::string> excludes = config.excludes;
  excludes.insert(excludes.end(), options.excludes.begin(), options.excludes.end());
  const std::vector<std::string>& select = options.select.empty() ? config.select : options.select;
  std::vector<std::string> ignore = config.ignore;
  ignore.insert(ignore.end(), options.ignore.begin(), options.ignore.end());
  auto loaded = load_rules(global, select, ignore, "", {}, kDefaultClangTimeLimit, config.impacts);
  if (!loaded) return 2;

  FixOptions fix;
  fix.scan.walk.excludes = excludes;
  fix.scan.walk.use_gitignore = !options.no_gitignore;
  fix.scan.jobs = options.jobs;
  fix.assess.model.roles = config.roles;
  fix.assess.model.components = config.components;
  fix.edits.include_guarded = options.include_guarded;
  fix.edits.all = options.all;
  fix.edits.components.insert(options.components.begin(), options.components.end());
  fix.edits.target_pytorch = options.target_pytorch.empty() ? config.target_pytorch : options.target_pytorch;

  const FixOutcome outcome = run_fix(*loaded->pipeline, *loaded->rules, options.path, fix);
  if (!outcome.ok) {
    std::cerr << "mpsready: " << outcome.error << "\n";
    return 2;
  }
  // A name that is no component is a mistake the user must see, not an empty fix.
  for (const std::string& name : options.components) {
    bool known = false;
    std::string names;
    for (const ComponentSummary& c : outcome.scanned.summary.components) {
      known = known || c.name == name;
      names += (names.empty() ? "" : ", ") + c.name;
    }
    if (!known) {
      std::cerr << "mpsready: no component named `" << name << "` (components: " << names << ")\n";
      return 2;
    }
  }
  if (options.write) {
    std::string error;
    if (!write_fixes(options.path, outcome, error, options.allow_outside_worktree)) {
      std::cerr << "mpsready: " << error << "\n";
      return 2;
    }
  }
  for (const std::string& report : options.reports) {
    const size_t eq = report.find('=');
    const std::string format = report.substr(0, eq), file = report.substr(eq + 1);
    ReportContext ctx{options.path, MPSREADY_VERSION, &loaded->rules->rules()};
  ctx.name = root_folder_name(options.path);
  ctx.commit = build_commit();
  ctx.rules_hash = rules_hash(loaded->rules->dir());
    ctx.target_pytorch = fix.edits.target_pytorch;
    ctx.fix = fix_digest(outcome);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (format == "markdown") write_markdown_report(out, outcome.scanned, ctx);
    else write_html_report(out, outcome.scanned, ctx);
    if (!out) {
      std::cerr << "mpsready: cannot write " << file << "\n";
      return 2;
    }
  }
  if (options.format == "json") {
    write_fix_json(std::cout, outcome, fix.edits.target_pytorch, options.write);
    return 0;
  }
  // The diff alone on stdout, so that it can go straight to `git apply`.
  if (!options.write) std::cout << fix_diff(outcome);
  if (!options.quiet) write_fix_summary_text(options.write ? std::cout : std::cerr, outcome);
  return 0;
}

}  // namespace mpsready
