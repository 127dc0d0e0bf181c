// Traces recorded under another PyTorch release by mpsready-trace-ops: the svd/kthvalue/histc
// model, a small CNN and a TransformerEncoderLayer in inference, each run once on the CPU by
// LibTorch 2.11.0 (the pip wheel on a CUDA machine, scripts/record-trace-on-device.sh). Under 2.11
// the calls differ from 1.13's (histc goes through aminmax and linspace.out), and the answer must
// still be the one the issue states: only _linalg_svd.U has no MPS kernel. The excerpt of that
// release's native_functions.yaml answers as the bundled table does.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "ops/native_functions.h"
#include "ops/native_functions_discovery.h"
#include "ops/op_trace_report.h"
#include "ops/recorded_trace.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

fs::path traces_dir() { return source_dir() / "tests" / "ops" / "traces" / "pytorch-2.11.0"; }

RecordedTrace recorded(const std::string& name) {
  RecordedTrace trace = parse_recorded_trace(read_text(traces_dir() / name));
  EXPECT_TRUE(trace.error.empty()) << name << ": " << trace.error;
  return trace;
}

const NativeFunctions& bundled(const std::string& file) {
  static std::map<std::string, NativeFunctions> tables;
  auto it = tables.find(file);
  if (it == tables.end())
    it = tables.emplace(file, NativeFunctions::load(op_tables_dir(source_dir() / "rules") / file, "")).first;
  return it->second;
}

const NativeFunctions& excerpt_211() {
  static const NativeFunctions yaml =
      NativeFunctions::load(source_dir() / "tests" / "ops" / "yaml" / "pytorch-2.11.0-excerpt.yaml", "2.11.0");
  return yaml;
}

OpCoverageReport answer(const RecordedTrace& trace, const NativeFunctions& table) {
  return report_from_trace(trace.calls, {&table}, 0);
}

const OpCoverageRow& row_of(const OpCoverageReport& report, const std::string& name) {
  for (const auto& row : report.ops)
    if (qualified(row.op) == name) return row;
  static const OpCoverageRow none;
  ADD_FAILURE() << name << " not in the report";
  return none;
}

std::set<std::string> falls_back(const OpCoverageReport& report) {
  std::set<std::string> ops;
  for (const auto& row : report.ops)
    if (row.falls_back) ops.insert(qualified(row.op));
  return ops;
}

using Chain = std::vector<std::string>;

}  // namespace

TEST(RecordedTrace, PyTorch211TraceLeavesOnlyTheSvdKernelMissing) {
  const RecordedTrace trace = recorded("svd_kthvalue_histc.tsv");
  EXPECT_EQ(trace.torch_version, "2.11.0");
  for (const NativeFunctions* source : {&bundled("pytorch-2.11.0.tsv"), &excerpt_211()}) {
    SCOPED_TRACE(source->describe());
    const OpCoverageReport report = answer(trace, *source);
    EXPECT_EQ(report.method, "trace");
    EXPECT_EQ(row_of(report, "aten::linalg_svd").mps, OpStatus::missing);
    EXPECT_EQ(row_of(report, "aten::linalg_svd").chains,
              (std::vector<Chain>{{"aten::linalg_svd", "aten::_linalg_svd", "aten::_linalg_svd.U"}}));
    EXPECT_EQ(row_of(report, "aten::kthvalue").own, OpStatus::generic);
    EXPECT_EQ(row_of(report, "aten::kthvalue.values").mps, OpStatus::kernel);
    EXPECT_EQ(row_of(report, "aten::histc").mps, OpStatus::kernel);
    EXPECT_TRUE(row_of(report, "aten::kthvalue.values").dispatched_on_mps);
    EXPECT_EQ(falls_back(report), (std::set<std::string>{"aten::_linalg_svd"}));
  }
  // The same 2.11 calls under the 1.13 table: histc and kthvalue's out= kernel fall back too.
  EXPECT_EQ(falls_back(answer(trace, bundled("pytorch-1.13.0a0.tsv"))),
            (std::set<std::string>{"aten::_linalg_svd", "aten::histc", "aten::kthvalue.values"}));
  // Both tables: an op missing through its chain says so in every version, not "runs on MPS from
  // 1.13" because its own entry is a composite; kthvalue runs on MPS from 2.11, when its out=
  // kernel got one.
  const std::vector<const NativeFunctions*> both{&bundled("pytorch-1.13.0a0.tsv"), &bundled("pytorch-2.11.0.tsv")};
  for (size_t target : {0u, 1u}) {
    const OpCoverageReport report = report_from_trace(trace.calls, both, target);
    const OpCoverageRow& svd = row_of(report, "aten::linalg_svd");
    EXPECT_EQ(svd.mps_from, "") << target;
    ASSERT_EQ(svd.by_version.size(), 2u);
    EXPECT_EQ(svd.by_version[0].status, OpStatus::missing);
    EXPECT_EQ(svd.by_version[1].status, OpStatus::missing);
  }
  const OpCoverageReport old_target = report_from_trace(trace.calls, both, 0);
  const OpCoverageRow& kth = row_of(old_target, "aten::kthvalue");
  EXPECT_EQ(kth.mps, OpStatus::missing);
  EXPECT_EQ(kth.mps_from, "2.11.0");
}

