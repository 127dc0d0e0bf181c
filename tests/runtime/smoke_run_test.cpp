// Smoke runs of real TorchScript models on the CPU, through the library: what the record is built
// from. No MPS device exists here, so every run must say so and stay `unconfirmed`.
#include <gtest/gtest.h>

#include <unistd.h>

#include <torch/script.h>
#include <torch/utils.h>

#include "report/confirmation.h"
#include "report/smoke_record.h"
#include "smoke/golden.h"
#include "smoke/outputs.h"
#include "smoke/smoke_run.h"
#include "support/test_support.h"
#include "test_models.h"

namespace mpsready::testing {

namespace {

SmokeOptions cpu_options(const fs::path& model, const fs::path& out_dir, std::vector<std::string> inputs = {"4x8:float32"}) {
  SmokeOptions o;
  o.model_path = model.string();
  o.input_specs = std::move(inputs);
  o.device = "auto";  // resolves to the CPU here
  o.iterations = 3;
  o.warmup = 1;
  o.growth_iterations = 4;
  o.profile_steps = 2;
  o.out_dir = out_dir.string();
  return o;
}

}  // namespace

TEST(SmokeRun, CleanModelGivesACompleteUnconfirmedRecord) {
  TempDir dir;
  SmokeRun run = run_smoke(cpu_options(save_clean_model(dir.path()), dir.path() / "out"));
  ASSERT_EQ(run.usage_error, "");
  const SmokeResult& r = run.result;
  EXPECT_EQ(r.device.used, "cpu");
  EXPECT_EQ(r.matmul_device, "cpu");
  EXPECT_FALSE(r.environment.mps_available);
  EXPECT_TRUE(r.forward_ran) << r.forward_error;
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.outputs[0].shape, (std::vector<int64_t>{4, 4}));
  EXPECT_EQ(r.outputs[1].shape, (std::vector<int64_t>{4}));
  EXPECT_FALSE(r.nonfinite_outputs);
  EXPECT_TRUE(r.mps_blockers.empty());
  EXPECT_TRUE(r.reference.ran);
  EXPECT_TRUE(r.reference.comparison.within_tolerance);
  EXPECT_EQ(r.reference.comparison.max_abs_err, 0);  // the same model on the same CPU
  EXPECT_TRUE(r.repeat.reloaded_bitwise_equal);
  EXPECT_FALSE(r.repeat.fresh_process.ran);  // no executable in a library call: said, not faked
  EXPECT_NE(r.repeat.fresh_process.error, "");
  EXPECT_TRUE(r.growth.ran);
  EXPECT_EQ(r.speedup.skipped, "the run's device is the CPU");
  EXPECT_FALSE(r.speedup.device_step_ms_p50);  // not measured: null, not 0
  // No --sweep, yet a step time of the inputs as given, with this measurement's own peak.
  EXPECT_TRUE(r.step.ran) << r.step.error;
  EXPECT_GT(r.step.step_ms_p50.value_or(0), 0);
  EXPECT_EQ(r.step.batch_size, 4);
  EXPECT_GE(r.step.memory.peak, r.step.memory.current);
  EXPECT_TRUE(r.sweep.empty());
  ASSERT_FALSE(r.hot_ops.top.empty());
  bool saw_matmul = false;
  for (const auto& op : r.hot_ops.top) saw_matmul |= op.name.find("matmul") != std::string::npos || op.name.find("mm") != std::string::npos;
  EXPECT_TRUE(saw_matmul);
  EXPECT_TRUE(fs::exists(r.trace_file));
  const auto trace = nlohmann::json::parse(read_text(r.trace_file));
  EXPECT_FALSE(trace["traceEvents"].empty());

  const Confirmation c = confirm(r, std::nullopt);
  EXPECT_EQ(c.status, "unconfirmed");
  EXPECT_FALSE(smoke_failed(r, c));
  const auto record = smoke_record(r, c, "test");
  for (const char* key : {"schema_version", "environment", "device", "model", "inputs", "forward", "reference",
                          "nonfinite", "fallbacks", "repeat", "sweep", "hot_ops", "confirmation", "predicted_fallbacks"})
    EXPECT_TRUE(record.contains(key)) << key;
  EXPECT_EQ(record["device"]["used"], "cpu");
  EXPECT_EQ(record["forward"]["ran_entirely_on_mps"], nullptr);  // not observed, not claimed
  EXPECT_EQ(record["predicted_fallbacks"], nullptr);
  EXPECT_EQ(record["model"]["format"], "torchscript");
  EXPECT_EQ(record["model"]["sha256"].get<std::string>().size(), 64u);
}

