#include "deps/deps_reader.h"

#include <cctype>

#include "deps/requirements_reader.h"
#include "deps/script_reader.h"
#include "deps/setup_cfg_reader.h"
#include "deps/setup_py_reader.h"
#include "deps/toml_manifest_reader.h"
#include "deps/yaml_manifest_reader.h"

namespace mpsready {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

DepsFileKind DepsReader::classify(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::string_view dir = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
  const std::string name = lower(base);
  const bool yaml = name.ends_with(".yml") || name.ends_with(".yaml");
  if (name.ends_with(".txt") &&
      (name.starts_with("requirements") || name.ends_with("-requirements.txt") ||
       name.ends_with("_requirements.txt") || dir.ends_with("requirements") || dir == "requirements"))
    return DepsFileKind::requirements;
  if (name == "setup.py") return DepsFileKind::setup_py;
  if (name == "setup.cfg") return DepsFileKind::setup_cfg;
  if (name == "pyproject.toml") return DepsFileKind::pyproject;
  if (base == "Pipfile") return DepsFileKind::pipfile;
  if (yaml && (name.starts_with("environment") || name.starts_with("conda"))) return DepsFileKind::conda;
  if (yaml && (name.starts_with("docker-compose") || name.starts_with("compose."))) return DepsFileKind::compose;
  if (name == "dockerfile" || name.starts_with("dockerfile.") || name.ends_with(".dockerfile") ||
      name == "containerfile")
    return DepsFileKind::dockerfile;
  if (name == "cmakelists.txt" || name.ends_with(".cmake")) return DepsFileKind::cmake;
  if (name == "makefile" || name == "gnumakefile" || name.ends_with(".mk")) return DepsFileKind::make;
  if (name.ends_with(".sh") || name.ends_with(".bash") || name.ends_with(".slurm") || name.ends_with(".sbatch"))
    return DepsFileKind::shell;
  // A run configuration: YAML in a folder of configurations (`configs/`, `config/`, `conf/`, at
  // any depth: `recipes/configs/llama3/8B.yaml`), whose keys are a program's options.
  if (yaml) {
    for (std::string_view rest = dir; !rest.empty();) {
      const size_t cut = rest.find('/');
      const std::string part = lower(rest.substr(0, cut));
      if (part == "configs" || part == "config" || part == "conf") return DepsFileKind::config;
      rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
    }
  }
  return DepsFileKind::none;
}

std::vector<DepsFile> DepsReader::read(std::string_view path, std::string_view text,
                                       const std::filesystem::path& root, PythonParser& parser) {
  std::vector<DepsFile> out(1);
  DepsFile& file = out.front();
  file.path = std::string(path);
  file.kind = classify(path);
  file.text = std::make_shared<SourceText>(std::string(text));
  std::vector<DepsFile> included;
  switch (file.kind) {
    case DepsFileKind::requirements:
      RequirementsReader::read(file, root, [](std::string_view p) { return classify(p) == DepsFileKind::requirements; },
                               included);
      break;
    case DepsFileKind::setup_py: SetupPyReader::read(file, parser); break;
    case DepsFileKind::setup_cfg: SetupCfgReader::read(file); break;
    case DepsFileKind::pyproject:
    case DepsFileKind::pipfile: TomlManifestReader::read(file); break;
    case DepsFileKind::conda:
    case DepsFileKind::compose:
    case DepsFileKind::config: YamlManifestReader::read(file); break;
    case DepsFileKind::dockerfile:
    case DepsFileKind::cmake:
    case DepsFileKind::make:
    case DepsFileKind::shell: ScriptReader::read(file); break;
    case DepsFileKind::none: break;
  }
  // The installable package's own requirements, where its manifest lists them as written: the
  // repository model tells them from the environments other files set up (a requirements.txt for
  // the examples or tests). Computed lists (`install_requires=read("requirements.txt")`) give none.
  if (file.kind == DepsFileKind::setup_py || file.kind == DepsFileKind::setup_cfg ||
      file.kind == DepsFileKind::pyproject) {
    std::string names;
    uint32_t at = 0;
    for (const DependencyRecord& r : file.records) {
      if (!r.group.empty() || r.optional || r.conda) continue;
      if (names.empty()) at = r.start;
      names += (names.empty() ? "" : ",") + r.normalized;
    }
    if (!names.empty()) file.add_directive("package-requires", names, at);
  }
  for (auto& f : included) out.push_back(std::move(f));
  return out;
}

}  // namespace mpsready
