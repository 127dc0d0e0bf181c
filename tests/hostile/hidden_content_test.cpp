// Content a repository could hide from the scan (issue 26, item 4): in a git work tree what git
// tracks is scanned whatever .gitignore, a venv marker or a directory name says; a submodule is
// listed; a NUL byte past git's binary window, or in a file its compiler or pip reads anyway, does
// not make it "binary"; a UTF-16 requirements file is decoded; a notebook over the size limit for
// its outputs is read for its code cells. One test per case, each on a generated repository.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

using Notes = std::map<std::string, std::string>;  // path -> reasons, joined by " | "

Notes notes_of(const nlohmann::json& list) {
  Notes out;
  for (const auto& n : list) {
    std::string& reasons = out[n["path"].get<std::string>()];
    reasons += (reasons.empty() ? "" : " | ") + n["reason"].get<std::string>();
  }
  return out;
}

std::set<std::string> sites(const nlohmann::json& doc) {
  std::set<std::string> out;
  for (const auto& f : doc["findings"])
    out.insert(f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) + ":" +
               f["rule"].get<std::string>());
  return out;
}

std::string dump(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += "  " + x + "\n";
  return out;
}

nlohmann::json scan_json(const fs::path& root, const std::string& extra = "") {
  const CliRun run = mpsready("scan " + quote(root.string()) + " --format json " + extra, false);
  EXPECT_EQ(run.code, 0) << run.out.substr(0, 2000);
  nlohmann::json doc = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << run.out.substr(0, 2000);
  return doc.is_discarded() ? nlohmann::json::object({{"errors", nlohmann::json::array()},
                                                      {"skipped", nlohmann::json::array()},
                                                      {"findings", nlohmann::json::array()}})
                            : doc;
}

// A git work tree whose index holds the files given (added with -f: .gitignore does not stop it).
void git(const fs::path& root, const std::string& args) {
  const CliRun run = run_shell("git -C " + quote(root.string()) + " -c user.name=t -c user.email=t@t " + args + " 2>&1");
  ASSERT_EQ(run.code, 0) << "git " << args << ": " << run.out;
}

void git_repo(const TempDir& dir) {
  git(dir.path(), "init -q");
  git(dir.path(), "add -f -A");
}

const char* kCudaCall = "import torch\nx = torch.zeros(1).cuda()\n";

}  // namespace

// An empty pyvenv.cfg made the package a "virtual environment" and its code vanished.
TEST(HiddenContent, VenvMarkerDoesNotHideTrackedPackage) {
  TempDir dir;
  dir.write("pkg/pyvenv.cfg", "");
  dir.write("pkg/model.py", kCudaCall);
  git_repo(dir);
  const auto found = sites(scan_json(dir.path()));
  EXPECT_TRUE(found.count("pkg/model.py:2:py-tensor-dot-cuda")) << dump(found);
}

// A .gitignore line hid files that git tracks (and that every checkout therefore has).
TEST(HiddenContent, GitignoreDoesNotHideTrackedFiles) {
  TempDir dir;
  dir.write(".gitignore", "*.py\nkernels/\n");
  dir.write("train.py", kCudaCall);
  dir.write("kernels/k.cu", "__global__ void k(float* x) {}\n");
  dir.write("scratch/untracked.py", kCudaCall);
  git_repo(dir);
  dir.write("notes/untracked.py", kCudaCall);  // untracked and ignored: not part of the repository
  const nlohmann::json doc = scan_json(dir.path());
  const auto found = sites(doc);
  EXPECT_TRUE(found.count("train.py:2:py-tensor-dot-cuda")) << dump(found);
  EXPECT_TRUE(found.count("kernels/k.cu:1:cu-cuda-kernel")) << dump(found);
  EXPECT_TRUE(found.count("scratch/untracked.py:2:py-tensor-dot-cuda")) << dump(found);
  EXPECT_FALSE(found.count("notes/untracked.py:2:py-tensor-dot-cuda")) << dump(found);
}

