#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include <stdlib.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/baseline.h"
#include "cli/build_info.h"
#include "cli/config.h"
#include "cli/diff_config.h"
#include "cli/diff_files.h"
#include "cli/diff_findings.h"
#include "cli/diff_suppressions.h"
#include "cli/git_diff.h"
#include "cli/link_base.h"
#include "cli/scan_paths.h"
#include "cli/scan_root.h"
#include "engine/build_identity.h"
#include "engine/cache_key.h"
#include "report/fingerprint.h"
#include "cli/load_rules.h"
#include "cli/scan_supervisor.h"
#include "ops/op_coverage_source.h"
#include "report/scan_report.h"
#include "rules/rule_selector.h"

namespace mpsready {

namespace {

// The configuration's rule ids must name rules; the error names the file and the key.
std::string check_config_rules(const ProjectConfig& config, const RuleSet& rules) {
  std::vector<std::string> ids;
  for (const Rule& r : rules.rules()) ids.push_back(r.id);
  for (const auto& [key, pattern] : config_rule_patterns(config)) {
    // An impact names one rule; the lists may name prefixes.
    if (key.rfind("\"impact.", 0) == 0) {
      if (!rules.find(pattern)) {
        const auto near = closest_rule_id(pattern, ids);
        return config.source + ": " + key + ": no such rule" + (near ? "; did you mean " + *near + "?" : "") +
               " (see `mpsready rules list`)";
      }
    } else if (const std::string error = unknown_selector_error(pattern, ids); !error.empty()) {
      return config.source + ": " + key + ": " + error;
    }
  }
  return "";
}

// --color auto: a terminal, and neither NO_COLOR (no-color.org) nor TERM=dumb.
bool use_color(const std::string& choice, bool to_stdout) {
  if (choice == "always") return true;
  if (choice == "never" || !to_stdout || !isatty(STDOUT_FILENO)) return false;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return !(no_color && *no_color) && !(term && std::string(term) == "dumb");
}

// "this change moves the repository from partial to stay-on-linux: csrc/kernel.cu:12 adds
// cu-cuda-kernel (<its title>)": the new findings at the deciding impact, first three.
std::string change_sentence(Verdict before, Verdict after, const std::vector<Finding>& added,
                            const std::vector<std::string>& was, const RuleSet& rules) {
  std::string text = before == after ? "this change keeps the repository at " + std::string(to_string(after))
                                     : "this change moves the repository from " + std::string(to_string(before)) +
                                           " to " + std::string(to_string(after));
  Impact worst = Impact::info;
  for (const Finding& f : added) worst = std::max(worst, f.impact);
  std::vector<size_t> deciding;
  for (size_t i = 0; i < added.size(); ++i)
    if (added[i].impact == worst) deciding.push_back(i);
  if (added.empty()) return text + "; it adds no finding";
  text += before == after ? "; " : ": ";
  for (size_t i = 0; i < deciding.size() && i < 3; ++i) {
    const Finding& f = added[deciding[i]];
    const Rule* rule = rules.find(f.rule);
    // A site whose line did not change but whose guard, impact or weight did says how it was.
    const std::string& then = was[deciding[i]];
    text += (i ? "; " : "") + location_label(f) + " adds " + f.rule + " (" +
            (rule && !rule->title.empty() ? rule->title : f.message) + (then.empty() ? "" : "; before this change: " + then) + ")";
  }
  if (deciding.size() > 3) text += "; and " + std::to_string(deciding.size() - 3) + " more";
  return text;
}

bool uses_op_coverage(const RuleSet& rules) {
  for (const Rule& r : rules.rules())
    for (const MatcherSpec& m : r.matchers)
      if (m.kind == "python.op_coverage") return true;
  return false;
}

// Everything besides a file's bytes that decides its outcome: a change to any of it starts the
// cache afresh. Over-inclusive where cheap (every file of the rules directory).
std::string cache_key(const ScanCommandOptions& options, const ProjectConfig& config, const RuleSet& rules) {
  // The build ID, not only the version: a rebuilt scanner (a new front end, a new matcher) may
  // read the same bytes differently, and its cache must not answer with the old reading.
  std::string key = "mpsready " MPSREADY_VERSION "\nbuild " + executable_build_id() + "\nrules " +
                    tree_fingerprint(rules.dir()) + "\nenabled";
  for (const Rule& r : rules.rules()) key += " " + r.id;
  key += "\nimpacts";
  for (const auto& [id, impact] : config.impacts) key += " " + id + "=" + std::string(to_string(impact));
  key += "\ntarget-pytorch " + config.target_pytorch + "\ntorch-version " + options.torch_version;
  // The op-coverage files given, by content; the bundled op-status tables are part of the rules
  // directory above. Nothing installed on this machine is consulted.
  key += "\nnative-functions";
  for (const std::string& given : options.native_functions) key += " " + given + ":" + file_fingerprint(given.substr(given.find('=') + 1));
  // The compilation database (given, or the one the C++ front end finds at the root) by content.
  namespace fs = std::filesystem;
  key += "\ncompile-commands";
  if (!options.compile_commands.empty()) {
    key += " " + file_fingerprint(options.compile_commands);
  } else {
    for (const char* candidate : {"compile_commands.json", "build/compile_commands.json"})
      key += " " + file_fingerprint_beneath(options.path, candidate);
  }
  key += "\nclang-time-limit " + std::to_string(options.clang_time_limit);
  key += "\nmax-file-size " + std::to_string(options.max_file_size);
  return key;
}

struct TempTree {
  std::filesystem::path path;
  explicit TempTree(bool create) {
    if (!create) return;
    std::string name = (std::filesystem::temp_directory_path() / "mpsready-base-XXXXXX").string();
    if (mkdtemp(name.data())) path = name;
  }
  ~TempTree() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

void write_report(std::ostream& out, const std::string& format, bool statistics, const ScanResult& result,
                  const ReportContext& ctx) {
  if (statistics) write_statistics_report(out, result, ctx);
  else if (format == "concise") write_concise_report(out, result, ctx);
  else if (format == "github") write_github_report(out, result, ctx);
  else if (format == "json") write_json_report(out, result, ctx);
  else if (format == "sarif") write_sarif_report(out, result, ctx);
  else if (format == "markdown") write_markdown_report(out, result, ctx);
  else if (format == "html") write_html_report(out, result, ctx);
  else write_text_report(out, result, ctx);
}

int run_scan_attempt(const GlobalOptions& global, const ScanCommandOptions& given) {
  ScanCommandOptions options = given;
  ScanPaths paths;
  std::string path_error;
  if (!resolve_scan_paths(options.paths.empty() && !options.path.empty() ? std::vector<std::string>{options.path}
                                                                          : options.paths,
                          !options.diff.empty(), paths, path_error)) {
    std::cerr << "mpsready: " << path_error << "\n(give paths inside the repository, from its root directory)\n";
    return 2;
  }
  options.path = paths.root;
  if (options.output == "-") options.output.clear();
  for (const std::string& extra : options.reports) {
    static const std::set<std::string> kFormats{"text", "concise", "github", "json", "sarif", "markdown", "html"};
    const size_t eq = extra.find('=');
    if (eq == std::string::npos || !kFormats.count(extra.substr(0, eq)) || eq + 1 == extra.size()) {
      std::cerr << "mpsready: --report " << extra << ": give FORMAT=FILE, FORMAT one of text, concise, github, json, "
                << "sarif, markdown, html\n";
      return 2;
    }
  }
  if (options.statistics && options.format != "text" && options.format != "concise") {
    std::cerr << "mpsready: --statistics goes with --format text or concise, not " << options.format << "\n";
    return 2;
  }
  std::error_code ec;
  if (!std::filesystem::exists(options.path, ec)) {
    std::cerr << "mpsready: path not found: " << options.path
              << "\n(give the root directory of the repository to scan, or one file in it)\n";
    return 2;
  }
  // A device, a pipe or a socket is no repository and no source file: a usage error, not a
  // scan with one unreadable file.
  if (!std::filesystem::is_directory(options.path, ec) && !std::filesystem::is_regular_file(options.path, ec)) {
    std::cerr << "mpsready: not a directory or a regular file: " << options.path
              << "\n(give the root directory of the repository to scan, or one file in it)\n";
    return 2;
  }
  if (const std::string problem = scan_root_problem(options.path); !problem.empty() && !options.allow_outside_worktree) {
    std::cerr << "mpsready: " << problem << "\n(scan the directory it leads to, or pass --allow-outside-worktree)\n";
    return 2;
  }
  // Diff mode reads BASE first: its files are scanned for the "before" verdict, and its
  // configuration and baseline are the ones used (the change's own cannot judge it).
  GitDiff diff;
  TempTree base_tree(!options.diff.empty());
  std::vector<ScanInputChange> input_changes;
  if (!options.diff.empty()) {
    std::string error;
    if (base_tree.path.empty()) {
      std::cerr << "mpsready: --diff: cannot create a temporary directory\n";
      return 2;
    }
    if (!read_git_diff(options.path, options.diff, base_tree.path, options.max_file_size, diff, error)) {
      std::cerr << "mpsready: " << error << "\n(--diff needs a git checkout and a revision in it, such as origin/main)\n";
      return 2;
    }
  }
  ProjectConfig config;
  if (!options.no_config || !options.config.empty()) {
    ConfigResult loaded_config =
        options.diff.empty()
            ? load_project_config(options.path, options.config)
            : load_base_config(options.path, base_tree.path, options.diff, options.config, input_changes);
    if (!loaded_config.config) {
      std::cerr << "mpsready: " << loaded_config.error << "\n"
                << (options.config.empty() ? "(fix the file, or scan with --no-config to ignore it)\n"
                                           : "(fix the file, or check the path given to --config)\n");
      return 2;
    }
    config = std::move(*loaded_config.config);
    if (!loaded_config.note.empty() && !options.quiet) std::cerr << "mpsready: " << loaded_config.note << "\n";
    if (!options.quiet)
      for (const std::string& line : config.deprecations) std::cerr << "mpsready: " << config.source << ": " << line << "\n";
  }
  // --target-pytorch replaces the configuration's; --torch-version is its older name.
  if (!options.torch_version.empty() && !options.quiet)
    std::cerr << "mpsready: --torch-version is now --target-pytorch (the old name still works)\n";
  if (!options.target_pytorch.empty()) config.target_pytorch = options.target_pytorch;
  else if (!options.torch_version.empty()) config.target_pytorch = options.torch_version;
  // Command-line options add to the configuration (excludes, ignores) or replace it (select,
  // fail-on).
  std::vector<std::string> excludes = config.excludes;
  excludes.insert(excludes.end(), options.excludes.begin(), options.excludes.end());
  std::vector<std::string> select = options.select.empty() ? config.select : options.select;
  // With no selection in force every rule runs: extending it adds nothing, but each id is still
  // checked (ALL keeps every rule selected).
  if (select.empty() && !options.extend_select.empty()) select.push_back("ALL");
  select.insert(select.end(), options.extend_select.begin(), options.extend_select.end());
  std::vector<std::string> ignore = config.ignore;
  ignore.insert(ignore.end(), options.ignore.begin(), options.ignore.end());
  const std::string fail_on =
      options.exit_zero ? std::string() : options.fail_on.empty() ? config.fail_on : options.fail_on;

  std::vector<std::string> all_rules;  // before --select/--ignore: suppressions may name any rule
  auto loaded = load_rules(global, select, ignore, options.compile_commands,
                           [&](const RuleSet& rules) {
                             for (const Rule& r : rules.rules()) all_rules.push_back(r.id);
                             return check_config_rules(config, rules);
                           },
                           options.clang_time_limit, config.impacts);
  if (!loaded) return 2;

  ScanOptions scan;
  scan.walk.excludes = excludes;
  scan.walk.use_gitignore = !options.no_gitignore;
  scan.walk.max_file_size = options.max_file_size;
  scan.jobs = options.jobs;
  scan.per_file_ignores = config.per_file_ignores;
  AssessOptions assess_options;
  assess_options.model.roles = config.roles;
  assess_options.model.components = config.components;
  // Op coverage: the yaml is found and loaded only if an op-coverage rule meets a call to look up.
  OpCoverageSettings op_coverage{options.native_functions,
                                 config.target_pytorch};
  OpCoverageSource::shared().configure(op_coverage);
  // The --diff base tree below is scanned without these: it lives in a temporary directory.
  ScanOptions main_scan = scan;
  main_scan.known_rules = all_rules;  // unknown and unused suppressions are reported for this tree
  if (!options.cache_dir.empty()) {
    main_scan.cache_dir = options.cache_dir;
    main_scan.cache_key = cache_key(options, config, *loaded->rules);
  }
  main_scan.progress = !options.quiet && isatty(STDERR_FILENO);
  std::string error;
  // The baseline and --diff's BASE verdict are read before the scan: the funnel that leaves
  // findings out (assess/verdict_funnel.h) runs inside it, before the one verdict.
  std::set<std::string> known;
  if (!options.baseline.empty()) {
    const std::string baseline_file =
        options.diff.empty() ? options.baseline : base_baseline(options.path, base_tree.path, options.baseline, input_changes);
    if (!baseline_file.empty() && !read_baseline(baseline_file, known, error)) {
      std::cerr << "mpsready: " << error << "\n(write a baseline first with --write-baseline FILE)\n";
      return 2;
    }
  }
  // BASE's tree, scanned like the working tree (never checked out, never run), with the same
  // rules and options.
  std::optional<ScanResult> before;
  std::optional<DiffFiles> diff_files;
  if (!options.diff.empty()) {
    before = loaded->pipeline->scan(base_tree.path, scan, assess_options);
    diff_files.emplace(base_tree.path, options.path, diff, options.max_file_size);
  }
  std::vector<Finding> added;  // --diff: the findings the change adds, with how each was at BASE
  std::vector<std::string> added_was;
  bool baseline_written = true;
  assess_options.funnel = [&](const ScanResult& assessed) {
    FunnelDecision decision;
    // The baseline written holds the whole scan, whatever this scan leaves out of its report.
    if (!options.write_baseline.empty())
      baseline_written = write_baseline(options.write_baseline, assessed, MPSREADY_VERSION, error);
    const std::vector<Finding>& findings = assessed.findings;
    if (options.baseline.empty() && options.diff.empty() && paths.parts.empty()) return decision;
    decision.removed.assign(findings.size(), std::nullopt);
    const auto remove = [&](size_t i, Removal why) {
      if (!decision.removed[i]) decision.removed[i] = why;
    };
    // Both filters match on the fingerprints of the whole scan, so using them together gives the
    // same answer as using either alone.
    if (!options.baseline.empty()) {
      const std::vector<std::string> prints = finding_fingerprints(findings);
      for (size_t i = 0; i < prints.size(); ++i)
        if (known.count(prints[i])) remove(i, Removal::baseline);
    }
    if (before) {
      decision.base_verdict = before->summary.verdict;
      // The findings the change adds, by content: new sites, and old ones whose impact, guard or
      // weight changed.
      std::vector<bool> is_added(findings.size(), false);
      std::map<size_t, std::string> was;
      for (const AddedFinding& a : added_findings(before->findings, findings, *diff_files)) {
        is_added[a.index] = true;
        if (!a.was.empty()) was[a.index] = a.was;
      }
      for (size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        // A file named on the command line that the diff does not touch is reported whole: under
        // `pre-commit run --all-files` the hook is given every file, and scans what it is given.
        const bool named_unchanged = paths.files.count(f.path) && !diff.changed_files.count(f.path);
        if (!named_unchanged && !is_added[i]) {
          remove(i, Removal::outside_diff);
          continue;
        }
        added.push_back(f);
        added_was.push_back(was.count(i) ? was[i] : "");
      }
    }
    if (!paths.parts.empty())
      for (size_t i = 0; i < findings.size(); ++i)
        if (!in_scan_parts(paths, findings[i].path)) remove(i, Removal::outside_paths);
    return decision;
  };
  // With a cache, files read from it never ask for the yaml; load it anyway so that the note about
  // a missing or unreadable yaml is the same in a cold and a warm scan. It loads beside the scan
  // (the table is behind a mutex): a warm scan would otherwise wait for it at the end.
  std::thread op_table;
  if (!options.cache_dir.empty() && uses_op_coverage(*loaded->rules))
    op_table = std::thread([rules_dir = loaded->rules->dir()] {
      try {
        OpCoverageSource::shared().table(rules_dir);
      } catch (const std::exception&) {  // a worker asking for the table meets the same problem
      }
    });
  ScanResult result = loaded->pipeline->scan(options.path, main_scan, assess_options);
  if (op_table.joinable()) op_table.join();
  if (!options.quiet)
    for (const std::string& note : result.cache_notes) std::cerr << "mpsready: " << note << "\n";
  // An exclude that left nothing out is most often written from the wrong place (`./train.py`,
  // an absolute path): say so instead of scanning the file silently.
  if (!options.quiet)
    for (const std::string& glob : result.unmatched_excludes)
      std::cerr << "mpsready: exclude \"" << glob
                << "\" left out nothing: no file the scan would read matches it (gitignore syntax, relative to the "
                   "scanned root: `legacy/**`, `train.py`, not `./train.py` or an absolute path)\n";
  if (const std::string note = OpCoverageSource::shared().note(); !note.empty()) {
    result.skipped.push_back({".", note});
    sort_notes(result.skipped);
  }
  if (!baseline_written) {
    std::cerr << "mpsready: " << error << "\n(check that the directory of --write-baseline exists and is writable)\n";
    return 2;
  }

  ReportContext ctx{options.path, MPSREADY_VERSION, &loaded->rules->rules()};
  ctx.name = root_folder_name(options.path);
  ctx.all_findings = options.all_findings;
  ctx.path_prefix = workspace_path_prefix(options.path);
  ctx.commit = build_commit();
  ctx.rules_hash = rules_hash(loaded->rules->dir());
  ctx.link_base = resolve_link_base(options.link_base, options.path);
  ctx.target_pytorch = config.target_pytorch;
  if (!options.baseline.empty()) {
    const auto it = result.removed.find(std::string(to_string(Removal::baseline)));
    ctx.baselined = it == result.removed.end() ? 0 : it->second;
  }
  if (before) {
    DiffContext d;
    d.base = options.diff;
    d.base_commit = diff.base_commit;
    d.before = before->summary.verdict;
    d.after = result.tree_verdict;
    d.change = change_sentence(d.before, d.after, added, added_was, *loaded->rules);
    // A file BASE scanned that is still there but no longer scanned (a .gitignore entry, grown past
    // the size limit, made a link or unreadable) hides its findings: an edit of the scan's inputs.
    for (const std::string& path : no_longer_scanned(*before, result, options.path)) input_changes.push_back({path, "no longer scanned"});
    for (const ScanInputChange& c : input_changes) d.config_changes.emplace_back(c.file, c.what);
    const std::vector<std::string> changed_files(diff.changed_files.begin(), diff.changed_files.end());
    const std::set<std::string> scanned(result.files.begin(), result.files.end());
    for (const AddedSuppression& s : added_suppressions(changed_files, *diff_files, scanned, all_rules))
      d.suppressions_added.push_back({s.path, s.cell, s.line, s.rules, s.file_level, s.every_rule});
    ctx.diff = d;
  }
  if (!paths.parts.empty()) {
    std::vector<SuppressionNote> notes;
    for (SuppressionNote& n : result.suppression_notes)
      if (in_scan_parts(paths, n.path)) notes.push_back(std::move(n));
    result.suppression_notes = std::move(notes);
  }
  // The main report, then every --report FORMAT=FILE from the same scan (a CI job's SARIF, PR
  // comment and annotations without scanning three times).
  std::vector<std::pair<std::string, std::string>> outputs{{options.format, options.output}};
  for (const std::string& extra : options.reports) outputs.emplace_back(extra.substr(0, extra.find('=')), extra.substr(extra.find('=') + 1));
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto& [format, output] = outputs[i];
    std::ofstream file;
    if (!output.empty()) {
      file.open(output, std::ios::binary | std::ios::trunc);
      if (!file) {
        std::cerr << "mpsready: cannot write the report to " << output << ": " << std::strerror(errno)
                  << "\n(check that its directory exists and is writable)\n";
        return 2;
      }
    }
    std::ostream& out = output.empty() ? std::cout : file;
    ctx.color = use_color(options.color, output.empty());
    write_report(out, format, i == 0 && options.statistics, result, ctx);
    out.flush();
  }