TEST(RecordedTrace, PyTorch211CnnRunsOnMpsAndTheFusedEncoderFallsBack) {
  const RecordedTrace cnn = recorded("small_cnn.tsv");
  const OpCoverageReport cnn_report = answer(cnn, bundled("pytorch-2.11.0.tsv"));
  EXPECT_EQ(falls_back(cnn_report), std::set<std::string>{});
  EXPECT_EQ(row_of(cnn_report, "aten::max_pool2d").mps, OpStatus::kernel);  // its own MPS kernel in 2.11
  EXPECT_TRUE(row_of(cnn_report, "aten::_convolution").dispatched_on_mps);
  // In inference the encoder block is one fused op with no MPS kernel in 2.11 either: it falls
  // back whole, and what it dispatches inside (multi-head attention) is the CPU kernel's business.
  const RecordedTrace transformer = recorded("transformer_encoder_layer_eval.tsv");
  const OpCoverageReport t_report = answer(transformer, bundled("pytorch-2.11.0.tsv"));
  EXPECT_EQ(falls_back(t_report), std::set<std::string>{"aten::_transformer_encoder_layer_fwd"});
  EXPECT_FALSE(row_of(t_report, "aten::_native_multi_head_attention").dispatched_on_mps);
  EXPECT_EQ(row_of(t_report, "aten::_native_multi_head_attention").callers,
            std::vector<std::string>{"aten::_transformer_encoder_layer_fwd"});
}

TEST(RecordedTrace, MalformedTracesSayWhichLineAndWhy) {
  EXPECT_EQ(parse_recorded_trace("").error, "the trace lists no calls");
  EXPECT_EQ(parse_recorded_trace("# op\tcaller\tcount (LibTorch 2.11.0)\n").error, "the trace lists no calls");
  EXPECT_EQ(parse_recorded_trace("# header\naten::add.Tensor -\t1\n").error,
            "line 2: expected three tab-separated fields (op, caller, count), as mpsready-trace-ops writes");
  EXPECT_EQ(parse_recorded_trace("add\t-\t1\n").error,
            "line 1: ops are named aten::name or aten::name.overload (the caller \"-\" for the model's code)");
  EXPECT_EQ(parse_recorded_trace("aten::add\tmodel\t1\n").error,
            "line 1: ops are named aten::name or aten::name.overload (the caller \"-\" for the model's code)");
  EXPECT_EQ(parse_recorded_trace("aten::add\t-\t0\n").error, "line 1: the count must be a positive whole number, not \"0\"");
  EXPECT_EQ(parse_recorded_trace("aten::add\t-\t2x\n").error, "line 1: the count must be a positive whole number, not \"2x\"");
  const RecordedTrace crlf = parse_recorded_trace("aten::relu\t-\t3\r\naten::clamp_min\taten::relu\t3\r\n");
  ASSERT_TRUE(crlf.error.empty()) << crlf.error;
  ASSERT_EQ(crlf.calls.size(), 2u);
  EXPECT_EQ(crlf.calls[0].caller, "");
  EXPECT_EQ(crlf.calls[1].caller, "aten::relu");
  EXPECT_EQ(crlf.calls[1].count, 3u);
  EXPECT_EQ(crlf.torch_version, "");
}

}  // namespace mpsready::testing
