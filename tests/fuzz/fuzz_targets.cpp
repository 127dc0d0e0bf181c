#include "fuzz/fuzz_targets.h"

namespace mpsready::fuzz {

namespace {

// One manifest reader per target; the file name picks the reader, as it does in a scan.
template <const char* FileName>
void manifest(std::string_view bytes) {
  fuzz_manifest(FileName, bytes);
}

constexpr char kRequirements[] = "requirements.txt";
constexpr char kSetupPy[] = "setup.py";
constexpr char kSetupCfg[] = "setup.cfg";
constexpr char kPyproject[] = "pyproject.toml";
constexpr char kPipfile[] = "Pipfile";
constexpr char kConda[] = "environment.yml";
constexpr char kCompose[] = "docker-compose.yml";
constexpr char kDockerfile[] = "Dockerfile";
constexpr char kCmake[] = "CMakeLists.txt";
constexpr char kMakefile[] = "Makefile";
constexpr char kShell[] = "train.slurm";

}  // namespace

const std::vector<FuzzTarget>& fuzz_targets() {
  static const std::vector<FuzzTarget> targets = {
      {"python", fuzz_python_source},
      {"notebook", fuzz_notebook},
      {"cpp", fuzz_cpp_source},
      {"cpp-isolated", fuzz_cpp_isolated},
      {"cython", fuzz_cython_source},
      {"elf", fuzz_extension_binary},
      {"requirements", manifest<kRequirements>},
      {"setup-py", manifest<kSetupPy>},
      {"setup-cfg", manifest<kSetupCfg>},
      {"pyproject", manifest<kPyproject>},
      {"pipfile", manifest<kPipfile>},
      {"conda", manifest<kConda>},
      {"compose", manifest<kCompose>},
      {"dockerfile", manifest<kDockerfile>},
      {"cmake", manifest<kCmake>},
      {"makefile", manifest<kMakefile>},
      {"shell", manifest<kShell>},
      {"config", fuzz_config},
      {"rule-files", fuzz_rule_files},
      {"fix-write", fuzz_fix_write},
      {"cache", fuzz_scan_cache},
  };
  return targets;
}

const FuzzTarget* find_fuzz_target(std::string_view name) {
  for (const auto& t : fuzz_targets())
    if (name == t.name) return &t;
  return nullptr;
}

}  // namespace mpsready::fuzz