  if (!fail_on.empty()) {
    const Verdict threshold = *parse_verdict(fail_on);
    if (static_cast<int>(result.summary.verdict) >= static_cast<int>(threshold)) return 1;
    // A verdict below the gate on a scan that left files unread is not a pass: what was not read
    // may hold what would trip it.
    if (const std::string incomplete = incomplete_sentence(result); !incomplete.empty() && !options.allow_incomplete) {
      std::cerr << "mpsready: --fail-on: " << incomplete << " (listed as errors in the report); give --allow-incomplete "
                << "to accept the verdict of the rest\n";
      return 1;
    }
    // A gate that the change could have loosened itself does not pass it.
    if (ctx.diff && !ctx.diff->config_changes.empty() && !options.allow_config_change) {
      const auto& [file, what] = ctx.diff->config_changes.front();
      std::cerr << "mpsready: --fail-on: this change edits " << file << " (" << what << "); it was scanned with "
                << options.diff << "'s configuration and baseline instead (give --allow-config-change to accept)\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace

int run_scan_command(const GlobalOptions& global, const ScanCommandOptions& options) {
  const auto attempt = [&] { return run_scan_attempt(global, options); };
  if (options.in_process) return attempt();
  return run_supervised(attempt, options.file_time_limit);
}

}  // namespace mpsready
