// `mpsready scan` with the op-coverage rule, as a user runs it: which native_functions.yaml and
// version answer, and what the scan says when there is none.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace mpsready::testing {
namespace {

const std::string kDebianYaml = "/usr/lib/python3/dist-packages/torchgen/packaged/ATen/native/native_functions.yaml";

const char* kCalls = R"(import torch


def f(a, x):
    w, v = torch.linalg.eig(a)
    return torch.cumsum(x, 0), w, v
)";

nlohmann::json scan_json(const fs::path& root, const std::string& extra) {
  const char* bin = std::getenv("MPSREADY_BIN");
  const std::string cmd = std::string("'") + (bin ? bin : "mpsready") + "' scan '" + root.string() +
                          "' --select py-op-no-mps-kernel --format json " + extra + " 2>/dev/null";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return {};
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd << "\n" << out;
  return nlohmann::json::parse(out);
}

std::vector<std::string> flagged_ops(const nlohmann::json& doc) {
  std::vector<std::string> ops;
  for (const auto& f : doc["findings"]) {
    const std::string message = f["message"];
    const size_t at = message.find("runs `aten::");
    ops.push_back(message.substr(at + 6, message.find('`', at + 6) - at - 6));
  }
  return ops;
}

std::string repo_note(const nlohmann::json& doc) {
  for (const auto& s : doc["skipped"])
    if (s["path"] == ".") return s["reason"];
  return "";
}

}  // namespace

TEST(OpCoverageScan, TheTargetVersionComesFromTheFlagOrTheConfiguration) {
  TempDir repo;
  repo.write("model.py", kCalls);
  const auto flag = scan_json(repo.path(), "--torch-version 1.13");
  EXPECT_EQ(flagged_ops(flag), (std::vector<std::string>{"aten::linalg_eig", "aten::cumsum"}));
  EXPECT_EQ(repo_note(flag), "");
  for (const auto& f : flag["findings"]) {
    EXPECT_EQ(f["category"], "op-coverage");
    EXPECT_EQ(f["impact"], "portable");
    EXPECT_NE(f["message"].get<std::string>().find("PyTorch 1.13"), std::string::npos);
    EXPECT_NE(f["message"].get<std::string>().find("PYTORCH_ENABLE_MPS_FALLBACK=1"), std::string::npos);
  }
  repo.write(".mpsready.json", R"({"target_pytorch": "1.13"})");
  EXPECT_EQ(flagged_ops(scan_json(repo.path(), "")).size(), 2u);
  repo.write(".mpsready.json", R"({"target_pytorch": "9.9"})");
  const auto none = scan_json(repo.path(), "");
  EXPECT_TRUE(none["findings"].empty());
  EXPECT_NE(repo_note(none).find("op-coverage: no native_functions.yaml for PyTorch 9.9"), std::string::npos)
      << none["skipped"].dump();
}

TEST(OpCoverageScan, ExplicitFilesAnswerAndANewerKernelClearsTheFinding) {
  TempDir repo;
  repo.write("model.py", kCalls);
  TempDir yaml;
  const fs::path newer = yaml.write("newer.yaml",
                                    "- func: cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor\n"
                                    "  variants: function, method\n"
                                    "  dispatch:\n    CPU, CUDA, MPS: cumsum\n"
                                    "- func: linalg_eig(Tensor self) -> (Tensor eigenvalues, Tensor eigenvectors)\n"
                                    "  dispatch:\n    CPU, CUDA: linalg_eig\n");
  const std::string both = "--native-functions " + kDebianYaml + " --native-functions 2.1=" + newer.string();
  const auto newest = scan_json(repo.path(), both);
  EXPECT_EQ(flagged_ops(newest), (std::vector<std::string>{"aten::linalg_eig"}));
  EXPECT_NE(newest["findings"][0]["message"].get<std::string>().find("PyTorch 2.1 (native_functions.yaml at " +
                                                                      newer.string()),
            std::string::npos);
  EXPECT_EQ(flagged_ops(scan_json(repo.path(), both + " --torch-version 1.13")).size(), 2u);
}

TEST(OpCoverageScan, WithoutAYamlTheRuleReportsNothingAndTheScanSaysSoOnce) {
  TempDir repo;
  repo.write("a.py", kCalls);
  repo.write("b.py", kCalls);
  const auto missing = scan_json(repo.path(), "--native-functions '" + (repo.path() / "absent.yaml").string() + "'");
  EXPECT_TRUE(missing["findings"].empty());
  size_t notes = 0;
  for (const auto& s : missing["skipped"]) notes += s["path"] == ".";
  EXPECT_EQ(notes, 1u);
  EXPECT_NE(repo_note(missing).find("absent.yaml: no such file"), std::string::npos) << repo_note(missing);

  const auto malformed = scan_json(
      repo.path(), "--native-functions '" + (source_dir() / "tests/ops/yaml/invalid_yaml.yaml").string() + "'");
  EXPECT_TRUE(malformed["findings"].empty());
  EXPECT_NE(repo_note(malformed).find("invalid_yaml.yaml:"), std::string::npos) << repo_note(malformed);
  EXPECT_NE(repo_note(malformed).find("not valid YAML"), std::string::npos);

  // No call worth looking up: the yaml is never needed, so its absence is not worth a note.
  TempDir quiet;
  quiet.write("c.py", "import torch\n\nsizes = [3, 1, 2]\nsizes.sort()\nprint(torch.__version__, sizes)\n");
  const auto unneeded = scan_json(quiet.path(), "--native-functions '" + (quiet.path() / "absent.yaml").string() + "'");
  EXPECT_TRUE(unneeded["skipped"].empty()) << unneeded["skipped"].dump();
}

}  // namespace mpsready::testing
