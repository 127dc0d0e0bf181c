// The aten ops of TorchScript models (built here with Module::define, or traced by Debian's
// PyTorch), their MPS status in PyTorch 1.13 (Debian's yaml, the bundled table) and 2.11 (the
// bundled table, the default), `mpsready ops`, the live dispatcher lookup, and the scanner flagging
// the same ops in Python source.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <map>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>
#include <torch/script.h>

#include "ops/dispatcher_status.h"
#include "ops/model_op_coverage.h"
#include "ops/module_ops.h"
#include "ops/op_coverage_source.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

const std::string kDebianYaml = "/usr/lib/python3/dist-packages/torchgen/packaged/ATen/native/native_functions.yaml";

// forward calls a submodule and has a loop inside an if; the submodule has a second method that
// forward never calls.
torch::jit::Module nested_model() {
  torch::jit::Module child("Child");
  child.define(R"(
def forward(self, x):
    L, info = torch.linalg_cholesky_ex(x)
    return L

def spectrum(self, x):
    return torch.fft_rfft(x)
)");
  torch::jit::Module model("Nested");
  model.register_module("child", child);
  model.define(R"(
def forward(self, x):
    y = torch.relu(x)
    z = torch.matmul(y, y)
    if bool(z.sum() > 0):
        for i in range(2):
            z = torch.cumsum(z, 0)
    q, r = torch.linalg_qr(z)
    return q + self.child.forward(r)
)");
  return model;
}

// Linear algebra with no MPS kernel in 1.13, and two ops that run on MPS. TorchScript compiled
// from C++ names aten ops directly (`torch.linalg_eig` is what `torch.linalg.eig` compiles to).
const char* kLinalgModelSource = R"(
def forward(self, a):
    w, v = torch.linalg_eig(a)
    q, r = torch.linalg_qr(a)
    L, info = torch.linalg_cholesky_ex(a)
    inv, info2 = torch.linalg_inv_ex(a)
    s = torch.cumsum(a, 0)
    y = torch.relu(torch.matmul(q, r))
    return w, L, inv, s, y
)";

// The same calls as the model, as a lab's Python code writes them.
const char* kLinalgPythonSource = R"(import torch


def features(a):
    w, v = torch.linalg.eig(a)
    q, r = torch.linalg.qr(a)
    L, info = torch.linalg.cholesky_ex(a)
    inv, info2 = torch.linalg.inv_ex(a)
    s = torch.cumsum(a, 0)
    y = torch.relu(torch.matmul(q, r))
    return w, L, inv, s, y
)";

const ModuleOp* find_op(const std::vector<ModuleOp>& ops, const std::string& name) {
  for (const auto& op : ops)
    if (op.name == name) return &op;
  return nullptr;
}

std::set<std::string> missing_ops(const OpCoverageReport& report) {
  std::set<std::string> names;
  for (const auto& row : predicted_fallbacks(report)) names.insert(row.op.name);
  return names;
}

std::set<std::string> missing_ops(const nlohmann::json& doc) {
  std::set<std::string> names;
  for (const auto& op : doc["ops"])
    if (op["mps"] == "missing") names.insert(op["name"].get<std::string>());
  return names;
}

ModelCoverageOptions debian_yaml() {
  ModelCoverageOptions options;
  options.settings.native_functions = {kDebianYaml};
  return options;
}

struct CommandRun {
  int code = -1;
  std::string out;
};

CommandRun run(const std::string& cmd) {
  CommandRun r;
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

CommandRun mpsready_ops(const std::string& args) {
  const char* bin = std::getenv("MPSREADY_BIN");
  return run(std::string("'") + (bin ? bin : "mpsready") + "' ops " + args);
}

// Traces torch.nn.TransformerEncoderLayer with Debian's python3-torch into `out`.
void trace_transformer(const fs::path& out, const std::string& mode) {
  const std::string script = (source_dir() / "tests" / "ops" / "trace_transformer.py").string();
  const CommandRun r = run(std::string(MPSREADY_PYTHON3) + " '" + script + "' '" + out.string() + "' " + mode);
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(out));
}

}  // namespace

TEST(ModuleOps, EveryMethodSubmoduleAndNestedBlockIsListed) {
  const std::vector<ModuleOp> ops = list_aten_ops(nested_model());
  for (const char* name : {"relu", "matmul", "sum", "cumsum", "linalg_qr", "add", "linalg_cholesky_ex", "fft_rfft"})
    EXPECT_NE(find_op(ops, name), nullptr) << "aten::" << name << " not listed";
  EXPECT_EQ(find_op(ops, "cumsum")->count, 1u) << "the loop body holds one cumsum node";
  EXPECT_EQ(find_op(ops, "add")->overload, "Tensor");
  EXPECT_EQ(find_op(ops, "linalg_cholesky_ex")->count, 1u) << "inlined from self.child once, not counted twice";
  EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end(), [](const ModuleOp& a, const ModuleOp& b) {
    return std::tie(a.name, a.overload) < std::tie(b.name, b.overload);
  }));
}

