// The runtime's parts on their own: input specs, model-file inspection, fallback capture, output
// comparison, hashing, the sweep files and the confirmation rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <limits>

#include <c10/util/Exception.h>
#include <torch/script.h>
#include <torch/utils.h>

#include "report/confirmation.h"
#include "report/sweep_files.h"
#include "smoke/fallback_log.h"
#include "smoke/input_spec.h"
#include "smoke/model_file.h"
#include "smoke/outputs.h"
#include "smoke/step_timing.h"
#include "smoke/tolerance.h"
#include "support/test_support.h"
#include "test_models.h"
#include "util/sha256.h"

namespace mpsready::testing {

TEST(InputSpec, ParsesShapesAndDtypes) {
  std::string error;
  auto s = parse_input_spec("8x3x224x224:float32", error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->shape, (std::vector<int64_t>{8, 3, 224, 224}));
  EXPECT_EQ(s->dtype, c10::kFloat);
  s = parse_input_spec("4x128:int64", error);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->dtype, c10::kLong);
  s = parse_input_spec(":float32", error);  // a 0-d scalar
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->shape.empty());
  for (const char* bad : {"8x3", "8x3:float31", "8xx3:float32", "8x3x:float32", "ax3:int64", "-1x2:float32"}) {
    error.clear();
    EXPECT_FALSE(parse_input_spec(bad, error)) << bad;
    EXPECT_NE(error.find("--input"), std::string::npos) << bad;
  }
}

TEST(InputSpec, GeneratedInputsAreSeededAndIntegersIndexSafely) {
  std::string error;
  std::vector<InputSpec> specs{*parse_input_spec("4x8:float32", error), *parse_input_spec("4x16:int64", error)};
  auto a = make_inputs(specs, 7), b = make_inputs(specs, 7), c = make_inputs(specs, 8);
  EXPECT_TRUE(torch::equal(a[0], b[0]));
  EXPECT_FALSE(torch::equal(a[0], c[0]));
  EXPECT_EQ(a[1].scalar_type(), torch::kLong);
  EXPECT_GE(a[1].min().item<int64_t>(), 0);
  EXPECT_LT(a[1].max().item<int64_t>(), 10);
}

TEST(InputSpec, BatchScalingCyclesThroughTheRows) {
  auto x = torch::arange(3).reshape({3, 1});
  auto y = with_batch_size({x}, 7)[0];
  EXPECT_EQ(y.size(0), 7);
  EXPECT_EQ(y[6][0].item<int64_t>(), 0);
  EXPECT_EQ(y[5][0].item<int64_t>(), 2);
}

