// The runtime-only mpsready (-DMPSREADY_RUNTIME_ONLY=ON): only `mpsready smoke`, for a machine
// that has LibTorch, CMake and the header-only JSON and CLI libraries but none of the scanner's
// dependencies, such as a Mac with a pip-installed LibTorch or a lab's CUDA box.
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/runtime_subcommands.h"
#include "cli/smoke_command.h"

int main(int argc, char** argv) {
  using namespace mpsready;
  CLI::App app{"mpsready (runtime only): smoke-runs a TorchScript model on MPS, CUDA or the CPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("mpsready ") + MPSREADY_VERSION + " (runtime only)");
  SmokeCommandOptions smoke;
  CLI::App* smoke_cmd = app.add_subcommand(kRuntimeSubcommands[0].name, kRuntimeSubcommands[0].description);
  add_smoke_options(*smoke_cmd, smoke, /*model_positional=*/true);
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
  smoke.run.argv.assign(argv, argv + argc);  // for the record: how to repeat the run
  return run_smoke_command(argc > 0 ? argv[0] : nullptr, smoke, MPSREADY_VERSION);
}
