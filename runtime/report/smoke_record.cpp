#include "report/smoke_record.h"

#include <cmath>

namespace mpsready {

namespace {

using nlohmann::json;

json or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
// JSON has no infinity or NaN: an error that large is null, documented as "unbounded".
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
// A measurement that did not run is null, never 0.0 (which would read as infinitely fast).
json number(const std::optional<double>& v) { return v ? number(*v) : json(nullptr); }

json tensors(const std::vector<TensorSummary>& list, bool with_source) {
  json a = json::array();
  for (const auto& t : list) {
    json j = {{"shape", t.shape}, {"dtype", t.dtype}, {"sha256", t.sha256}};
    if (with_source) j["source"] = t.source;
    a.push_back(j);
  }
  return a;
}

json comparison(const Comparison& c) {
  return {{"max_abs_err", number(c.max_abs_err)}, {"max_rel_err", number(c.max_rel_err)},
          {"within_tolerance", c.within_tolerance}, {"mismatch", or_null(c.mismatch)}};
}

json memory(const MemorySample& m) {
  return {{"current_bytes", m.current}, {"peak_bytes", m.peak}, {"kind", m.kind}, {"peak_method", m.peak_method}};
}

// Timings and memory of one measurement; memory is null when nothing was measured.
json measurement(const Measurement& m) {
  return {{"step_ms_p50", number(m.step_ms_p50)},
          {"step_ms_p95", number(m.step_ms_p95)},
          {"throughput_per_s", number(m.throughput_per_s)},
          {"memory", m.step_ms_p50 ? memory(m.memory) : json(nullptr)},
          {"error", or_null(m.error)}};
}

}  // namespace

json smoke_record(const SmokeResult& r, const Confirmation& confirmation, const std::string& tool_version) {
  json j;
  j["schema_version"] = kSmokeRecordSchemaVersion;
  j["tool"] = {{"name", "mpsready"}, {"version", tool_version}};
  j["run"] = {{"argv", r.run.argv},
              {"started_at", or_null(r.run.started_at)},
              {"warmup", r.run.warmup},
              {"iterations", r.run.iterations},
              {"threads", r.run.threads}};
  const Environment& e = r.environment;
  j["environment"] = {{"os", e.os},
                      {"os_version", e.os_version},
                      {"distribution", e.distribution ? json(*e.distribution) : json(nullptr)},
                      {"arch", e.arch},
                      {"rosetta", e.rosetta ? json(*e.rosetta) : json(nullptr)},
                      {"cpu_model", e.cpu_model},
                      {"cores", e.cores},
                      {"memory_bytes", e.memory_bytes},
                      {"libtorch_version", e.libtorch_version},
                      {"libtorch_build",
                       {{"config", e.libtorch_build.config},
                        {"commit", e.libtorch_build.commit ? json(*e.libtorch_build.commit) : json(nullptr)},
                        {"commit_source", or_null(e.libtorch_build.commit_source)}}},
                      {"cuda_available", e.cuda_available},
                      {"cuda_device_count", e.cuda_device_count},
                      {"power_source", e.power_source},
                      {"low_power_mode", e.low_power_mode}};
  j["device"] = {{"requested", r.device.requested},
                 {"used", r.device.used},
                 {"mps_built", e.mps_built},
                 {"mps_available", e.mps_available},
                 {"mps_unavailable_reason", or_null(mps_unavailable_reason(e))},
                 {"matmul_result_device", r.matmul_device}};
  j["model"] = {{"path", r.model_path}, {"sha256", r.model_sha256}, {"format", r.model_format}, {"bytes", r.model_bytes}};
  j["inputs"] = tensors(r.inputs, true);
  j["seed"] = r.seed;
  json blockers = json::array();
  for (const auto& b : r.mps_blockers) blockers.push_back({{"where", b.where}, {"reason", b.reason}});
  j["mps_blockers"] = blockers;

  const bool on_mps = r.device.used == "mps";
  j["forward"] = {{"ran", r.forward_ran},
                  {"error", or_null(r.forward_error)},
                  {"outputs", tensors(r.outputs, false)},
                  // Only a run on MPS can say it ran entirely on MPS.
                  {"ran_entirely_on_mps", on_mps ? json(r.forward_ran && r.fallbacks.fallback_ops.empty() &&
                                                        r.fallbacks.unimplemented_ops.empty())
                                                 : json(nullptr)}};
  if (r.train) {
    j["train"] = {{"ran", r.train->ran},
                  {"error", or_null(r.train->error)},
                  {"loss", r.train->ran ? number(r.train->loss) : json(nullptr)},
                  {"loss_after_step", r.train->ran ? number(r.train->loss_after_step) : json(nullptr)},
                  {"gradients_finite", r.train->gradients_finite},
                  {"parameters_with_gradients", r.train->parameters_with_gradients}};
  } else {
    j["train"] = nullptr;
  }
  json ref = comparison(r.reference.comparison);
  ref["device"] = r.reference.device;
  ref["ran"] = r.reference.ran;
  ref["skipped"] = or_null(r.reference.skipped);
  if (!r.reference.ran) {
    ref["max_abs_err"] = nullptr;
    ref["max_rel_err"] = nullptr;
    ref["within_tolerance"] = nullptr;
  }
  json tolerances = json::object();
  for (const auto& [dtype, t] : r.tolerances) tolerances[dtype] = {{"atol", t.atol}, {"rtol", t.rtol}};
  ref["tolerances"] = tolerances;
  j["reference"] = ref;

  const bool gradients_bad = r.train && r.train->ran &&
                             (!r.train->gradients_finite || !std::isfinite(r.train->loss));
  j["nonfinite"] = r.nonfinite_outputs || gradients_bad;
  j["fallbacks"] = std::vector<std::string>(r.fallbacks.fallback_ops.begin(), r.fallbacks.fallback_ops.end());
  j["unimplemented_ops"] =
      std::vector<std::string>(r.fallbacks.unimplemented_ops.begin(), r.fallbacks.unimplemented_ops.end());
  j["fallback_capture"] = {{"PYTORCH_ENABLE_MPS_FALLBACK", r.fallback_env ? json(*r.fallback_env) : json(nullptr)},
                           {"applies", on_mps}};
  if (r.predicted_fallbacks) {
    const auto& p = *r.predicted_fallbacks;
    j["predicted_fallbacks"] = {{"predicted", p.predicted}, {"confirmed", p.confirmed}, {"missed", p.missed},
                                {"not_seen", p.not_seen}, {"from", p.method},
                                {"trace_error", p.trace_error.empty() ? json(nullptr) : json(p.trace_error)}};
  } else {
    j["predicted_fallbacks"] = nullptr;
  }
  j["warnings"] = r.fallbacks.other_warnings;

  j["repeat"] = {{"ran", r.repeat.ran},
                 {"outputs_file", or_null(r.repeat.outputs_file)},
                 {"reloaded_bitwise_equal", r.repeat.ran ? json(r.repeat.reloaded_bitwise_equal) : json(nullptr)},
                 {"fresh_process",
                  {{"ran", r.repeat.fresh_process.ran},
                   {"hashes_equal", r.repeat.fresh_process.ran ? json(r.repeat.fresh_process.hashes_equal) : json(nullptr)},
                   {"error", or_null(r.repeat.fresh_process.error)}}},
                 {"error", or_null(r.repeat.error)}};

  json step = measurement(r.step);
  step["ran"] = r.step.ran;
  step["batch_size"] = r.step.batch_size ? json(*r.step.batch_size) : json(nullptr);
  step["warmup"] = r.step.warmup;
  step["iterations"] = r.step.iterations;
  step["skipped"] = or_null(r.step.skipped);
  j["step"] = step;
  json rows = json::array();
  for (const auto& s : r.sweep) {
    json row = measurement(s);
    row["batch_size"] = s.batch_size;
    rows.push_back(row);
  }
  j["sweep"] = {{"rows", rows}, {"csv", or_null(r.sweep_csv)}, {"svg", or_null(r.sweep_svg)}};
  j["memory_growth"] = {{"ran", r.growth.ran},
                        {"iterations", r.growth.iterations},
                        {"start_bytes", r.growth.start_bytes},
                        {"end_bytes", r.growth.end_bytes},
                        {"growth", r.growth.growth},
                        {"threshold", r.growth.threshold},
                        {"flagged", r.growth.flagged},
                        {"memory_kind", r.growth.memory_kind},
                        {"skipped", or_null(r.growth.skipped)}};
  j["speedup"] = {{"ran", r.speedup.ran},
                  {"cpu_step_ms_p50", number(r.speedup.cpu_step_ms_p50)},
                  {"device_step_ms_p50", number(r.speedup.device_step_ms_p50)},
                  {"improvement", number(r.speedup.improvement)},
                  {"threshold", r.speedup.threshold},
                  {"flagged", r.speedup.flagged},
                  {"skipped", or_null(r.speedup.skipped)}};
  json ops = json::array();
  for (const auto& op : r.hot_ops.top)
    ops.push_back({{"name", op.name}, {"calls", op.calls}, {"self_ms", op.self_ms}, {"total_ms", op.total_ms}});
  j["hot_ops"] = ops;
  j["trace_file"] = or_null(r.trace_file);
  if (r.golden) {
    const auto& g = *r.golden;
    json gj = {{"recorded", or_null(g.recorded)}, {"compared", or_null(g.compared)}, {"error", or_null(g.error)}};
    if (!g.compared.empty() && g.error.empty()) {
      gj["comparison"] = comparison(g.comparison);
      gj["golden_device"] = g.golden_device;
      gj["golden_libtorch"] = g.golden_libtorch;
    }
    j["golden"] = gj;
  } else {
    j["golden"] = nullptr;
  }
  j["confirmation"] = {{"status", confirmation.status}, {"reasons", confirmation.reasons}};
  return j;
}

void write_smoke_text(std::ostream& out, const SmokeResult& r, const Confirmation& c) {
  out << "model   " << r.model_path << " (" << r.model_format << ", sha256 " << r.model_sha256.substr(0, 12) << ")\n";
  out << "device  " << r.device.used << " (requested " << r.device.requested << "; LibTorch "
      << r.environment.libtorch_version << "; MPS " << (r.environment.mps_available ? "available" : "not available")
      << ")\n";
  for (const auto& b : r.mps_blockers) out << "mps     cannot hold " << b.where << ": " << b.reason << "\n";
  if (r.forward_ran) {
    out << "forward ran, " << r.outputs.size() << " output(s)" << (r.nonfinite_outputs ? ", NON-FINITE values" : ", finite")
        << "\n";
  } else {
    out << "forward FAILED: " << r.forward_error << "\n";
  }
  if (r.train)
    out << "train   " << (r.train->ran ? "loss " + std::to_string(r.train->loss) + " -> " + std::to_string(r.train->loss_after_step) +
                                             (r.train->gradients_finite ? ", gradients finite" : ", NON-FINITE gradients")
                                       : "FAILED: " + r.train->error)
        << "\n";
  if (r.reference.ran)
    out << "ref     " << r.reference.device << ": max abs err " << r.reference.comparison.max_abs_err << ", max rel err "
        << r.reference.comparison.max_rel_err << (r.reference.comparison.within_tolerance ? ", within tolerance" : ", OUT OF TOLERANCE")
        << "\n";
  for (const auto& op : r.fallbacks.fallback_ops) out << "fallback " << op << " ran on the CPU\n";
  for (const auto& op : r.fallbacks.unimplemented_ops) out << "missing  " << op << " is not implemented for MPS\n";
  if (r.repeat.ran)
    out << "repeat  reload " << (r.repeat.reloaded_bitwise_equal ? "bitwise equal" : "DIFFERS") << ", fresh process "
        << (r.repeat.fresh_process.ran ? (r.repeat.fresh_process.hashes_equal ? "same hashes" : "DIFFERENT hashes")
                                       : r.repeat.fresh_process.error)
        << "\n";
  if (r.step.ran)
    out << "step    p50 " << *r.step.step_ms_p50 << " ms, p95 " << *r.step.step_ms_p95 << " ms"
        << (r.step.batch_size ? " at batch " + std::to_string(*r.step.batch_size) : std::string()) << ", peak "
        << r.step.memory.peak << " B\n";
  else if (!r.step.error.empty())
    out << "step    FAILED: " << r.step.error << "\n";
  for (const auto& s : r.sweep) {
    if (!s.step_ms_p50) {
      out << "sweep   batch " << s.batch_size << ": ERROR " << s.error << "\n";
      continue;
    }
    out << "sweep   batch " << s.batch_size << ": p50 " << *s.step_ms_p50 << " ms, p95 " << *s.step_ms_p95 << " ms, "
        << s.throughput_per_s.value_or(0) << "/s, peak " << s.memory.peak << " B\n";
  }
  if (r.growth.ran)
    out << "memory  growth " << r.growth.growth * 100 << "% over " << r.growth.iterations << " steps"
        << (r.growth.flagged ? " (FLAGGED)" : "") << "\n";
  if (r.speedup.ran && r.speedup.improvement)
    out << "speed   " << *r.speedup.improvement * 100 << "% faster than the CPU"
        << (r.speedup.flagged ? " (FLAGGED: look at the data pipeline and small ops)" : "") << "\n";
  for (size_t i = 0; i < r.hot_ops.top.size() && i < 5; ++i)
    out << "hot op  " << r.hot_ops.top[i].name << " " << r.hot_ops.top[i].self_ms << " ms self\n";
  if (r.golden && !r.golden->compared.empty() && r.golden->error.empty())
    out << "golden  " << r.golden->golden_device << " record: max abs err " << r.golden->comparison.max_abs_err
        << (r.golden->comparison.within_tolerance ? ", within tolerance" : ", MISMATCH") << "\n";
  out << "result  " << c.status << "\n";
  for (const auto& reason : c.reasons) out << "        " << reason << "\n";
}

}  // namespace mpsready
