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
  EXPECT_EQ(predict_mps_fallbacks(svd_kthvalue_histc_model(), "mps", bundled)->ops, std::vector<std::string>{});
  bundled.settings.torch_version = "1.13";
  EXPECT_EQ(predict_mps_fallbacks(svd_kthvalue_histc_model(), "mps", bundled)->ops,
            (std::vector<std::string>{"aten::histc", "aten::kthvalue"}));
}

// A small CNN, its weights registered as parameters.
torch::jit::Module small_cnn() {
  torch::manual_seed(0);
  torch::jit::Module model("SmallCnn");
  model.register_parameter("conv_w", torch::randn({4, 3, 3, 3}), false);
  model.register_parameter("conv_b", torch::randn({4}), false);
  model.register_parameter("fc_w", torch::randn({10, 4}), false);
  model.register_parameter("fc_b", torch::randn({10}), false);
  model.define(R"(
def forward(self, x):
    y = torch.relu(torch.conv2d(x, self.conv_w, self.conv_b, [1, 1], [1, 1]))
    y = torch.max_pool2d(y, [2, 2])
    y = torch.adaptive_avg_pool2d(y, [1, 1])
    return torch.linear(torch.flatten(y, 1), self.fc_w, self.fc_b)
)");
  return model;
}

ModelCoverageOptions traced(ModelCoverageOptions options, std::vector<torch::Tensor> inputs) {
  options.inputs = std::move(inputs);
  return options;
}

ModelCoverageOptions bundled_table(const std::string& version) {
  ModelCoverageOptions options;
  options.settings.tables_dir = source_dir() / "rules" / "tables" / "op_status";
  options.settings.torch_version = version;
  return options;
}

const OpCoverageRow& row_of(const OpCoverageReport& report, const std::string& qualified_name) {
  for (const auto& row : report.ops)
    if (qualified(row.op) == qualified_name) return row;
  throw std::runtime_error(qualified_name + " was not traced");
}

std::set<std::string> falls_back(const OpCoverageReport& report) {
  std::set<std::string> names;
  for (const auto& row : predicted_fallbacks(report)) names.insert(qualified(row.op));
  return names;
}

using Chain = std::vector<std::string>;

TEST(OpTrace, SeesThroughCompositesUnderPyTorch113) {
  const ModelCoverage coverage =
      model_op_coverage(svd_kthvalue_histc_model(), traced(debian_yaml(), {torch::randn({4, 4})}));
  ASSERT_TRUE(coverage.error.empty()) << coverage.error;
  const OpCoverageReport& report = coverage.report;
  EXPECT_EQ(report.method, "trace");
  // All three of the model's calls are missing, each with the chain to the op that falls back.
  const OpCoverageRow& svd = row_of(report, "aten::linalg_svd");
  EXPECT_EQ(svd.mps, OpStatus::missing);
  EXPECT_EQ(svd.own, OpStatus::composite);
  EXPECT_EQ(svd.chains, (std::vector<Chain>{{"aten::linalg_svd", "aten::_linalg_svd", "aten::_linalg_svd.U"}}));
  const OpCoverageRow& kth = row_of(report, "aten::kthvalue");
  EXPECT_EQ(kth.mps, OpStatus::missing);
  EXPECT_FALSE(kth.inferred) << "the trace saw the out= call: no longer an inference";
  EXPECT_EQ(kth.chains, (std::vector<Chain>{{"aten::kthvalue", "aten::kthvalue.values"}}));
  const OpCoverageRow& histc = row_of(report, "aten::histc");
  EXPECT_EQ(histc.mps, OpStatus::missing);
  EXPECT_EQ(histc.chains, (std::vector<Chain>{{"aten::histc"}}));
  EXPECT_EQ(row_of(report, "aten::kthvalue.values").callers, (std::vector<std::string>{"aten::kthvalue"}));
  // Smoke's prediction names the ops where the fallback happens.
  EXPECT_EQ(falls_back(report), (std::set<std::string>{"aten::_linalg_svd", "aten::histc", "aten::kthvalue.values"}));
  // What the missing _linalg_svd runs inside its CPU kernel is not dispatched for MPS.
  for (const auto& row : report.ops)
    if (std::find(row.callers.begin(), row.callers.end(), "aten::_linalg_svd") != row.callers.end() &&
        row.callers.size() == 1)
      EXPECT_FALSE(row.dispatched_on_mps) << qualified(row.op);
}

