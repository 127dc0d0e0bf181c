#include "ops/model_op_coverage.h"

#include <memory>
#include <stdexcept>

#include <torch/script.h>
#include <torch/version.h>

#include "ops/answering_tables.h"
#include "ops/dispatcher_status.h"
#include "ops/module_ops.h"
#include "ops/op_trace.h"
#include "ops/op_trace_report.h"

namespace mpsready {
namespace {

std::vector<OpUse> uses_of(const torch::jit::Module& module) {
  std::vector<OpUse> uses;
  for (const ModuleOp& op : list_aten_ops(module)) uses.push_back({op.name, op.overload, op.count});
  return uses;
}

// `trace` set: the answer covers the traced calls; else the graph's `uses`.
ModelCoverage from_yaml(const std::vector<OpUse>& uses, const std::vector<TracedCall>* trace,
                        const OpCoverageSettings& settings) {
  ModelCoverage result;
  const AnsweringTables tables = load_answering_tables(settings);
  if (!tables.error.empty()) {
    result.error = tables.error;
    return result;
  }
  result.report = trace ? report_from_trace(*trace, tables.views, tables.target)
                        : report_from_tables(uses, tables.views, tables.target);
  return result;
}

}  // namespace

ModelCoverage model_op_coverage(const torch::jit::Module& module, const ModelCoverageOptions& options) {
  if (options.inputs) {
    // The forward pass runs on a copy: tracing must not change the caller's module.
    torch::jit::Module copy = module.clone();
    copy.eval();
    const OpTrace trace = trace_dispatched_ops(copy, *options.inputs);
    if (!trace.error.empty()) {
      ModelCoverage result;
      result.error = "the traced forward pass on the CPU failed: " + trace.error;
      return result;
    }
    return from_yaml({}, &trace.calls, options.settings);
  }
  const std::vector<OpUse> uses = uses_of(module);
  const bool yaml_asked = !options.settings.native_functions.empty() || !options.settings.torch_version.empty();
  if (options.allow_dispatcher && !yaml_asked && dispatcher_has_mps()) {
    ModelCoverage result;
    result.report = report_from_dispatcher(
        uses, [](const OpUse& u) { return dispatcher_op_status(u.name, u.overload, DispatcherBackend::mps); },
        linked_torch_version());
    return result;
  }
  return from_yaml(uses, nullptr, options.settings);
}

ModelCoverage model_op_coverage(const std::filesystem::path& model, const ModelCoverageOptions& options) {
  try {
    const torch::jit::Module module = load_torchscript(model);
    ModelCoverage result = model_op_coverage(module, options);
    result.report.subject = model.string();
    return result;
  } catch (const std::exception& e) {
    ModelCoverage result;
    result.error = e.what();
    return result;
  }
}

std::vector<OpCoverageRow> predicted_fallbacks(const OpCoverageReport& report) {
  std::vector<OpCoverageRow> rows;
  for (const auto& row : report.ops)
    if (report.method == "trace" ? row.falls_back : row.mps == OpStatus::missing) rows.push_back(row);
  return rows;
}

std::optional<FallbackPrediction> predict_mps_fallbacks(const torch::jit::Module& module, const std::string& device,
                                                        const ModelCoverageOptions& options) {
  if (device != "mps") return std::nullopt;
  FallbackPrediction prediction;
  ModelCoverage coverage = model_op_coverage(module, options);
  if (!coverage.error.empty() && options.inputs) {
    // A forward pass that fails on the CPU still leaves the graph to predict from.
    prediction.trace_error = coverage.error;
    ModelCoverageOptions graph_only = options;
    graph_only.inputs.reset();
    coverage = model_op_coverage(module, graph_only);
  }
  if (!coverage.error.empty()) return std::nullopt;
  prediction.method = coverage.report.method;
  for (const auto& row : predicted_fallbacks(coverage.report)) prediction.ops.push_back(qualified(row.op));
  return prediction;
}

std::string linked_torch_version() { return TORCH_VERSION; }

}  // namespace mpsready