// A package folder named build/ (or dist/, venv/) was skipped by name.
TEST(HiddenContent, TrackedBuildFolderIsScanned) {
  TempDir dir;
  dir.write("build/__init__.py", "");
  dir.write("build/model.py", kCudaCall);
  dir.write("dist/ops.cu", "__global__ void k(float* x) {}\n");
  git_repo(dir);
  dir.write("venv/lib/site.py", kCudaCall);  // untracked: the usual names still mean generated content
  const nlohmann::json doc = scan_json(dir.path());
  const auto found = sites(doc);
  EXPECT_TRUE(found.count("build/model.py:2:py-tensor-dot-cuda")) << dump(found);
  EXPECT_TRUE(found.count("dist/ops.cu:1:cu-cuda-kernel")) << dump(found);
  EXPECT_FALSE(found.count("venv/lib/site.py:2:py-tensor-dot-cuda")) << dump(found);
  const Notes skipped = notes_of(doc["skipped"]);
  ASSERT_TRUE(skipped.count("venv")) << doc["skipped"].dump();
  EXPECT_NE(skipped.at("venv").find("directory not scanned"), std::string::npos);
}

// A submodule was never walked, and nothing said so.
TEST(HiddenContent, SubmoduleIsListedWithItsReason) {
  TempDir dir;
  dir.write("train.py", kCudaCall);
  git_repo(dir);
  // A gitlink (mode 160000) as `git submodule add` leaves it, without fetching anything.
  git(dir.path(), "update-index --add --cacheinfo 160000,0123456789abcdef0123456789abcdef01234567,third_party/kernels");
  fs::create_directories(dir.path() / "third_party/kernels");
  const nlohmann::json doc = scan_json(dir.path());
  const Notes skipped = notes_of(doc["skipped"]);
  ASSERT_TRUE(skipped.count("third_party/kernels")) << doc["skipped"].dump();
  EXPECT_NE(skipped.at("third_party/kernels").find("git submodule"), std::string::npos);
  EXPECT_TRUE(sites(doc).count("train.py:2:py-tensor-dot-cuda"));
}

// Outside a git work tree the walk still skips build output and venvs, but lists each directory.
TEST(HiddenContent, SkippedDirectoriesAreListedOutsideGit) {
  TempDir dir;
  dir.write("pkg/pyvenv.cfg", "");
  dir.write("pkg/model.py", kCudaCall);
  dir.write("build/model.py", kCudaCall);
  const nlohmann::json doc = scan_json(dir.path());
  const Notes skipped = notes_of(doc["skipped"]);
  ASSERT_TRUE(skipped.count("pkg")) << doc["skipped"].dump();
  EXPECT_NE(skipped.at("pkg").find("virtual environment (pyvenv.cfg)"), std::string::npos);
  ASSERT_TRUE(skipped.count("build")) << doc["skipped"].dump();
  EXPECT_NE(skipped.at("build").find("directory not scanned"), std::string::npos);
}