TEST(SmokeRun, WithoutAnOutDirNothingIsWritten) {
  TempDir dir;
  SmokeOptions o = cpu_options(save_clean_model(dir.path()), "");
  o.sweep = {1, 2};
  SmokeRun run = run_smoke(o);
  ASSERT_EQ(run.usage_error, "");
  const SmokeResult& r = run.result;
  EXPECT_TRUE(r.repeat.reloaded_bitwise_equal) << r.repeat.error;  // the round trip still ran
  EXPECT_EQ(r.repeat.outputs_file, "");
  EXPECT_EQ(r.trace_file, "");
  EXPECT_FALSE(r.hot_ops.top.empty());
  EXPECT_EQ(r.sweep.size(), 2u);
  EXPECT_EQ(r.sweep_csv, "");
  EXPECT_EQ(r.sweep_svg, "");
  EXPECT_FALSE(fs::exists(fs::temp_directory_path() / ("mpsready-outputs-" + std::to_string(::getpid()) + ".pt")));
}

TEST(SmokeRun, NaNIsDetected) {
  TempDir dir;
  SmokeRun run = run_smoke(cpu_options(save_nan_model(dir.path()), dir.path() / "out"));
  ASSERT_EQ(run.usage_error, "");
  EXPECT_TRUE(run.result.forward_ran);
  EXPECT_TRUE(run.result.nonfinite_outputs);
  EXPECT_TRUE(smoke_failed(run.result, confirm(run.result, std::nullopt)));
  EXPECT_EQ(smoke_record(run.result, confirm(run.result, std::nullopt), "t")["nonfinite"], true);
}

TEST(SmokeRun, Float64IsReportedBeforeRunningAndStillRunsOnTheCpu) {
  TempDir dir;
  SmokeRun run = run_smoke(cpu_options(save_float64_model(dir.path()), dir.path() / "out"));
  ASSERT_EQ(run.usage_error, "");
  const SmokeResult& r = run.result;
  ASSERT_EQ(r.mps_blockers.size(), 1u);
  EXPECT_EQ(r.mps_blockers[0].where, "parameter weight");
  EXPECT_NE(r.mps_blockers[0].reason.find("float64"), std::string::npos);
  EXPECT_TRUE(r.forward_ran);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].dtype, "float64");
  // A float64 input is a blocker too.
  SmokeRun with_input = run_smoke(cpu_options(save_clean_model(dir.path()), dir.path() / "out2", {"4x8:float64"}));
  ASSERT_EQ(with_input.result.mps_blockers.size(), 1u);
  EXPECT_EQ(with_input.result.mps_blockers[0].where, "input 0");
}

TEST(SmokeRun, TrainingStepRunsBackwardAndAnOptimizerStep) {
  TempDir dir;
  SmokeOptions o = cpu_options(save_dict_model(dir.path()), dir.path() / "out");
  o.train = true;
  SmokeRun run = run_smoke(o);
  ASSERT_EQ(run.usage_error, "");
  ASSERT_TRUE(run.result.train);
  const TrainResult& t = *run.result.train;
  EXPECT_TRUE(t.ran) << t.error;
  EXPECT_EQ(t.parameters_with_gradients, 2u);
  EXPECT_TRUE(t.gradients_finite);
  EXPECT_NE(t.loss, t.loss_after_step);  // the step changed the weights
  ASSERT_EQ(run.result.outputs.size(), 2u);  // dict values, in key order: hidden, logits
  EXPECT_EQ(run.result.outputs[0].shape, (std::vector<int64_t>{4, 16}));
}

TEST(SmokeRun, NaNGradientsAreDetectedInTraining) {
  TempDir dir;
  SmokeOptions o = cpu_options(save_nan_model(dir.path()), dir.path() / "out");
  o.train = true;
  SmokeRun run = run_smoke(o);
  ASSERT_TRUE(run.result.train && run.result.train->ran);
  EXPECT_FALSE(run.result.train->gradients_finite);
}

TEST(SmokeRun, WrongInputShapeGivesTheModelsErrorExplained) {
  TempDir dir;
  SmokeRun run = run_smoke(cpu_options(save_clean_model(dir.path()), dir.path() / "out", {"4x5:float32"}));
  ASSERT_EQ(run.usage_error, "");
  EXPECT_FALSE(run.result.forward_ran);
  EXPECT_NE(run.result.forward_error.find("[4, 5]:float32"), std::string::npos) << run.result.forward_error;
  EXPECT_NE(run.result.forward_error.find("fix --input/--inputs"), std::string::npos);
  EXPECT_TRUE(smoke_failed(run.result, confirm(run.result, std::nullopt)));
}

