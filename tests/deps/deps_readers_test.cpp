// The deps readers on realistic and malformed files, and the dependency link pass.
#include <gtest/gtest.h>

#include "deps/deps_reader.h"
#include "python/ts_python.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

std::vector<DepsFile> read(const TempDir& dir, const std::string& path) {
  PythonParser parser;
  return DepsReader::read(path, read_text(dir.path() / path), dir.path(), parser);
}

bool has_error(const std::vector<DepsFile>& files, const std::string& text) {
  for (const auto& f : files)
    for (const auto& e : f.errors)
      if (e.reason.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

// Run configurations: YAML in a folder of configurations, read for `device` only; a templated
// one that YAML cannot parse is passed over without an error. A compose or conda file keeps its
// kind wherever it is, and YAML elsewhere is no configuration.
TEST(DepsReaders, RunConfigurationsAreReadForTheirDevice) {
  EXPECT_EQ(DepsReader::classify("recipes/configs/llama/1B.yaml"), DepsFileKind::config);
  EXPECT_EQ(DepsReader::classify("conf/train.yml"), DepsFileKind::config);
  EXPECT_EQ(DepsReader::classify("Config/eval.YAML"), DepsFileKind::config);
  EXPECT_EQ(DepsReader::classify("configs/environment.yml"), DepsFileKind::conda);
  EXPECT_EQ(DepsReader::classify(".github/workflows/ci.yml"), DepsFileKind::none);
  EXPECT_EQ(DepsReader::classify("myconfigs/train.yaml"), DepsFileKind::none);
  TempDir dir;
  dir.write("configs/a.yaml", "device: cuda\nmodel:\n  device: cuda:1\n  deeper:\n    device: cuda\n");
  dir.write("configs/b.yaml", "device: {{ device }}\nbatch: [1, 2\n");
  const auto a = read(dir, "configs/a.yaml");
  std::vector<std::string> devices;
  for (const Directive& d : a.front().directives)
    if (d.kind == "device") devices.push_back(d.text);
  EXPECT_EQ(devices, (std::vector<std::string>{"cuda", "cuda:1"})) << "the top and one mapping down";
  const auto b = read(dir, "configs/b.yaml");
  EXPECT_TRUE(b.front().errors.empty());
  EXPECT_TRUE(b.front().directives.empty());
}

// The commands a manifest installs, in each of its spellings; their modules become entry points.
TEST(DepsReaders, EntryPointsOfSetupPySetupCfgAndPyproject) {
  TempDir dir;
  dir.write("setup.py", "from setuptools import setup\n"
                        "SCRIPTS = ['kit-train = kit.cli.train:main', 'kit-bad = not a module']\n"
                        "setup(name='kit', entry_points={'console_scripts': SCRIPTS,\n"
                        "      'other_group': ['x = kit.plugin:hook']})\n");
  dir.write("setup.cfg", "[options.entry_points]\nconsole_scripts =\n    kit-eval = kit.cli.eval:main\n"
                         "[options]\ninstall_requires =\n    torch\n");
  dir.write("pyproject.toml", "[project]\nname = 'kit'\n[project.scripts]\nkit-serve = 'kit.serve:run'\n"
                              "[tool.poetry.scripts]\nkit-export = 'kit.export:main[extra]'\n");
  const auto entry_points = [&](const std::string& path) {
    std::vector<std::pair<std::string, int>> out;
    for (const auto& f : read(dir, path))
      for (const auto& d : f.directives)
        if (d.kind == "entry-point") out.emplace_back(d.text, f.position(d.file_offset(0)).line);
    return out;
  };
  EXPECT_EQ(entry_points("setup.py"), (std::vector<std::pair<std::string, int>>{{"kit.cli.train", 2}}));
  EXPECT_EQ(entry_points("setup.cfg"), (std::vector<std::pair<std::string, int>>{{"kit.cli.eval", 3}}));
  EXPECT_EQ(entry_points("pyproject.toml"),
            (std::vector<std::pair<std::string, int>>{{"kit.serve", 4}, {"kit.export", 6}}));
}

namespace {

// The package-list directives of one manifest as `kind text@line`, in order.
std::vector<std::string> package_parts(const TempDir& dir, const std::string& path) {
  std::vector<std::string> out;
  for (const auto& f : read(dir, path))
    for (const auto& d : f.directives)
      if (d.kind.rfind("package", 0) == 0)
        out.push_back(d.kind + " " + d.text + "@" + std::to_string(f.position(d.file_offset(0)).line));
  return out;
}

}  // namespace

// setup.py's packages: a list, a search with where/exclude/include (by keyword or position),
// sums of both, package_dir, and what is not read statically.
TEST(DepsReaders, PackageListsOfSetupPy) {
  TempDir dir;
  dir.write("setup.py", "from setuptools import setup, find_packages\n"
                        "EXCLUDE = ('tests*', 'benchmarks*')\n"
                        "setup(name='kit',\n"
                        "      package_dir={'': 'src', 'kit.native': './lib/native/'},\n"
                        "      packages=find_packages(where='src', exclude=EXCLUDE, include=['kit*'])\n"
                        "               + ['extra', 'bad name'],\n"
                        ")\n");
  EXPECT_EQ(package_parts(dir, "setup.py"),
            (std::vector<std::string>{"package-dir =src@4", "package-dir kit.native=lib/native@4",
                                      "package-exclude tests*@2", "package-exclude benchmarks*@2",
                                      "package-include kit*@5", "package-find src@5", "package extra@6"}));
  dir.write("setup.py", "import setuptools\n"
                        "setuptools.setup(packages=setuptools.find_packages('.', ['docs']))\n");
  EXPECT_EQ(package_parts(dir, "setup.py"),
            (std::vector<std::string>{"package-exclude docs@2", "package-find @2"}));
  // A computed folder or a comprehension cannot be followed: nothing is declared.
  dir.write("setup.py", "import os\nfrom setuptools import setup, find_packages\n"
                        "setup(packages=[p for p in find_packages() if p != 'x'])\n"
                        "setup(packages=find_packages(where=os.getcwd()))\n");
  EXPECT_TRUE(package_parts(dir, "setup.py").empty());
}

// The package's own requirements as its manifest lists them: one `package-requires` directive
// with the PEP 503 names of the required (not optional, not build) packages; a computed list
// gives none, and a requirements file is no manifest.
TEST(DepsReaders, RequirementsTheManifestListsAsWritten) {
  TempDir dir;
  dir.write("setup.py", "from setuptools import setup\n"
                        "setup(name='kit', install_requires=['torch>=2', 'Safe_Tensors'],\n"
                        "      extras_require={'quant': ['bitsandbytes']}, setup_requires=['ninja'])\n");
  EXPECT_EQ(package_parts(dir, "setup.py"), (std::vector<std::string>{"package-requires torch,safe-tensors@2"}));
  dir.write("setup.py", "from setuptools import setup\n"
                        "setup(name='kit', install_requires=open('requirements.txt').read().splitlines())\n");
  EXPECT_TRUE(package_parts(dir, "setup.py").empty());
  dir.write("pyproject.toml", "[project]\nname = 'kit'\ndependencies = ['torch', 'einops']\n"
                              "[project.optional-dependencies]\nfast = ['xformers']\n"
                              "[build-system]\nrequires = ['setuptools']\n");
  EXPECT_EQ(package_parts(dir, "pyproject.toml"), (std::vector<std::string>{"package-requires torch,einops@3"}));
  dir.write("setup.cfg", "[options]\ninstall_requires =\n    numpy\n    torch\n");
  EXPECT_EQ(package_parts(dir, "setup.cfg"), (std::vector<std::string>{"package-requires numpy,torch@3"}));
  dir.write("requirements.txt", "torch\nbitsandbytes\n");
  EXPECT_TRUE(package_parts(dir, "requirements.txt").empty());
}

// setup.cfg's `packages = find:` with `[options.packages.find]` (where may come later), lists,
// and package_dir; pyproject's [tool.setuptools] and poetry's packages.
TEST(DepsReaders, PackageListsOfSetupCfgAndPyproject) {
  TempDir dir;
  // Hatch and PDM list package folders: the package is the last part, found in that folder.
  dir.write("pyproject.toml", "[project]\nname = 'kit'\n[tool.hatch.build.targets.wheel]\n"
                              "packages = ['src/kit', 'tools/', 'single.py']\n");
  EXPECT_EQ(package_parts(dir, "pyproject.toml"),
            (std::vector<std::string>{"package kit@4", "package-dir kit=src/kit@4", "package tools@4"}));
  dir.write("pyproject.toml", "[project]\nname = 'kit'\n[tool.pdm.build]\npackage-dir = 'src'\n"
                              "includes = ['src/kit']\n");
  EXPECT_EQ(package_parts(dir, "pyproject.toml"),
            (std::vector<std::string>{"package-dir =src@4", "package kit@5", "package-dir kit=src/kit@5"}));
  dir.write("setup.cfg", "[options]\npackages = find:\npackage_dir =\n    =src\n"
                         "[options.packages.find]\nexclude =\n    tests*\n    scripts, tools\nwhere = src\n");
  EXPECT_EQ(package_parts(dir, "setup.cfg"),
            (std::vector<std::string>{"package-dir =src@4", "package-exclude tests*@7", "package-exclude scripts@8",
                                      "package-exclude tools@8", "package-find src@9"}));
  dir.write("setup.cfg", "[options]\npackages =\n    kit\n    kit.ops\n");
  EXPECT_EQ(package_parts(dir, "setup.cfg"), (std::vector<std::string>{"package kit@3", "package kit.ops@4"}));
  dir.write("pyproject.toml", "[project]\nname = 'kit'\n[tool.setuptools]\npackage-dir = {'' = 'lib'}\n"
                              "[tool.setuptools.packages.find]\nwhere = ['lib']\ninclude = ['kit*']\n"
                              "exclude = ['kit.tests*']\n");
  EXPECT_EQ(package_parts(dir, "pyproject.toml"),
            (std::vector<std::string>{"package-include kit*@7", "package-exclude kit.tests*@8", "package-find lib@6",
                                      "package-dir =lib@4"}));
  dir.write("pyproject.toml", "[tool.setuptools]\npackages = ['kit', 'kit.ops']\n");
  EXPECT_EQ(package_parts(dir, "pyproject.toml"), (std::vector<std::string>{"package kit@2", "package kit.ops@2"}));
  dir.write("pyproject.toml", "[tool.poetry]\nname = 'kit'\n"
                              "packages = [{ include = 'kit', from = 'src' }, { include = 'tools/*.py' }]\n");
  EXPECT_EQ(package_parts(dir, "pyproject.toml"),
            (std::vector<std::string>{"package kit@3", "package-dir kit=src/kit@3"}));
}

TEST(DepsReaders, RequirementsWithMarkersPinsAndIncludes) {
  TempDir dir;
  dir.write("requirements.txt", "--extra-index-url https://download.pytorch.org/whl/cu121\n"
                                "torch==2.2.1+cu121\n-r base.in\n"
                                "triton==2.2.0; sys_platform == \"linux\"  # kernels\n");
  dir.write("base.in", "  flash-attn==2.5.6\n");
  const auto files = read(dir, "requirements.txt");
  ASSERT_EQ(files.size(), 2u);
  ASSERT_EQ(files[0].records.size(), 2u);
  EXPECT_EQ(files[0].records[0].version, "==2.2.1+cu121");
  EXPECT_EQ(files[0].records[1].marker, "sys_platform == \"linux\"");
  ASSERT_EQ(files[1].records.size(), 1u);
  EXPECT_EQ(files[1].path, "base.in");
  const auto at = files[1].position(files[1].records[0].start);
  EXPECT_EQ(at.line, 1);
  EXPECT_EQ(at.column, 3);
  ASSERT_EQ(files[0].directives.size(), 1u);
  EXPECT_EQ(files[0].directives[0].kind, "option");
}

// PEP 508 direct references name their package as surely as a pin: `name @ url`, with or without
// spaces (`deepspeed@git+https://…`). Reading them as errors would hide the package they install.
TEST(DepsReaders, DirectReferencesAreRequirements) {
  TempDir dir;
  dir.write("requirements.txt",
            "deepspeed@git+https://github.com/example/DeeperSpeed.git@91d1c55#egg=deepspeed\n"
            "flash-attn @ git+https://github.com/Dao-AILab/flash-attention.git ; sys_platform == \"linux\"\n"
            "einops @\n");
  const auto files = read(dir, "requirements.txt");
  ASSERT_EQ(files.size(), 1u);
  ASSERT_EQ(files[0].records.size(), 2u);
  EXPECT_EQ(files[0].records[0].normalized, "deepspeed");
  EXPECT_EQ(files[0].records[0].version, "git+https://github.com/example/DeeperSpeed.git@91d1c55#egg=deepspeed");
  EXPECT_EQ(files[0].records[1].normalized, "flash-attn");
  EXPECT_EQ(files[0].records[1].version, "git+https://github.com/Dao-AILab/flash-attention.git");
  EXPECT_EQ(files[0].records[1].marker, "sys_platform == \"linux\"");
  // `@` with no URL is no requirement.
  EXPECT_TRUE(has_error(files, "line 3"));
}

TEST(DepsReaders, RecursiveIncludeLoopIsReportedNotFollowedForever) {
  TempDir dir;
  dir.write("requirements.txt", "-r a.in\n");
  dir.write("a.in", "numpy\n-r b.in\n");
  dir.write("b.in", "-r a.in\nflash-attn\n");
  const auto files = read(dir, "requirements.txt");
  EXPECT_TRUE(has_error(files, "include loop")) << files.size();
  EXPECT_EQ(files.size(), 3u);
}

TEST(DepsReaders, IncludeOutsideTheRootIsNotRead) {
  TempDir dir;
  dir.write("repo/requirements.txt", "-r ../secret.txt\n");
  dir.write("secret.txt", "flash-attn\n");
  PythonParser parser;
  const auto files = DepsReader::read("requirements.txt", read_text(dir.path() / "repo/requirements.txt"),
                                      dir.path() / "repo", parser);
  EXPECT_EQ(files.size(), 1u);
  EXPECT_TRUE(has_error(files, "outside the scanned directory"));
}

TEST(DepsReaders, MalformedTomlAndYamlGiveErrorEntries) {
  TempDir dir;
  dir.write("pyproject.toml", "[project]\ndependencies = [\"torch\"\n");
  dir.write("environment.yml", "dependencies:\n  - numpy\n - [bad\n");
  EXPECT_TRUE(has_error(read(dir, "pyproject.toml"), "invalid TOML at line"));
  EXPECT_TRUE(has_error(read(dir, "environment.yml"), "invalid YAML at line"));
}

TEST(DepsReaders, DockerfileContinuationsMapBackToTheirLines) {
  TempDir dir;
  dir.write("Dockerfile", "FROM python:3.11\n# a comment about cuda\nRUN pip install a \\\n"
                          "# inside\n    torch==2.1.0+cu118\n");
  const auto files = read(dir, "Dockerfile");
  ASSERT_EQ(files[0].directives.size(), 2u);
  const Directive& run = files[0].directives[1];
  EXPECT_EQ(run.kind, "RUN");
  EXPECT_EQ(run.text, "pip install a torch==2.1.0+cu118");
  const auto at = files[0].position(run.file_offset(static_cast<uint32_t>(run.text.find("torch"))));
  EXPECT_EQ(at.line, 5);
  EXPECT_EQ(at.column, 5);
}

TEST(DepsReaders, SetupPyPoetryCondaAndCompose) {
  TempDir dir;
  dir.write("setup.py", "from setuptools import setup\nREQ = ['torch', 'xformers']\n"
                        "setup(install_requires=REQ, extras_require={'gpu': ['triton']})\n");
  dir.write("pyproject.toml", "[tool.poetry.dependencies]\npython = \"^3.10\"\n"
                              "flash-attn = { version = \"^2\", optional = true }\n");
  dir.write("environment.yml", "channels: [nvidia]\ndependencies:\n  - pytorch-cuda=12.1\n  - pip:\n    - vllm\n");
  dir.write("docker-compose.yml", "services:\n  t:\n    image: nvidia/cuda:12.1.0-base\n");
  const auto setup = read(dir, "setup.py");
  ASSERT_EQ(setup[0].records.size(), 3u);
  EXPECT_TRUE(setup[0].records[2].optional);
  const auto poetry = read(dir, "pyproject.toml");
  ASSERT_EQ(poetry[0].records.size(), 1u);
  EXPECT_TRUE(poetry[0].records[0].optional);
  const auto conda = read(dir, "environment.yml");
  ASSERT_EQ(conda[0].records.size(), 2u);
  EXPECT_TRUE(conda[0].records[0].conda);
  EXPECT_FALSE(conda[0].records[1].conda);
  const auto compose = read(dir, "docker-compose.yml");
  ASSERT_EQ(compose[0].directives.size(), 1u);
  EXPECT_EQ(compose[0].position(compose[0].directives[0].segments[0].file_offset).line, 3);
}

TEST(DependencyLink, RequirementIsTiedToItsImports) {
  TempDir dir;
  dir.write("requirements.txt", "torch\nflash-attn==2.5.6\ncupy-cuda12x\n");
  dir.write("model.py", "import flash_attn\n");
  const ScanResult result = scan(dir.path(), {"dep-nvidia-only-package"});
  ASSERT_EQ(result.findings.size(), 2u);
  EXPECT_NE(result.findings[0].message.find("imported unguarded in model.py:1"), std::string::npos);
  EXPECT_EQ(result.findings[0].impact, Impact::blocker);
  EXPECT_NE(result.findings[1].message.find("not imported by any scanned file"), std::string::npos);
  // The code does without it: only the install is in the way, which a marker fixes.
  EXPECT_EQ(result.findings[1].impact, Impact::portable);
  EXPECT_TRUE(result.findings[1].mechanical);
}

TEST(DependencyLink, GuardedImportMakesTheRequirementPortable) {
  TempDir dir;
  dir.write("requirements.txt", "flash-attn==2.5.6\n");
  dir.write("model.py",
            "import torch\ntry:\n    import flash_attn\nexcept ImportError:\n    flash_attn = None\n\n"
            "def attend(q, k, v):\n    if flash_attn is None:\n"
            "        return torch.nn.functional.scaled_dot_product_attention(q, k, v)\n"
            "    return flash_attn.flash_attn_func(q, k, v)\n");
  const ScanResult result = scan(dir.path(), {"dep-nvidia-only-package"});
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].impact, Impact::portable);
  EXPECT_TRUE(result.findings[0].guarded);

  // A sentinel the code then calls unguarded is no fallback: the requirement stays a blocker.
  dir.write("model.py", "try:\n    import flash_attn\nexcept ImportError:\n    flash_attn = None\n\n"
                        "def attend(q, k, v):\n    return flash_attn.flash_attn_func(q, k, v)\n");
  const ScanResult sentinel = scan(dir.path(), {"dep-nvidia-only-package"});
  ASSERT_EQ(sentinel.findings.size(), 1u);
  EXPECT_EQ(sentinel.findings[0].impact, Impact::blocker);
}

}  // namespace mpsready::testing