TEST(OpTrace, PyTorch211HasKernelsForKthvalueAndHistcButNotSvd) {
  const ModelCoverage coverage =
      model_op_coverage(svd_kthvalue_histc_model(), traced(bundled_table("2.11"), {torch::randn({4, 4})}));
  ASSERT_TRUE(coverage.error.empty()) << coverage.error;
  const OpCoverageReport& report = coverage.report;
  EXPECT_EQ(report.torch_version, "2.11.0");
  EXPECT_EQ(row_of(report, "aten::linalg_svd").chains,
            (std::vector<Chain>{{"aten::linalg_svd", "aten::_linalg_svd", "aten::_linalg_svd.U"}}));
  EXPECT_EQ(row_of(report, "aten::kthvalue").mps, OpStatus::generic);
  EXPECT_EQ(row_of(report, "aten::kthvalue.values").mps, OpStatus::kernel);
  EXPECT_EQ(row_of(report, "aten::histc").mps, OpStatus::kernel);
  EXPECT_EQ(falls_back(report), (std::set<std::string>{"aten::_linalg_svd"}));
  // Smoke gets the same answer, marked as traced.
  const auto prediction = predict_mps_fallbacks(svd_kthvalue_histc_model(), "mps",
                                                traced(bundled_table("2.11"), {torch::randn({4, 4})}));
  ASSERT_TRUE(prediction.has_value());
  EXPECT_EQ(prediction->method, "trace");
  EXPECT_EQ(prediction->ops, (std::vector<std::string>{"aten::_linalg_svd"}));
}

TEST(OpTrace, AFailingForwardPassLeavesSmokeTheGraph) {
  // A 1-d input: linalg_svd needs a matrix, so the CPU pass throws.
  const auto prediction =
      predict_mps_fallbacks(svd_kthvalue_histc_model(), "mps", traced(bundled_table("1.13"), {torch::randn({4})}));
  ASSERT_TRUE(prediction.has_value());
  EXPECT_EQ(prediction->method, "graph");
  EXPECT_NE(prediction->trace_error.find("forward pass"), std::string::npos) << prediction->trace_error;
  EXPECT_EQ(prediction->ops, (std::vector<std::string>{"aten::histc", "aten::kthvalue"}));
}

TEST(OpTrace, SmallCnnKeepsItsAnswer) {
  const torch::jit::Module cnn = small_cnn();
  for (const std::string version : {"1.13", "2.11"}) {
    const ModelCoverage graph = model_op_coverage(cnn, bundled_table(version));
    const ModelCoverage trace = model_op_coverage(cnn, traced(bundled_table(version), {torch::randn({2, 3, 8, 8})}));
    ASSERT_TRUE(graph.error.empty() && trace.error.empty()) << graph.error << trace.error;
    EXPECT_EQ(falls_back(trace.report), std::set<std::string>{}) << version;
    EXPECT_EQ(missing_ops(graph.report), std::set<std::string>{}) << version;
    // The trace sees below the graph: conv2d's composite reaches the convolution that runs.
    EXPECT_EQ(row_of(trace.report, "aten::conv2d").mps, OpStatus::composite);
    EXPECT_TRUE(row_of(trace.report, "aten::convolution").dispatched_on_mps);
  }
}