TEST(SmokeRun, BadFilesAreUsageErrors) {
  TempDir dir;
  const std::string model = read_text(save_clean_model(dir.path()));
  const auto truncated = dir.write("truncated.pt", model.substr(0, model.size() - 100));
  for (const auto& [path, expected] :
       std::vector<std::pair<fs::path, std::string>>{{truncated, "truncated"},
                                                     {dir.path() / "none.pt", "no such file"},
                                                     {dir.write("noise.pt", "random bytes\x01\x02"), "not a TorchScript"}}) {
    SmokeRun run = run_smoke(cpu_options(path, dir.path() / "out"));
    EXPECT_NE(run.usage_error.find(expected), std::string::npos) << run.usage_error;
  }
  SmokeOptions no_inputs = cpu_options(save_clean_model(dir.path()), dir.path() / "out", {});
  EXPECT_NE(run_smoke(no_inputs).usage_error.find("--input"), std::string::npos);
  SmokeOptions mps = cpu_options(save_clean_model(dir.path()), dir.path() / "out");
  mps.device = "mps";
  const std::string error = run_smoke(mps).usage_error;
  EXPECT_NE(error.find("MPS is not available"), std::string::npos) << error;
  EXPECT_NE(error.find("not a Mac"), std::string::npos) << error;
}

TEST(SmokeRun, SweepWritesCsvAndSvg) {
  TempDir dir;
  SmokeOptions o = cpu_options(save_clean_model(dir.path()), dir.path() / "out");
  o.sweep = {1, 2, 4};
  SmokeRun run = run_smoke(o);
  ASSERT_EQ(run.result.sweep.size(), 3u);
  for (const auto& row : run.result.sweep) {
    EXPECT_EQ(row.error, "");
    EXPECT_GT(row.step_ms_p50, 0);
    EXPECT_GE(row.step_ms_p95, row.step_ms_p50);
    EXPECT_GT(row.memory.peak, 0u);
    EXPECT_GE(row.memory.peak, row.memory.current);  // a peak of this measurement, not the process's
    EXPECT_EQ(row.memory.kind, "cpu-rss");
  }
  const std::string csv = read_text(run.result.sweep_csv);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_NE(read_text(run.result.sweep_svg).find("</svg>"), std::string::npos);
}

TEST(SmokeRun, GoldenRecordAndCompareMatchAndMismatch) {
  TempDir dir;
  const auto model = save_clean_model(dir.path());
  SmokeOptions rec = cpu_options(model, dir.path() / "out");
  rec.record_golden = (dir.path() / "golden.json").string();
  SmokeRun recorded = run_smoke(rec);
  ASSERT_TRUE(recorded.result.golden);
  EXPECT_EQ(recorded.result.golden->error, "");
  EXPECT_TRUE(fs::exists(dir.path() / "golden.outputs.pt"));

  SmokeOptions cmp = cpu_options(model, dir.path() / "out");
  cmp.compare_golden = rec.record_golden;
  SmokeRun same = run_smoke(cmp);
  ASSERT_EQ(same.usage_error, "");
  ASSERT_TRUE(same.result.golden);
  EXPECT_TRUE(same.result.golden->comparison.within_tolerance);
  EXPECT_EQ(same.result.golden->golden_device, "cpu");

  // Perturb the golden outputs: the comparison must catch it.
  std::string error;
  auto outs = *load_outputs((dir.path() / "golden.outputs.pt").string(), error);
  outs[0] = outs[0] + 0.5;
  ASSERT_TRUE(save_outputs((dir.path() / "golden.outputs.pt").string(), outs, error));
  SmokeRun differs = run_smoke(cmp);
  ASSERT_TRUE(differs.result.golden);
  EXPECT_FALSE(differs.result.golden->comparison.within_tolerance);
  EXPECT_NEAR(differs.result.golden->comparison.max_abs_err, 0.5, 1e-5);
  EXPECT_TRUE(smoke_failed(differs.result, confirm(differs.result, std::nullopt)));

  // Other inputs than the recording: refused, not compared.
  SmokeOptions other = cmp;
  other.seed = 9;
  EXPECT_NE(run_smoke(other).usage_error.find("--seed"), std::string::npos);
}

TEST(SmokeRun, PredictedFallbacksSlotIsFilledByThePredictor) {
  TempDir dir;
  SmokeOptions o = cpu_options(save_clean_model(dir.path()), dir.path() / "out");
  o.predict_fallbacks = [](const torch::jit::Module&, const std::string& device,
                           const std::vector<torch::Tensor>& inputs) -> std::optional<FallbackForecast> {
    EXPECT_EQ(device, "cpu");
    EXPECT_FALSE(inputs.empty()) << "the predictor gets the inputs, to trace what runs";
    return FallbackForecast{{"aten::linalg_svd"}, "trace", ""};
  };
  SmokeRun run = run_smoke(o);
  ASSERT_TRUE(run.result.predicted_fallbacks);
  EXPECT_EQ(run.result.predicted_fallbacks->method, "trace");
  EXPECT_EQ(run.result.predicted_fallbacks->not_seen, std::vector<std::string>{"aten::linalg_svd"});
  EXPECT_TRUE(run.result.predicted_fallbacks->missed.empty());
}

}  // namespace mpsready::testing