// One NUL byte after 9,000 bytes made a .cu file nvcc builds, and a requirements.txt pip reads,
// "binary".
TEST(HiddenContent, NulPastGitsWindowIsNotBinary) {
  TempDir dir;
  const std::string padding = "// " + std::string(9000, 'x') + "\n";  // line 1
  dir.write("ops.cu", padding + std::string("int z = 0;\0\n", 12) + "__global__ void k(float* x) {}\n");
  dir.write("requirements.txt", "numpy\n# " + std::string(9000, 'x') + "\n" + std::string("#\0\n", 3) +
                                    "flash-attn==2.5.6\n");
  dir.write("early.cu", std::string("//\0\n", 4) + "__global__ void k(float* x) {}\n");  // nvcc skips it too
  dir.write("blob.py", std::string("\x7f" "ELF\x02\x01\x01\0\0\0import torch\nx.cuda()\n", 32));
  const nlohmann::json doc = scan_json(dir.path());
  const auto found = sites(doc);
  EXPECT_TRUE(found.count("ops.cu:3:cu-cuda-kernel")) << dump(found);
  EXPECT_TRUE(found.count("requirements.txt:4:dep-nvidia-only-package")) << dump(found);
  EXPECT_TRUE(found.count("early.cu:2:cu-cuda-kernel")) << dump(found);
  Notes skipped = notes_of(doc["skipped"]), errors = notes_of(doc["errors"]);
  EXPECT_NE(errors["ops.cu"].find("contains NUL bytes"), std::string::npos) << errors["ops.cu"];
  // A file git calls binary whose tool does not read past NUL bytes (Python refuses them) stays out.
  EXPECT_NE(skipped["blob.py"].find("binary file"), std::string::npos) << doc["skipped"].dump();
}

// A UTF-16 requirements.txt with a byte-order mark (pip reads it) was skipped as binary.
TEST(HiddenContent, Utf16RequirementsAreDecoded) {
  TempDir dir;
  const std::string text = "numpy>=1.24\r\nflash-attn==2.5.6\r\n";
  std::string le = "\xFF\xFE", be = "\xFE\xFF", le32 = std::string("\xFF\xFE\0\0", 4);
  for (char c : text) {
    le += c;
    le += '\0';
    be += '\0';
    be += c;
    le32 += c;
    le32 += std::string(3, '\0');
  }
  dir.write("requirements.txt", le);
  dir.write("requirements-dev.txt", be);
  dir.write("requirements-gpu.txt", le32);
  const nlohmann::json doc = scan_json(dir.path());
  const auto found = sites(doc);
  for (const char* path : {"requirements.txt", "requirements-dev.txt", "requirements-gpu.txt"})
    EXPECT_TRUE(found.count(std::string(path) + ":2:dep-nvidia-only-package")) << path << "\n" << dump(found);
}

// A notebook over 16 MiB because of an image output was skipped whole.
TEST(HiddenContent, LargeNotebookOutputsDoNotHideCode) {
  TempDir dir;
  const std::string image(17u << 20, 'A');  // base64-like output
  const std::string cells =
      "{\"cell_type\": \"markdown\", \"source\": [\"# Title\\n\"]},"
      "{\"cell_type\": \"code\", \"source\": [\"import torch\\n\", \"x = torch.zeros(1).cuda()\\n\"], "
      "\"outputs\": [{\"data\": {\"image/png\": \"" + image + "\"}, \"output_type\": \"display_data\"}], "
      "\"metadata\": {\"source\": [\"not code\"]}, \"execution_count\": 1}";
  dir.write("big.ipynb", "{\"cells\": [" + cells + "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}");
  // Code cells past the limit are still skipped, with the reason.
  const std::string code(300000, '#');
  dir.write("code.ipynb", "{\"cells\": [{\"cell_type\": \"code\", \"source\": \"" + code + "\"}], \"nbformat\": 4}");
  const nlohmann::json doc = scan_json(dir.path());
  bool found = false;
  for (const auto& f : doc["findings"])
    if (f["path"] == "big.ipynb" && f["rule"] == "py-tensor-dot-cuda") {
      found = true;
      EXPECT_EQ(f["cell"], 2) << f.dump();
      EXPECT_EQ(f["line"], 2) << f.dump();
    }
  EXPECT_TRUE(found) << doc["findings"].dump().substr(0, 2000) << doc["skipped"].dump();
  const nlohmann::json small = scan_json(dir.path(), "--max-file-size 200000");
  const Notes skipped = notes_of(small["skipped"]);
  EXPECT_NE(skipped.count("code.ipynb") ? skipped.at("code.ipynb").find("code cells larger than the size limit")
                                        : std::string::npos,
            std::string::npos)
      << small["skipped"].dump();
}

}  // namespace mpsready::testing
