// `mpsready scan` with the op-coverage rule, as a user runs it: which op-status table (bundled) or
// native_functions.yaml and version answer, that nothing installed on the machine changes the
// answer or appears in a report, and what the scan says when there is no answer.
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

std::string scan_output(const fs::path& root, const std::string& extra, const std::string& format = "json") {
  const char* bin = std::getenv("MPSREADY_BIN");
  const std::string cmd = std::string("'") + (bin ? bin : "mpsready") + "' scan '" + root.string() +
                          "' --select py-op-no-mps-kernel --format " + format + " " + extra + " 2>/dev/null";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return {};
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd << "\n" << out;
  return out;
}

nlohmann::json scan_json(const fs::path& root, const std::string& extra) {
  return nlohmann::json::parse(scan_output(root, extra));
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

// linalg_svd has no MPS kernel in the yaml, but PyTorch registers a CPU fallback for it on MPS
// (MPSFallback.mm): what reaches it runs on a Mac as it is. svdvals calls _linalg_svd directly and
// raises without PYTORCH_ENABLE_MPS_FALLBACK, but _linalg_svd has a CPU kernel, so the variable is
// all it needs: info too, with a message that says so. An op with CUDA kernels alone
// (cudnn_grid_sampler) has nothing to fall back to and stays portable.
TEST(OpCoverageScan, OpsTheCpuFallbackRunsAreInfoAndCudaOnlyOpsPortable) {
  TempDir repo;
  repo.write("model.py",
             "import torch\n\n\ndef f(a):\n"
             "    u, s, vh = torch.linalg.svd(a)\n"
             "    p = torch.linalg.pinv(a)\n"
             "    return torch.linalg.svdvals(a), u, p\n");
  for (const std::string version : {"", "--torch-version 1.13"}) {
    const auto doc = scan_json(repo.path(), version);
    ASSERT_EQ(doc["findings"].size(), 3u) << doc.dump(1);
    for (const auto& f : doc["findings"]) {
      const std::string message = f["message"];
      EXPECT_EQ(f["impact"], "info") << version << " line " << f["line"];
      if (f["line"] == 7) {
        EXPECT_NE(message.find("raises NotImplementedError"), std::string::npos) << message;
        EXPECT_NE(message.find("it has a CPU kernel, so PyTorch's fallback runs it"), std::string::npos) << message;
      } else {
        EXPECT_NE(message.find("runs `aten::linalg_svd`, for which PyTorch registers a CPU fallback on MPS itself"),
                  std::string::npos) << message;
        EXPECT_EQ(message.find("raises NotImplementedError"), std::string::npos) << message;
      }
    }
    EXPECT_EQ(doc["verdict"], "mps-ready") << "info findings alone leave the repository ready";
  }
  repo.write("model.py",
             "import torch\n\n\ndef f(x, grid):\n    return torch.cudnn_grid_sampler(x, grid), torch.linalg.svdvals(x)\n");
  const auto cuda_only = scan_json(repo.path(), "");
  ASSERT_EQ(cuda_only["findings"].size(), 2u) << cuda_only.dump(1);
  for (const auto& f : cuda_only["findings"]) {
    const std::string message = f["message"];
    if (message.find("cudnn_grid_sampler") != std::string::npos) {
      EXPECT_EQ(f["impact"], "portable");
      EXPECT_NE(message.find("it has no CPU kernel either, so the fallback cannot run it"), std::string::npos) << message;
    } else {
      EXPECT_EQ(f["impact"], "info");
    }
  }
  EXPECT_EQ(cuda_only["verdict"], "partial");
}

TEST(OpCoverageScan, TheTargetVersionComesFromTheFlagOrTheConfiguration) {
  TempDir repo;
  repo.write("model.py", kCalls);
  const auto flag = scan_json(repo.path(), "--torch-version 1.13");
  EXPECT_EQ(flagged_ops(flag), (std::vector<std::string>{"aten::linalg_eig", "aten::cumsum"}));
  EXPECT_EQ(repo_note(flag), "");
  for (const auto& f : flag["findings"]) {
    EXPECT_EQ(f["category"], "op-coverage");
    EXPECT_EQ(f["impact"], "info") << "both have CPU kernels";
    EXPECT_NE(f["message"].get<std::string>().find("PyTorch 1.13"), std::string::npos);
    EXPECT_NE(f["message"].get<std::string>().find("PYTORCH_ENABLE_MPS_FALLBACK=1"), std::string::npos);
  }
  // By default, the newest bundled table (2.11): cumsum has an MPS kernel there.
  EXPECT_EQ(flagged_ops(scan_json(repo.path(), "")), (std::vector<std::string>{"aten::linalg_eig"}));
  repo.write(".mpsready.json", R"({"target_pytorch": "1.13"})");
  EXPECT_EQ(flagged_ops(scan_json(repo.path(), "")).size(), 2u);
  repo.write(".mpsready.json", R"({"target_pytorch": "9.9"})");
  const auto none = scan_json(repo.path(), "");
  EXPECT_TRUE(none["findings"].empty());
  EXPECT_NE(repo_note(none).find("op-coverage: no bundled op-status table for PyTorch 9.9 (bundled: 1.13.0a0, "
                                 "2.11.0); pass --native-functions 9.9=PATH"),
            std::string::npos)
      << none["skipped"].dump();
}

TEST(OpCoverageScan, AnOpMissingIn113AndOnMpsIn211IsAFindingOnlyFor113) {
  TempDir repo;
  repo.write("stats.py",
             "import torch\n\n\ndef f(x):\n    values, indices = torch.kthvalue(x, 2)\n"
             "    return values, torch.histc(x, bins=4), x.kthvalue(1)\n");
  const auto old_release = scan_json(repo.path(), "--torch-version 1.13");
  EXPECT_EQ(flagged_ops(old_release),
            (std::vector<std::string>{"aten::kthvalue", "aten::histc", "aten::kthvalue"}));
  // kthvalue is generic: that it is missing is inferred from its out= overload, and the message says so.
  const std::string kth = old_release["findings"][0]["message"];
  EXPECT_NE(kth.find("runs `aten::kthvalue` (inferred: its one CompositeExplicitAutograd kernel runs the out= "
                     "overload `aten::kthvalue.values`, which has device kernels but none for MPS), which has no "
                     "MPS kernel in PyTorch 1.13.0a0 (from pytorch-1.13.0a0.tsv)"),
            std::string::npos)
      << kth;
  const std::string histc = old_release["findings"][1]["message"];
  EXPECT_EQ(histc.find("inferred"), std::string::npos) << "a fact of the yaml, not an inference: " << histc;
  // The default, the newest bundled table (2.11), has MPS kernels for both.
  EXPECT_TRUE(scan_json(repo.path(), "")["findings"].empty());
  EXPECT_TRUE(scan_json(repo.path(), "--torch-version 2.11")["findings"].empty());
  // In SARIF and HTML the inferred status is marked too (through the message).
  EXPECT_NE(scan_output(repo.path(), "--torch-version 1.13", "sarif").find("(inferred: its one"), std::string::npos);
  EXPECT_NE(scan_output(repo.path(), "--torch-version 1.13", "html").find("(inferred: its one"), std::string::npos);
}

TEST(OpCoverageScan, NothingInstalledOnTheMachineChangesTheAnswerOrAppearsInAReport) {
  TempDir repo;
  repo.write("model.py", kCalls);
  // A virtual environment whose PyTorch claims an MPS kernel for every op: not consulted.
  TempDir venv;
  venv.write("lib/python3.11/site-packages/torch/version.py", "__version__ = '9.0.0'\n");
  venv.write("lib/python3.11/site-packages/torchgen/packaged/ATen/native/native_functions.yaml",
             "- func: linalg_eig(Tensor self) -> (Tensor eigenvalues, Tensor eigenvectors)\n"
             "  dispatch:\n    CPU, CUDA, MPS: linalg_eig\n");
  const std::string env = "VIRTUAL_ENV='" + venv.path().string() + "' MPSREADY_NATIVE_FUNCTIONS='" + kDebianYaml + "' ";
  const char* bin = std::getenv("MPSREADY_BIN");
  const auto with_env = [&](const std::string& format) {
    const std::string cmd = env + "'" + (bin ? bin : "mpsready") + "' scan '" + repo.path().string() +
                            "' --select py-op-no-mps-kernel --format " + format + " 2>/dev/null";
    std::string out;
    FILE* pipe = popen(cmd.c_str(), "r");
    std::array<char, 4096> buf{};
    size_t n = 0;
    while (pipe && (n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
    if (pipe) pclose(pipe);
    return out;
  };
  EXPECT_EQ(with_env("json"), scan_output(repo.path(), ""));
  EXPECT_EQ(flagged_ops(nlohmann::json::parse(with_env("json"))), (std::vector<std::string>{"aten::linalg_eig"}));
  // No directory of this machine in any format: not the venv's, not Debian's, not the rules'.
  TempDir elsewhere;
  const fs::path given = elsewhere.write("nf/native_functions.yaml", "- func: linalg_eig(Tensor self) -> Tensor\n"
                                                                     "  dispatch:\n    CPU, CUDA: linalg_eig\n");
  for (const std::string& format : {"text", "json", "sarif", "markdown", "html"}) {
    for (const std::string& extra : {std::string(), "--native-functions 2.0=" + given.string()}) {
      const std::string out = scan_output(repo.path(), extra, format);
      // The Markdown comment sums findings up by rule; the others carry the message.
      EXPECT_NE(out.find(format == "markdown" ? "py-op-no-mps-kernel" : "linalg_eig"), std::string::npos)
          << format << " " << extra;
      EXPECT_EQ(out.find(elsewhere.path().string()), std::string::npos) << format << " " << extra;
      EXPECT_EQ(out.find("/usr/lib/python3"), std::string::npos) << format;
      EXPECT_EQ(out.find(source_dir().string() + "/rules"), std::string::npos) << format;
      EXPECT_EQ(out.find(venv.path().string()), std::string::npos) << format;
    }
  }
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
  EXPECT_NE(newest["findings"][0]["message"].get<std::string>().find("PyTorch 2.1 (from newer.yaml)"),
            std::string::npos)
      << newest["findings"][0]["message"];
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