TEST(ModuleOps, MissingOpsOfPyTorch113AreNamed) {
  const ModelCoverage coverage = model_op_coverage(nested_model(), debian_yaml());
  ASSERT_TRUE(coverage.error.empty()) << coverage.error;
  EXPECT_EQ(coverage.report.torch_version.rfind("1.13", 0), 0u);
  EXPECT_EQ(coverage.report.source, "native_functions.yaml of PyTorch 1.13.0a0 (native_functions.yaml)")
      << "the file's name, not its path on this machine";
  EXPECT_EQ(missing_ops(coverage.report), (std::set<std::string>{"cumsum", "linalg_cholesky_ex", "linalg_qr"}));
  for (const auto& row : coverage.report.ops) {
    if (row.op.name == "relu") EXPECT_EQ(row.mps, OpStatus::kernel);
    if (row.op.name == "matmul") EXPECT_EQ(row.mps, OpStatus::composite);
    if (row.op.name == "fft_rfft") EXPECT_EQ(row.mps, OpStatus::composite);
  }
}

TEST(OpsCommand, JsonAndTextNameTheMissingOps) {
  TempDir tmp;
  const fs::path model = tmp.path() / "nested.pt";
  nested_model().save(model.string());
  const CommandRun json_run = mpsready_ops("'" + model.string() + "' --format json --native-functions " + kDebianYaml);
  ASSERT_EQ(json_run.code, 0) << json_run.out;
  const auto doc = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(doc["torch_version"].get<std::string>().rfind("1.13", 0), 0u);
  EXPECT_EQ(doc["source"].get<std::string>().find("/usr/lib"), std::string::npos) << doc["source"];
  EXPECT_EQ(missing_ops(doc), (std::set<std::string>{"aten::cumsum", "aten::linalg_cholesky_ex", "aten::linalg_qr"}));
  EXPECT_EQ(doc["summary"]["missing"], 3);
  for (const auto& op : doc["ops"]) {
    EXPECT_TRUE(op.contains("overload") && op.contains("count"));
    EXPECT_TRUE(op["mps"] == "kernel" || op["mps"] == "composite" || op["mps"] == "generic" ||
                op["mps"] == "missing" || op["mps"] == "unknown");
  }
  // Byte-identical on a second run.
  EXPECT_EQ(mpsready_ops("'" + model.string() + "' --format json --native-functions " + kDebianYaml).out, json_run.out);

  const CommandRun text = mpsready_ops("'" + model.string() + "' --native-functions " + kDebianYaml);
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"(\n  missing +aten::cumsum +x1  \(CPU fallback)"))) << text.out;
  EXPECT_NE(text.out.find("summary: kernel"), std::string::npos);
}

TEST(OpsCommand, BadInputsAreUsageErrors) {
  TempDir tmp;
  EXPECT_EQ(mpsready_ops("'" + (tmp.path() / "absent.pt").string() + "'").code, 2);
  const fs::path junk = tmp.write("junk.pt", "not a zip archive");
  const CommandRun r = mpsready_ops("'" + junk.string() + "' --native-functions " + kDebianYaml);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("not a TorchScript file"), std::string::npos) << r.out;
  const fs::path model = tmp.path() / "m.pt";
  nested_model().save(model.string());
  const CommandRun no_version = mpsready_ops("'" + model.string() + "' --torch-version 9.9 --native-functions " + kDebianYaml);
  EXPECT_EQ(no_version.code, 2);
  EXPECT_NE(no_version.out.find("no native_functions.yaml for PyTorch 9.9"), std::string::npos) << no_version.out;
  const CommandRun bad_yaml = mpsready_ops("'" + model.string() + "' --native-functions '" +
                                    (source_dir() / "tests/ops/yaml/invalid_yaml.yaml").string() + "'");
  EXPECT_EQ(bad_yaml.code, 2);
  EXPECT_NE(bad_yaml.out.find("not valid YAML"), std::string::npos) << bad_yaml.out;
}