TEST(OpsCommand, InputsTraceWhatRunsAndTheTransformerKeepsItsAnswer) {
  TempDir tmp;
  const fs::path model = tmp.path() / "svd.pt";
  svd_kthvalue_histc_model().save(model.string());
  const CommandRun json_run = mpsready_ops("'" + model.string() + "' --format json --torch-version 1.13 --input 4x4:float32");
  ASSERT_EQ(json_run.code, 0) << json_run.out;
  const auto doc = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(doc["method"], "trace");
  EXPECT_FALSE(doc.contains("note"));
  EXPECT_EQ(doc["summary"]["falls_back"],
            nlohmann::json::parse(R"(["aten::_linalg_svd", "aten::histc", "aten::kthvalue.values"])"));
  for (const auto& op : doc["ops"])
    if (op["name"] == "aten::linalg_svd") {
      EXPECT_EQ(op["mps"], "missing");
      EXPECT_EQ(op["own_status"], "composite");
      EXPECT_EQ(op["chains"], nlohmann::json::parse(R"([["aten::linalg_svd", "aten::_linalg_svd", "aten::_linalg_svd.U"]])"));
      EXPECT_EQ(op["called_from"], nlohmann::json::parse(R"(["model"])"));
    }
  EXPECT_EQ(mpsready_ops("'" + model.string() + "' --format json --torch-version 1.13 --input 4x4:float32").out,
            json_run.out)
      << "byte-identical on a second run";
  const CommandRun text = mpsready_ops("'" + model.string() + "' --torch-version 1.13 --input 4x4:float32");
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("(aten::linalg_svd → aten::_linalg_svd → aten::_linalg_svd.U: missing)"), std::string::npos)
      << text.out;
  // Without inputs the graph answers and says what it cannot see.
  const auto graph = nlohmann::json::parse(mpsready_ops("'" + model.string() + "' --format json").out);
  EXPECT_EQ(graph["method"], "graph");
  EXPECT_NE(graph["note"].get<std::string>().find("not seen"), std::string::npos);
  EXPECT_EQ(mpsready_ops("'" + model.string() + "' --input 4x4:float32 --inputs x.pt").code, 2);

  // The fused encoder op stays the one fallback of an inference transformer block.
  trace_transformer(tmp.path() / "eval.pt", "eval");
  const CommandRun eval_run = mpsready_ops("'" + (tmp.path() / "eval.pt").string() +
                                           "' --format json --torch-version 1.13 --input 2x5x32:float32");
  ASSERT_EQ(eval_run.code, 0) << eval_run.out;
  EXPECT_EQ(nlohmann::json::parse(eval_run.out)["summary"]["falls_back"],
            nlohmann::json::parse(R"(["aten::_transformer_encoder_layer_fwd"])"));
}

TEST(OpsCommand, ARecordedTraceIsAnsweredWithoutItsModel) {
  // Recorded under LibTorch 2.11 on another machine (tests/ops/traces/README.md).
  const std::string trace = (source_dir() / "tests/ops/traces/pytorch-2.11.0/svd_kthvalue_histc.tsv").string();
  const CommandRun json_run = mpsready_ops("--trace '" + trace + "' --format json");
  ASSERT_EQ(json_run.code, 0) << json_run.out;
  const auto doc = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(doc["method"], "trace");
  EXPECT_EQ(doc["traced_with"], "LibTorch 2.11.0");
  EXPECT_EQ(doc["torch_version"], "2.11.0");
  EXPECT_EQ(doc["summary"]["falls_back"], nlohmann::json::parse(R"(["aten::_linalg_svd"])"));
  const CommandRun old_run = mpsready_ops("--trace '" + trace + "' --format json --torch-version 1.13");
  ASSERT_EQ(old_run.code, 0) << old_run.out;
  EXPECT_EQ(nlohmann::json::parse(old_run.out)["summary"]["falls_back"],
            nlohmann::json::parse(R"(["aten::_linalg_svd", "aten::histc", "aten::kthvalue.values"])"));
  const CommandRun text_run = mpsready_ops("--trace '" + trace + "'");
  ASSERT_EQ(text_run.code, 0) << text_run.out;
  EXPECT_NE(text_run.out.find("dispatched by one forward pass on the CPU (recorded with LibTorch 2.11.0)"), std::string::npos)
      << text_run.out;
  // Usage errors: a model and a trace, neither, inputs for a trace, a file that is not a trace.
  TempDir tmp;
  const fs::path model = tmp.path() / "svd.pt";
  svd_kthvalue_histc_model().save(model.string());
  const CommandRun both = mpsready_ops("'" + model.string() + "' --trace '" + trace + "'");
  EXPECT_EQ(both.code, 2);
  EXPECT_NE(both.out.find("give a model file or --trace FILE (one of the two)"), std::string::npos) << both.out;
  EXPECT_EQ(mpsready_ops("--format json").code, 2);
  const CommandRun with_input = mpsready_ops("--trace '" + trace + "' --input 4x4:float32");
  EXPECT_EQ(with_input.code, 2);
  EXPECT_NE(with_input.out.find("--trace already lists what ran"), std::string::npos) << with_input.out;
  tmp.write("bad.tsv", "# op\tcaller\tcount (LibTorch 2.11.0)\naten::relu - 1\n");
  const CommandRun bad = mpsready_ops("--trace '" + (tmp.path() / "bad.tsv").string() + "'");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("bad.tsv: line 2: expected three tab-separated fields"), std::string::npos) << bad.out;
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
  EXPECT_EQ(on_mps->ops, (std::vector<std::string>{"aten::cumsum", "aten::linalg_cholesky_ex", "aten::linalg_qr"}));
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
