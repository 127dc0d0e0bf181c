// mpsready: can this PyTorch repository leave Linux/CUDA for Apple's MPS backend?
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/runtime_forward.h"
#if defined(MPSREADY_WITH_RUNTIME)
#include "cli/audit_command.h"
#include "cli/smoke_command.h"
#endif

int main(int argc, char** argv) {
  using namespace mpsready;
#if !defined(MPSREADY_WITH_RUNTIME)
  // Model commands need LibTorch, which only mpsready-runtime loads (runtime_forward.h).
  if (auto sub = runtime_subcommand(argc, argv)) return forward_to_runtime(argc, argv, *sub);
#endif
  CLI::App app{"mpsready: tells whether a PyTorch repository can move from CUDA to Apple's MPS"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("mpsready ") + MPSREADY_VERSION);
  GlobalOptions global;
  global.argv0 = argc > 0 ? argv[0] : nullptr;
  app.add_option("--rules", global.rules_dir, "Directory of rule definitions (default: the bundled rules)");

  // Global options are also accepted after the subcommand (`mpsready scan . --rules DIR`).
  app.fallthrough();
  ScanCommandOptions scan;
  CLI::App* scan_cmd = app.add_subcommand("scan", "Scan a repository (or one file) and give a verdict");
  scan_cmd->add_option("path", scan.path, "Repository root or file")->required();
  scan_cmd->add_option("--format", scan.format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "markdown", "html"}));
  scan_cmd->add_option("-o,--output", scan.output, "Write the report to FILE instead of stdout");
  scan_cmd->add_option("--fail-on", scan.fail_on, "Exit 1 when the verdict is at least this")
      ->check(CLI::IsMember({"partial", "stay-on-linux"}));
  scan_cmd->add_option("--exclude", scan.excludes, "Skip paths matching GLOB (gitignore syntax; repeatable)");
  scan_cmd->add_option("--select", scan.select, "Run only these rule ids (a trailing * is a prefix; repeatable)");
  scan_cmd->add_option("--ignore", scan.ignore, "Do not run these rule ids (repeatable)");
  scan_cmd->add_option("-j,--jobs", scan.jobs, "Worker threads (default: one per core)");
  scan_cmd->add_option("--max-file-size", scan.max_file_size, "Skip files larger than this many bytes");
  scan_cmd->add_flag("--no-gitignore", scan.no_gitignore, "Do not honour .gitignore files");
  scan_cmd->add_option("--compile-commands", scan.compile_commands,
                       "compile_commands.json for C++/CUDA files (default: ROOT/ or ROOT/build/)")
      ->check(CLI::ExistingFile);
  scan_cmd->add_option("--config", scan.config, "Configuration file (default: ROOT/.mpsready.json when present)");
  scan_cmd->add_flag("--no-config", scan.no_config, "Do not read ROOT/.mpsready.json");
  scan_cmd->add_option("--write-baseline", scan.write_baseline, "Write the findings' fingerprints to FILE");
  scan_cmd->add_option("--baseline", scan.baseline, "Report only findings not in this baseline FILE");
  scan_cmd->add_option("--diff", scan.diff, "Report only findings on lines added or changed since this git revision");
  scan_cmd->add_option("--cache", scan.cache_dir, "Reuse the results of unchanged files from this directory (CI, PR bots)");
  scan_cmd->add_flag("-q,--quiet", scan.quiet, "No progress line or cache notes on stderr");
  scan_cmd->add_option("--clang-time-limit", scan.clang_time_limit,
                       "Seconds Clang may spend on one C++/CUDA file before it is read token by token (default 10)")
      ->check(CLI::NonNegativeNumber);
  scan_cmd->add_option("--torch-version", scan.torch_version,
                       "PyTorch version whose op coverage is checked: a bundled op-status table (default: target_pytorch, else the newest bundled)");
  scan_cmd->add_option("--native-functions", scan.native_functions,
                       "native_functions.yaml (or op-status table) to check op coverage against instead of the bundled tables, PATH or VERSION=PATH (repeatable)");

  CLI::App* rules_cmd = app.add_subcommand("rules", "List, explain or test the rules");
  rules_cmd->require_subcommand(1);
  rules_cmd->fallthrough();
  std::string list_format = "text";
  CLI::App* list_cmd = rules_cmd->add_subcommand("list", "List every rule");
  list_cmd->add_option("--format", list_format, "Output format")->check(CLI::IsMember({"text", "json"}));
  std::string explain_id;
  CLI::App* explain_cmd = rules_cmd->add_subcommand("explain", "Show a rule's documentation");
  explain_cmd->add_option("id", explain_id, "Rule id")->required();
  std::vector<std::string> test_ids;
  CLI::App* test_cmd = rules_cmd->add_subcommand("test", "Check rules against their annotated fixtures");
  test_cmd->add_option("ids", test_ids, "Rule ids (default: all)");

