// The parts behind the record's ledger fields, on their own: the timestamp, the distribution, the
// LibTorch commit, per-measurement memory peaks, null timings, and inputs saved as a list or dict.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include <ATen/Parallel.h>
#include <torch/script.h>
#include <torch/utils.h>

#include "env/environment.h"
#include "env/peak_memory.h"
#include "env/run_info.h"
#include "env/torch_build.h"
#include "report/sweep_files.h"
#include "smoke/forward_args.h"
#include "smoke/input_spec.h"
#include "support/test_support.h"
#include "test_models.h"

namespace mpsready::testing {

namespace {

// What Python's torch.save([a, b]) and torch.save({"x": a}) write: untyped containers.
fs::path save_list(const TempDir& dir, const std::string& name, const std::vector<c10::IValue>& items) {
  c10::impl::GenericList list(c10::AnyType::get());
  for (const auto& item : items) list.push_back(item);
  const auto bytes = torch::jit::pickle_save(list);
  return dir.write(name, std::string(bytes.begin(), bytes.end()));
}

fs::path save_dict(const TempDir& dir, const std::string& name,
                   const std::vector<std::pair<std::string, torch::Tensor>>& items) {
  c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
  for (const auto& [key, value] : items) dict.insert(key, value);
  const auto bytes = torch::jit::pickle_save(dict);
  return dir.write(name, std::string(bytes.begin(), bytes.end()));
}

}  // namespace

TEST(RunInfo, TimestampIsIso8601Utc) {
  EXPECT_EQ(iso8601_utc(std::chrono::system_clock::from_time_t(0)), "1970-01-01T00:00:00Z");
  EXPECT_EQ(iso8601_utc(std::chrono::system_clock::from_time_t(1796366400)), "2026-12-04T06:40:00Z");
  const RunInfo info = make_run_info({"mpsready", "smoke"}, 2, 7);
  EXPECT_TRUE(std::regex_match(info.started_at, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << info.started_at;
  EXPECT_EQ(info.threads, at::get_num_threads());
  EXPECT_GE(info.threads, 1);
  EXPECT_EQ(info.warmup, 2);
  EXPECT_EQ(info.iterations, 7);
}

TEST(Environment, DistributionFromOsRelease) {
  TempDir dir;
  EXPECT_EQ(os_release_pretty_name(dir.write("a", "NAME=x\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n").string()),
            "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(os_release_pretty_name(dir.write("b", "PRETTY_NAME='Say \\\"hi\\\"'\n").string()), "Say \"hi\"");
  EXPECT_EQ(os_release_pretty_name(dir.write("c", "PRETTY_NAME=Plain\n").string()), "Plain");
  EXPECT_EQ(os_release_pretty_name(dir.write("d", "NAME=x\n").string()), std::nullopt);
  EXPECT_EQ(os_release_pretty_name((dir.path() / "absent").string()), std::nullopt);
#if defined(__linux__)
  EXPECT_EQ(probe_environment().distribution, os_release_pretty_name("/etc/os-release"));
#else
  EXPECT_EQ(probe_environment().distribution, std::nullopt);
#endif
}

TEST(TorchBuild, ConfigTextAndCommitFromTheDistributionsFiles) {
  const TorchBuild build = probe_torch_build();
  EXPECT_NE(build.config.find("PyTorch built with"), std::string::npos) << build.config;
  if (build.commit) EXPECT_FALSE(build.commit_source.empty());

  TempDir dir;
  std::string source;
  dir.write("zip/build-hash", "7c98e70d44abc1d5c3c3f3a7d2d0c5e8b1c7a1f2\n");
  EXPECT_EQ(commit_near((dir.path() / "zip" / "lib").string(), source), "7c98e70d44abc1d5c3c3f3a7d2d0c5e8b1c7a1f2");
  EXPECT_EQ(source, "build-hash");
  dir.write("wheel/version.py", "__version__ = '2.5.1'\ngit_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'\n");
  EXPECT_EQ(commit_near((dir.path() / "wheel" / "lib").string(), source), "a8d6afb511a69687bbb2b7e88a3cf67917e1697e");
  EXPECT_EQ(source, "version.py");
  dir.write("debian/version.py", "git_version = 'Unknown'\n");
  EXPECT_EQ(commit_near((dir.path() / "debian" / "lib").string(), source), std::nullopt);
}

TEST(PeakMemory, PeakIsNeverBelowCurrentAndForgetsEarlierMeasurements) {
  const torch::Device cpu(torch::kCPU);
  MemorySample big;
  {
    PeakMemoryMeter meter(cpu);
    auto block = torch::ones({64 * 1024 * 1024 / 4});  // 64 MiB, touched
    meter.after_step();
    big = meter.finish();
  }
  EXPECT_GE(big.peak, big.current);
  PeakMemoryMeter meter(cpu);
  meter.after_step();
  const MemorySample small = meter.finish();
  EXPECT_GE(small.peak, small.current);
  EXPECT_EQ(small.kind, "cpu-rss");
#if defined(__linux__)
  ASSERT_TRUE(small.peak_method == "vmhwm-since-reset" || small.peak_method == "sampled-after-each-step");
#else
  ASSERT_EQ(small.peak_method, "sampled-after-each-step");
#endif
  // The 64 MiB block is freed: a measurement after it must not carry its peak.
  if (small.peak_method == "vmhwm-since-reset") EXPECT_LT(small.peak + 32 * 1024 * 1024, big.peak);
}

TEST(SweepFiles, ATimingThatDidNotRunIsAnEmptyCell) {
  std::vector<SweepRow> rows(2);
  rows[0].batch_size = 1;
  rows[0].step_ms_p50 = 1.5;
  rows[0].step_ms_p95 = 2.5;
  rows[0].throughput_per_s = 666;
  rows[0].memory = {100, 200, "cpu-rss", "vmhwm-since-reset"};
  rows[1].batch_size = 2;
  rows[1].error = "out of memory";
  const std::string csv = sweep_csv(rows);
  EXPECT_NE(csv.find("\n1,1.5,2.5,666,100,200,cpu-rss,vmhwm-since-reset,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n2,,,,,,,,out of memory\n"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("0.0"), std::string::npos);
}

TEST(InputsFile, AListOrADictSavedWithTorchSave) {
  TempDir dir;
  std::string error;
  auto list = read_inputs_file(save_list(dir, "list.pt", {torch::ones({4, 8}), torch::zeros({3})}).string(), error);
  ASSERT_TRUE(list) << error;
  EXPECT_EQ(list->tensors.size(), 2u);
  EXPECT_TRUE(list->names.empty());

  const auto dict_path = save_dict(dir, "dict.pt", {{"x", torch::ones({4, 8})}});
  auto dict = read_inputs_file(dict_path.string(), error);
  ASSERT_TRUE(dict) << error;
  EXPECT_EQ(dict->names, std::vector<std::string>{"x"});
  // Without a model to name the arguments, a dict is refused with what is accepted.
  EXPECT_FALSE(load_inputs_file(dict_path.string(), error));
  EXPECT_NE(error.find("tuple or list of tensors"), std::string::npos) << error;

  error.clear();
  EXPECT_FALSE(read_inputs_file(save_list(dir, "ints.pt", {int64_t{1}, int64_t{2}}).string(), error));
  EXPECT_NE(error.find("a dict from the model's forward argument names to tensors"), std::string::npos) << error;
}

TEST(ForwardArgs, ADictBindsToForwardsArgumentNames) {
  TempDir dir;
  const torch::jit::Module clean = torch::jit::load(save_clean_model(dir.path()).string());
  EXPECT_EQ(forward_argument_names(clean), std::vector<std::string>{"x"});
  std::string error;
  InputsFile file{{torch::ones({4, 8})}, {"x"}};
  auto bound = bind_to_forward(file, clean, "in.pt", error);
  ASSERT_TRUE(bound) << error;
  ASSERT_EQ(bound->size(), 1u);
  EXPECT_TRUE(torch::equal((*bound)[0], torch::ones({4, 8})));

  file.names = {"input"};
  EXPECT_FALSE(bind_to_forward(file, clean, "in.pt", error));
  EXPECT_NE(error.find("\"input\", which is not an argument of forward (x)"), std::string::npos) << error;
  EXPECT_NE(error.find("tuple or list"), std::string::npos) << error;

  // Two arguments, the second with a default: it may be left out, the first may not.
  torch::jit::Module two("Two");
  two.define(R"(
def forward(self, a, b: Optional[Tensor] = None):
    if b is None:
        return a
    return a + b
)");
  file = {{torch::ones({2})}, {"a"}};
  bound = bind_to_forward(file, two, "in.pt", error);
  ASSERT_TRUE(bound) << error;
  EXPECT_EQ(bound->size(), 1u);
  file = {{torch::ones({2}), torch::ones({2})}, {"b", "a"}};  // the file's order does not matter
  bound = bind_to_forward(file, two, "in.pt", error);
  ASSERT_TRUE(bound) << error;
  EXPECT_EQ(bound->size(), 2u);
  file = {{torch::ones({2})}, {"b"}};
  EXPECT_FALSE(bind_to_forward(file, two, "in.pt", error));
  EXPECT_NE(error.find("without \"a\""), std::string::npos) << error;
}

}  // namespace mpsready::testing
