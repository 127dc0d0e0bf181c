#pragma once
// How the linked LibTorch was built: at::show_config()'s text (compiler, BLAS, CPU capability,
// build flags) and, where the distribution ships it, the PyTorch commit it was built from. Two
// machines with the same version string can still differ here (a Debian build against OpenBLAS,
// a pip wheel against MKL), and that changes both numbers and timings.
#include <optional>
#include <string>

namespace mpsready {

struct TorchBuild {
  std::string config;                 // at::show_config(), as LibTorch prints it
  std::optional<std::string> commit;  // nullopt: this LibTorch does not say
  std::string commit_source;          // where the commit was read ("" when none)
};

TorchBuild probe_torch_build();

// The commit in a LibTorch distribution's files, given the directory of the loaded libtorch
// library: the LibTorch zip's `build-hash` (beside lib/), or a pip wheel's torch/version.py
// (`git_version = '...'`). Debian's packages ship neither.
std::optional<std::string> commit_near(const std::string& lib_dir, std::string& source);

}  // namespace mpsready