#if defined(MPSREADY_WITH_RUNTIME)
  // The LibTorch commands (README "Runtime smoke", "Op coverage"): the smoke run, alone and next
  // to the scan, and a model's op list.
  SmokeCommandOptions smoke;
  CLI::App* smoke_cmd = app.add_subcommand(kRuntimeSubcommands[0].name, kRuntimeSubcommands[0].description);
  add_smoke_options(*smoke_cmd, smoke, /*model_positional=*/true);
  AuditCommandOptions audit;
  CLI::App* audit_cmd = app.add_subcommand(kRuntimeSubcommands[1].name, kRuntimeSubcommands[1].description);
  audit_cmd->add_option("path", audit.scan.path, "Repository root")->required();
  audit_cmd->add_option("--exclude", audit.scan.excludes, "Skip paths matching GLOB in the scan (repeatable)");
  audit_cmd->add_option("--config", audit.scan.config, "Configuration file of the scan");
  add_smoke_options(*audit_cmd, audit.smoke, /*model_positional=*/false);
  OpsCommandOptions ops;
  CLI::App* ops_cmd = app.add_subcommand(kRuntimeSubcommands[2].name, kRuntimeSubcommands[2].description);
  ops_cmd->add_option("model", ops.model, "TorchScript file (torch.jit.save)")->required();
  ops_cmd->add_option("--format", ops.format, "Output format")->check(CLI::IsMember({"text", "json"}));
  ops_cmd->add_option("-o,--output", ops.output, "Write the answer to FILE instead of stdout");
  ops_cmd->add_option("--torch-version", ops.torch_version, "PyTorch version to answer for (default: the newest bundled op-status table)");
  ops_cmd->add_option("--native-functions", ops.native_functions,
                      "native_functions.yaml to read instead of the bundled tables, PATH or VERSION=PATH (repeatable: answers from which version on)");
  ops_cmd->add_option("--input", ops.input_specs,
                      "Input SHAPE:DTYPE (repeatable): run the model once on the CPU and trace every op it dispatches");
  ops_cmd->add_option("--inputs", ops.inputs_file,
                      "Inputs from FILE (a tensor, or a tuple or list of tensors, saved with torch.save): trace what runs");
  ops_cmd->add_option("--seed", ops.seed, "Seed of generated inputs");
#else
  // Listed for --help only: their command lines went to mpsready-runtime above.
  for (const RuntimeSubcommand& sub : kRuntimeSubcommands) app.add_subcommand(sub.name, sub.description)->allow_extras();
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "mpsready: " << e.what() << "\n(run `mpsready --help` for usage)\n";
    return 2;
  }

  if (*scan_cmd) return run_scan_command(global, scan);
  if (*list_cmd) return run_rules_list(global, list_format);
  if (*explain_cmd) return run_rules_explain(global, explain_id);
  if (*test_cmd) return run_rules_test(global, test_ids);
#if defined(MPSREADY_WITH_RUNTIME)
  if (*smoke_cmd) return run_smoke_command(global.argv0, smoke, MPSREADY_VERSION);
  if (*audit_cmd) return run_audit_command(global, audit, MPSREADY_VERSION);
  if (*ops_cmd) return run_ops_command(global, ops);
#endif
  return 2;
}
