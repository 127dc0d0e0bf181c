// mpsready: can this PyTorch repository leave Linux/CUDA for Apple's MPS backend?
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/build_info.h"
#include "cli/commands.h"
#include "cli/scan_options.h"
#include "rules/rule_set.h"
#include "cli/fix_command.h"
#include "cli/runtime_forward.h"
#if defined(MPSREADY_WITH_RUNTIME)
#include "cli/audit_command.h"  // runtime/cli: the LibTorch commands
#include "cli/ops_command.h"
#include "cli/scan_json_report.h"
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
  app.footer(program_help_footer());
  GlobalOptions global;
  global.argv0 = argc > 0 ? argv[0] : nullptr;
  app.set_version_flag("--version", [&] { return version_text(default_rules_dir(global.rules_dir, global.argv0).string()); });
  app.add_option("--rules", global.rules_dir, "Directory of rule definitions (default: the bundled rules)");

  // Global options are also accepted after the subcommand (`mpsready scan . --rules DIR`).
  app.fallthrough();
  ScanCommandOptions scan;
  CLI::App* scan_cmd = add_scan_command(app, scan);
  std::string init_dir = ".";
  bool init_stdout = false;
  CLI::App* init_cmd = app.add_subcommand("init", "Write a commented [tool.mpsready] table into pyproject.toml");
  init_cmd->add_option("dir", init_dir, "Repository root (default: .)");
  init_cmd->add_flag("--stdout", init_stdout, "Print the table instead of writing it");

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

  FixCommand fix;
  register_fix_command(app, fix);

#if defined(MPSREADY_WITH_RUNTIME)
  // The LibTorch commands (README "Runtime smoke", "Op coverage"): the smoke run, alone and next
  // to the scan, and a model's op list.
  SmokeCommandOptions smoke;
  CLI::App* smoke_cmd = app.add_subcommand(kRuntimeSubcommands[0].name, kRuntimeSubcommands[0].description);
  add_smoke_options(*smoke_cmd, smoke, /*model_positional=*/true);
  AuditCommandOptions audit;
  ScanCommandOptions audit_scan;
  CLI::App* audit_cmd = app.add_subcommand(kRuntimeSubcommands[1].name, kRuntimeSubcommands[1].description);
  audit_cmd->add_option("path", audit_scan.path, "Repository root")->required();
  audit_cmd->add_option("--exclude", audit_scan.excludes, "Skip paths matching GLOB in the scan (repeatable)");
  audit_cmd->add_option("--config", audit_scan.config, "Configuration file of the scan");
  add_smoke_options(*audit_cmd, audit.smoke, /*model_positional=*/false);
  OpsCommandOptions ops;
  CLI::App* ops_cmd = app.add_subcommand(kRuntimeSubcommands[2].name, kRuntimeSubcommands[2].description);
  ops_cmd->add_option("model", ops.model, "TorchScript file (torch.jit.save); or give --trace");
  ops_cmd->add_option("--trace", ops.trace_file,
                      "Calls recorded by mpsready-trace-ops on another machine (op, caller, count per line) instead of a model");
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
  if (*init_cmd) return run_init_command(init_dir, init_stdout);
  if (*list_cmd) return run_rules_list(global, list_format);
  if (*explain_cmd) return run_rules_explain(global, explain_id);
  if (*test_cmd) return run_rules_test(global, test_ids);
  if (*fix.app) return run_fix_command(global, fix.options);
#if defined(MPSREADY_WITH_RUNTIME)
  // The record keeps the command line, so a ledger entry says how to repeat the run.
  smoke.run.argv.assign(argv, argv + argc);
  audit.smoke.run.argv.assign(argv, argv + argc);
  if (*smoke_cmd) return run_smoke_command(global.argv0, smoke, MPSREADY_VERSION);
  if (*audit_cmd) {
    audit.path = audit_scan.path;
    return run_audit_command(global.argv0, audit, MPSREADY_VERSION,
                             [&](nlohmann::json& report) { return scan_json_report(global, audit_scan, report); });
  }
  if (*ops_cmd) return run_ops_command(global.rules_dir, global.argv0, ops);
#endif
  return 2;
}
