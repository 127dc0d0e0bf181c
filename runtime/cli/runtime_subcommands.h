#pragma once
// The subcommands that load models with LibTorch. The runtime owns their names; the scanner's
// `mpsready` lists them in `--help` and hands their command lines to `mpsready-runtime`
// (scanner/cli/runtime_forward.h), and the runtime-only build offers the first of them.

namespace mpsready {

struct RuntimeSubcommand {
  const char* name;
  const char* description;
};

inline constexpr RuntimeSubcommand kRuntimeSubcommands[] = {
    {"smoke", "Run a TorchScript model briefly on MPS (or CUDA/CPU) and record what happened"},
    {"audit", "Scan a repository and smoke-run its model: does the run confirm the verdict?"},
    {"ops", "List a TorchScript model's aten ops with their MPS status"},
};

}  // namespace mpsready
