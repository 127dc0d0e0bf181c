#include "cli/runtime_forward.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <vector>

#include "util/subprocess.h"

namespace mpsready {

namespace {

constexpr std::string_view kRuntimeExecutable = "mpsready-runtime";

bool is_runtime_subcommand(std::string_view arg) {
  for (const RuntimeSubcommand& sub : kRuntimeSubcommands)
    if (arg == sub.name) return true;
  return false;
}

}  // namespace

std::optional<std::string> runtime_subcommand(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--rules") {  // the only global option that takes a value
      ++i;
      continue;
    }
    if (arg.starts_with("-")) continue;
    // The first word that is not an option names the subcommand.
    if (is_runtime_subcommand(arg)) return std::string(arg);
    return std::nullopt;
  }
  return std::nullopt;
}

int forward_to_runtime(int argc, char** argv, const std::string& subcommand) {
  const std::filesystem::path self = self_executable(argc > 0 ? argv[0] : nullptr);
  const std::filesystem::path runtime = self.parent_path() / kRuntimeExecutable;
  std::vector<char*> args;
  std::string program = runtime.string();
  args.push_back(program.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(program.c_str(), args.data());
  // Only reached when the runtime could not be started.
  const int error = errno;
  if (error == ENOENT) {
    std::cerr << "mpsready: `" << subcommand << "` runs models with LibTorch, which lives in "
              << kRuntimeExecutable << ", and there is none beside this executable (" << runtime.string()
              << ").\nBuild with LibTorch (-DMPSREADY_WITH_TORCH=ON, the default) and install both executables "
                 "into the same directory.\n";
  } else {
    std::cerr << "mpsready: cannot start " << runtime.string() << " for `" << subcommand
              << "`: " << std::strerror(error) << "\n";
  }
  return 2;
}

}  // namespace mpsready