TEST(InputSpec, InputsFileFromATorchScriptArchiveAndFromPickleSave) {
  TempDir dir;
  std::string error;
  auto from_archive = load_inputs_file(save_inputs_archive(dir.path()).string(), error);
  ASSERT_TRUE(from_archive) << error;
  ASSERT_EQ(from_archive->size(), 1u);
  EXPECT_EQ((*from_archive)[0].sizes(), (std::vector<int64_t>{4, 8}));

  // torch::pickle_save writes the torch.save zip format.
  const auto bytes = torch::jit::pickle_save(c10::ivalue::Tuple::create({torch::ones({2, 3}), torch::zeros({5})}));
  const auto saved = dir.write("saved.pt", std::string(bytes.begin(), bytes.end()));
  auto from_save = load_inputs_file(saved.string(), error);
  ASSERT_TRUE(from_save) << error;
  ASSERT_EQ(from_save->size(), 2u);
  EXPECT_EQ((*from_save)[1].numel(), 5);

  // A model archive has no `inputs` attribute.
  error.clear();
  EXPECT_FALSE(load_inputs_file(save_clean_model(dir.path()).string(), error));
  EXPECT_NE(error.find("`inputs` attribute"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(load_inputs_file((dir.path() / "absent.pt").string(), error));
  EXPECT_NE(error.find("no such file"), std::string::npos) << error;
}

TEST(ModelFile, TellsTorchScriptFromEverythingElse) {
  TempDir dir;
  const auto model = save_clean_model(dir.path());
  EXPECT_EQ(inspect_model_file(model.string()).kind, ModelFileKind::torchscript);

  // A state_dict saved with torch.save: a zip with data.pkl and no code/.
  c10::impl::GenericDict state(c10::StringType::get(), c10::TensorType::get());
  state.insert("fc.weight", torch::ones({2, 2}));
  const auto bytes = torch::jit::pickle_save(state);
  const auto state_dict = dir.write("state_dict.pt", std::string(bytes.begin(), bytes.end()));
  ModelFileCheck c = inspect_model_file(state_dict.string());
  EXPECT_EQ(c.kind, ModelFileKind::torch_save_zip);
  EXPECT_NE(c.message.find("torch.save archive"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("torch.jit.script or torch.jit.trace"), std::string::npos) << c.message;

  const std::string whole = read_text(model);
  c = inspect_model_file(dir.write("truncated.pt", whole.substr(0, whole.size() / 2)).string());
  EXPECT_EQ(c.kind, ModelFileKind::corrupt_zip);
  EXPECT_NE(c.message.find("truncated"), std::string::npos) << c.message;

  c = inspect_model_file(dir.write("legacy.pt", std::string("\x80\x02\x8a\x0alegacy", 10)).string());
  EXPECT_EQ(c.kind, ModelFileKind::legacy_pickle);
  EXPECT_NE(c.message.find("legacy torch.save"), std::string::npos);

  c = inspect_model_file(dir.write("random.bin", "\x13\x37 not a model at all").string());
  EXPECT_EQ(c.kind, ModelFileKind::unknown);
  EXPECT_NE(c.message.find("not a TorchScript archive"), std::string::npos);

  c = inspect_model_file((dir.path() / "missing.pt").string());
  EXPECT_EQ(c.kind, ModelFileKind::missing);
  EXPECT_NE(c.message.find("no such file"), std::string::npos);
}

// Message text as LibTorch's MPS backend words it (aten/src/ATen/mps/MPSFallback.mm, current and
// older releases).
TEST(FallbackLog, ParsesTheMpsMessages) {
  EXPECT_EQ(fallback_op_from_warning("The operator 'aten::_linalg_svd.U' is not currently supported on the MPS "
                                     "backend and will fall back to run on the CPU. This may have performance "
                                     "implications."),
            "aten::_linalg_svd.U");
  EXPECT_EQ(unimplemented_op_from_error(
                "The operator 'aten::_standard_gamma' is not currently implemented for the MPS device. If you want "
                "this op to be added in priority during the prototype phase of this feature, please comment on "
                "https://github.com/pytorch/pytorch/issues/77764. As a temporary fix, you can set the environment "
                "variable `PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for this op."),
            "aten::_standard_gamma");
  EXPECT_EQ(unimplemented_op_from_error("The operator 'aten::col2im' is not currently implemented for the MPS "
                                        "device. If you want this op to be considered for addition please comment "
                                        "on https://github.com/pytorch/pytorch/issues/141287"),
            "aten::col2im");
  EXPECT_FALSE(fallback_op_from_warning("some other warning about 'aten::add'"));
  EXPECT_FALSE(unimplemented_op_from_error("The operator 'aten::add' is not currently supported on the MPS backend "
                                           "and will fall back to run on the CPU."));
}

void warn_like_the_mps_backend(const char* op) {
  TORCH_WARN_ONCE("The operator '", op, "' is not currently supported on the MPS backend and will fall back to run "
                  "on the CPU. This may have performance implications.");
}

TEST(FallbackLog, CaptureSeesEveryOpThroughWarnOnceAndRestoresTheHandler) {
  c10::WarningHandler* before =
#if TORCH_VERSION_MAJOR >= 2
      c10::WarningUtils::get_warning_handler();
#else
      c10::Warning::get_warning_handler();
#endif
  FallbackLog log;
  {
    FallbackCapture capture(log);
    // One call site, warned once per process by default: warn-always makes each op visible.
    warn_like_the_mps_backend("aten::upsample_nearest3d.vec");
    warn_like_the_mps_backend("aten::embedding_renorm_");
    TORCH_WARN("an unrelated warning");
    TORCH_WARN("an unrelated warning");
    capture.note_error("The operator 'aten::_fft_r2c' is not currently implemented for the MPS device.");
  }
  EXPECT_EQ(log.fallback_ops, (std::set<std::string>{"aten::embedding_renorm_", "aten::upsample_nearest3d.vec"}));
  EXPECT_EQ(log.unimplemented_ops, (std::set<std::string>{"aten::_fft_r2c"}));
  EXPECT_EQ(log.other_warnings, (std::vector<std::string>{"an unrelated warning"}));
#if TORCH_VERSION_MAJOR >= 2
  EXPECT_EQ(c10::WarningUtils::get_warning_handler(), before);
#else
  EXPECT_EQ(c10::Warning::get_warning_handler(), before);
#endif
}

TEST(Tolerance, ComparesPerDtypeAndReportsErrors) {
  ToleranceTable table;
  auto ref = torch::tensor({1.0f, 2.0f, 0.0f});
  Comparison c = compare_outputs({ref + 1e-5f}, {ref}, table);
  EXPECT_TRUE(c.within_tolerance);
  EXPECT_NEAR(c.max_abs_err, 1e-5, 1e-6);
  EXPECT_GT(c.max_rel_err, 0);
  c = compare_outputs({ref + 0.01f}, {ref}, table);
  EXPECT_FALSE(c.within_tolerance);
  EXPECT_NE(c.mismatch.find("float32"), std::string::npos);
  ASSERT_EQ(table.override_from("float32=0.1,0"), "");
  EXPECT_TRUE(compare_outputs({ref + 0.01f}, {ref}, table).within_tolerance);
  EXPECT_NE(table.override_from("float32=abc,1"), "");
  EXPECT_NE(table.override_from("float99=1,1"), "");
  // Integers are exact; NaN where the reference has NaN is not a mismatch; NaN elsewhere is.
  EXPECT_FALSE(compare_outputs({torch::tensor({1, 3})}, {torch::tensor({1, 2})}, table).within_tolerance);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(compare_outputs({torch::tensor({nan, 1.0f})}, {torch::tensor({nan, 1.0f})}, table).within_tolerance);
  EXPECT_FALSE(compare_outputs({torch::tensor({nan, 1.0f})}, {torch::tensor({0.0f, 1.0f})}, table).within_tolerance);
  EXPECT_FALSE(compare_outputs({ref}, {ref, ref}, table).within_tolerance);
  EXPECT_FALSE(compare_outputs({ref.to(torch::kDouble)}, {ref}, table).within_tolerance);
}

TEST(Outputs, FlattenHashSaveAndReloadBitForBit) {
  TempDir dir;
  c10::impl::GenericDict d(c10::StringType::get(), c10::TensorType::get());
  d.insert("b", torch::ones({2}));
  d.insert("a", torch::zeros({3}));
  auto flat = flatten_outputs(c10::ivalue::Tuple::create({torch::full({1}, 5.0), d}));
  ASSERT_EQ(flat.size(), 3u);
  EXPECT_EQ(flat[0].item<double>(), 5.0);
  EXPECT_EQ(flat[1].numel(), 3);  // dict values in key order: "a" before "b"

  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<torch::Tensor> outs{torch::tensor({-0.0f, nan, 1.5f}), torch::arange(4)};
  std::string error;
  const auto file = (dir.path() / "outs.pt").string();
  ASSERT_TRUE(save_outputs(file, outs, error)) << error;
  auto back = load_outputs(file, error);
  ASSERT_TRUE(back) << error;
  EXPECT_TRUE(bitwise_equal(outs, *back));
  EXPECT_EQ(output_hashes(outs), output_hashes(*back));
  EXPECT_FALSE(bitwise_equal(outs, {torch::tensor({0.0f, nan, 1.5f}), torch::arange(4)}));  // -0.0 != 0.0 bitwise
  EXPECT_FALSE(all_finite(outs));
  EXPECT_TRUE(all_finite({torch::ones({2}), torch::arange(3)}));
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex("abc", 3), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const std::string million(1000000, 'a');
  EXPECT_EQ(sha256_hex(million.data(), million.size()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(StepTiming, NearestRankPercentiles) {
  EXPECT_EQ(percentile({5, 1, 4, 2, 3}, 0.5), 3);
  EXPECT_EQ(percentile({5, 1, 4, 2, 3}, 0.95), 5);
  EXPECT_EQ(percentile({}, 0.5), 0);
}

TEST(SweepFiles, CsvHasOneRowPerBatchAndSvgIsWellFormed) {
  std::vector<SweepRow> rows(3);
  for (int i = 0; i < 3; ++i) {
    rows[i].batch_size = 1 << i;
    rows[i].step_ms_p50 = 1.0 + i;
    rows[i].step_ms_p95 = 2.0 + i;
    rows[i].throughput_per_s = 1000.0 * (1 << i) / (1.0 + i);
    rows[i].memory.kind = "cpu-peak-rss";
  }
  rows[2].error = "out of memory, \"really\"";
  const std::string csv = sweep_csv(rows);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_EQ(csv.rfind("batch_size,step_ms_p50,step_ms_p95,throughput_per_s,", 0), 0u);
  EXPECT_NE(csv.find("\"out of memory, \"\"really\"\"\""), std::string::npos);
  const std::string svg = sweep_svg(rows, "model <a&b>");
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("model &lt;a&amp;b&gt;"), std::string::npos);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '<') , std::count(svg.begin(), svg.end(), '>'));
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("polyline"), std::string::npos);
}

namespace {

SmokeResult mps_result() {
  SmokeResult r;
  r.environment.os = "Darwin";
  r.environment.arch = "arm64";
  r.environment.mps_built = r.environment.mps_available = true;
  r.device.used = "mps";
  r.forward_ran = true;
  r.reference.ran = true;
  r.reference.device = "cpu";
  return r;
}

}  // namespace

TEST(Confirmation, WithoutMpsItIsAlwaysUnconfirmed) {
  SmokeResult r = mps_result();
  r.device.used = "cpu";
  r.environment.os = "Linux";
  r.environment.mps_built = r.environment.mps_available = false;
  for (const std::optional<std::string>& v : {std::optional<std::string>{}, std::optional<std::string>{"mps-ready"},
                                              std::optional<std::string>{"stay-on-linux"}}) {
    const Confirmation c = confirm(r, v);
    EXPECT_EQ(c.status, "unconfirmed");
    ASSERT_FALSE(c.reasons.empty());
    EXPECT_NE(c.reasons[0].find("not a Mac"), std::string::npos) << c.reasons[0];
  }
  r.device.used = "cuda";
  EXPECT_EQ(confirm(r, "mps-ready").status, "unconfirmed");
}

TEST(Confirmation, RulesOnMps) {
  SmokeResult r = mps_result();
  EXPECT_EQ(confirm(r, std::nullopt).status, "confirmed");
  EXPECT_EQ(confirm(r, "mps-ready").status, "confirmed");
  EXPECT_EQ(confirm(r, "partial").status, "confirmed");
  EXPECT_EQ(confirm(r, "stay-on-linux").status, "contradicted");

  r.fallbacks.fallback_ops.insert("aten::linalg_svd");
  EXPECT_EQ(confirm(r, "mps-ready").status, "contradicted");
  EXPECT_EQ(confirm(r, "partial").status, "confirmed");  // fallbacks still run
  EXPECT_EQ(confirm(r, "stay-on-linux").status, "confirmed");

  SmokeResult nan = mps_result();
  nan.nonfinite_outputs = true;
  EXPECT_EQ(confirm(nan, "partial").status, "contradicted");
  EXPECT_TRUE(smoke_failed(nan, confirm(nan, std::nullopt)));

  SmokeResult failed = mps_result();
  failed.forward_ran = false;
  failed.forward_error = "The operator 'aten::foo' is not currently implemented for the MPS device.";
  failed.fallbacks.unimplemented_ops.insert("aten::foo");
  EXPECT_EQ(confirm(failed, "mps-ready").status, "contradicted");
  EXPECT_EQ(confirm(failed, "stay-on-linux").status, "confirmed");
}

}  // namespace mpsready::testing