TEST(OpsCommand, TracedTransformerBlockNeedsTheFusedEncoderOpIn113) {
  TempDir tmp;
  trace_transformer(tmp.path() / "eval.pt", "eval");
  trace_transformer(tmp.path() / "train.pt", "train");
  // Inference under no_grad traces PyTorch's fast path: one fused op, CPU and CUDA only in 1.13.
  const CommandRun eval_run = mpsready_ops("'" + (tmp.path() / "eval.pt").string() + "' --format json --torch-version 1.13");
  ASSERT_EQ(eval_run.code, 0) << eval_run.out;
  EXPECT_EQ(missing_ops(nlohmann::json::parse(eval_run.out)),
            (std::set<std::string>{"aten::_transformer_encoder_layer_fwd"}));
  // Training mode runs separate ops, each with an MPS kernel or composite in 1.13.
  const CommandRun train_run = mpsready_ops("'" + (tmp.path() / "train.pt").string() + "' --format json --torch-version 1.13");
  ASSERT_EQ(train_run.code, 0) << train_run.out;
  const auto train = nlohmann::json::parse(train_run.out);
  EXPECT_TRUE(missing_ops(train).empty()) << train.dump(1);
  std::map<std::string, std::string> status;
  for (const auto& op : train["ops"]) status[op["name"]] = op["mps"];
  EXPECT_EQ(status["aten::linear"], "kernel");
  EXPECT_EQ(status["aten::softmax"], "composite");
  EXPECT_EQ(status["aten::layer_norm"], "composite");
  EXPECT_EQ(status["aten::bmm"], "kernel");
}

// The issue's model: torch.linalg.svd, torch.kthvalue and torch.histc, as TorchScript names them.
torch::jit::Module svd_kthvalue_histc_model() {
  torch::jit::Module model("SvdKthHistc");
  model.define(R"(
def forward(self, x):
    u, s, vh = torch.linalg_svd(x)
    values, indices = torch.kthvalue(x, 2)
    h = torch.histc(x, 4)
    return s, values, h
)");
  return model;
}

TEST(OpsCommand, TheBundledTablesAnswerWithoutAnyYamlAndMarkInferredStatuses) {
  TempDir tmp;
  const fs::path model = tmp.path() / "svd.pt";
  svd_kthvalue_histc_model().save(model.string());
  // The default: the newest bundled table, PyTorch 2.11. kthvalue's out= overload and histc have MPS kernels.
  const CommandRun newest = mpsready_ops("'" + model.string() + "' --format json");
  ASSERT_EQ(newest.code, 0) << newest.out;
  const auto doc = nlohmann::json::parse(newest.out);
  EXPECT_EQ(doc["torch_version"], "2.11.0");
  EXPECT_EQ(doc["source"], "op-status table of PyTorch 2.11.0 (pytorch-2.11.0.tsv)");
  std::map<std::string, nlohmann::json> ops;
  for (const auto& op : doc["ops"]) ops[op["name"]] = op;
  EXPECT_EQ(ops["aten::kthvalue"]["mps"], "generic");
  EXPECT_EQ(ops["aten::histc"]["mps"], "kernel");
  EXPECT_EQ(ops["aten::linalg_svd"]["mps"], "composite") << "the static graph cannot see _linalg_svd.U inside";
  EXPECT_TRUE(missing_ops(doc).empty());
  // Every bundled table is read: from which release on each op runs on MPS, inferred statuses marked.
  EXPECT_EQ(ops["aten::kthvalue"]["versions"]["1.13.0a0"], "missing (inferred)");
  EXPECT_EQ(ops["aten::kthvalue"]["versions"]["2.11.0"], "generic");
  EXPECT_EQ(ops["aten::kthvalue"]["mps_from"], "2.11.0");
  EXPECT_EQ(ops["aten::histc"]["versions"]["1.13.0a0"], "missing");
  EXPECT_EQ(ops["aten::histc"]["mps_from"], "2.11.0");
  EXPECT_FALSE(ops["aten::kthvalue"].contains("inferred")) << "not inferred in the answering release";

  // --torch-version 1.13 picks the bundled 1.13 table: kthvalue is missing (inferred), histc missing.
  const CommandRun old_json = mpsready_ops("'" + model.string() + "' --format json --torch-version 1.13");
  ASSERT_EQ(old_json.code, 0) << old_json.out;
  const auto old_doc = nlohmann::json::parse(old_json.out);
  EXPECT_EQ(old_doc["source"], "op-status table of PyTorch 1.13.0a0 (pytorch-1.13.0a0.tsv)");
  EXPECT_EQ(missing_ops(old_doc), (std::set<std::string>{"aten::histc", "aten::kthvalue"}));
  for (const auto& op : old_doc["ops"]) {
    if (op["name"] == "aten::kthvalue") {
      EXPECT_EQ(op["inferred"], true);
      EXPECT_EQ(op["through"], "aten::kthvalue.values");
    } else {
      EXPECT_FALSE(op.contains("inferred")) << op.dump();
    }
  }
  EXPECT_EQ(old_doc["summary"]["missing"], 2);
  EXPECT_EQ(old_doc["summary"]["inferred"], 1);
  const CommandRun old_text = mpsready_ops("'" + model.string() + "' --torch-version 1.13");
  ASSERT_EQ(old_text.code, 0) << old_text.out;
  EXPECT_TRUE(std::regex_search(old_text.out, std::regex(R"(\n  missing \(inferred\) +aten::kthvalue +x1  \(its generic kernel runs aten::kthvalue.values, which has no MPS kernel\))")))
      << old_text.out;
  EXPECT_TRUE(std::regex_search(old_text.out, std::regex(R"(\n  missing +aten::histc +x1  \(CPU fallback)"))) << old_text.out;
  // The bundled 1.13 table and Debian's 1.13 yaml give the same answer.
  const CommandRun debian = mpsready_ops("'" + model.string() + "' --format json --native-functions " + kDebianYaml);
  ASSERT_EQ(debian.code, 0) << debian.out;
  nlohmann::json one_release = old_doc["ops"];  // one file given: no versions to compare
  for (auto& op : one_release) {
    op.erase("versions");
    op.erase("mps_from");
  }
  EXPECT_EQ(nlohmann::json::parse(debian.out)["ops"], one_release);
}

TEST(SmokePrediction, TheDefaultIsTheNewestBundledTable) {
  ModelCoverageOptions bundled;
  bundled.settings.tables_dir = source_dir() / "rules" / "tables" / "op_status";
  EXPECT_EQ(*predict_mps_fallbacks(svd_kthvalue_histc_model(), "mps", bundled), std::vector<std::string>{});
  bundled.settings.torch_version = "1.13";
  EXPECT_EQ(*predict_mps_fallbacks(svd_kthvalue_histc_model(), "mps", bundled),
            (std::vector<std::string>{"aten::histc", "aten::kthvalue"}));
}

TEST(OpsCommand, LinearAlgebraModelAndPythonSourceNameTheSameMissingOps) {
  torch::jit::Module model("Linalg");
  model.define(kLinalgModelSource);
  const ModelCoverage coverage = model_op_coverage(model, debian_yaml());
  ASSERT_TRUE(coverage.error.empty()) << coverage.error;
  const std::set<std::string> expected = {"cumsum", "linalg_cholesky_ex", "linalg_eig", "linalg_inv_ex", "linalg_qr"};
  EXPECT_EQ(missing_ops(coverage.report), expected);

  TempDir repo;
  repo.write("features.py", kLinalgPythonSource);
  OpCoverageSource::shared().configure({{kDebianYaml}, ""});
  const ScanResult result = scan(repo.path(), {"py-op-no-mps-kernel"});
  std::set<std::string> flagged;
  const std::regex op_in_message("runs `aten::([A-Za-z0-9_]+)`");
  for (const Finding& f : result.findings) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(f.message, m, op_in_message)) << f.message;
    flagged.insert(m[1]);
    EXPECT_NE(f.message.find("PyTorch 1.13"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("(from native_functions.yaml)"), std::string::npos) << f.message;
    EXPECT_EQ(f.message.find("/usr/lib"), std::string::npos) << f.message;
  }
  EXPECT_EQ(flagged, expected);
  OpCoverageSource::shared().configure({});
}

TEST(SmokePrediction, NamesTheMissingOpsForMpsRunsOnly) {
  const auto on_mps = predict_mps_fallbacks(nested_model(), "mps", debian_yaml());
  ASSERT_TRUE(on_mps.has_value());
  EXPECT_EQ(*on_mps, (std::vector<std::string>{"aten::cumsum", "aten::linalg_cholesky_ex", "aten::linalg_qr"}));
  EXPECT_FALSE(predict_mps_fallbacks(nested_model(), "cpu", debian_yaml()).has_value());
  ModelCoverageOptions no_yaml;
  no_yaml.settings.native_functions = {"/nonexistent/native_functions.yaml"};
  EXPECT_FALSE(predict_mps_fallbacks(nested_model(), "mps", no_yaml).has_value());
}

TEST(Dispatcher, AnswersFromTheLinkedLibTorch) {
  // This LibTorch has no MPS (Linux): the dispatcher path is never chosen here, but the lookup
  // runs for real against the CPU key.
#if !defined(__APPLE__)
  EXPECT_FALSE(dispatcher_has_mps());
  EXPECT_EQ(dispatcher_op_status("relu", "", DispatcherBackend::mps), OpStatus::missing);
#endif
  EXPECT_EQ(dispatcher_op_status("add", "Tensor", DispatcherBackend::cpu), OpStatus::kernel);
  EXPECT_EQ(dispatcher_op_status("linalg_det", "", DispatcherBackend::cpu), OpStatus::composite);
  EXPECT_EQ(dispatcher_op_status("no_such_op_anywhere", "", DispatcherBackend::cpu), OpStatus::unknown);
  EXPECT_FALSE(linked_torch_version().empty());
}

}  // namespace mpsready::testing
