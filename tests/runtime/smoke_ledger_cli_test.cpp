// What a ledger needs from `mpsready smoke`, checked on real runs of the test models: how, when
// and with what the run was made, a step time on every run, null for what did not run, memory
// peaks per measurement, inputs from torch.save lists and dicts, and no files unless asked.
#include <gtest/gtest.h>

#include <regex>

#include <nlohmann/json.hpp>
#include <torch/script.h>
#include <torch/utils.h>

#include "env/environment.h"
#include "support/cli_runner.h"
#include "support/test_support.h"
#include "test_models.h"

namespace mpsready::testing {

namespace {

const std::string kQuick = " --iterations 2 --warmup 1 --growth-iterations 3 --profile-steps 1 --no-fresh-process";

void expect_memory_consistent(const nlohmann::json& m, const std::string& where) {
  ASSERT_TRUE(m.is_object()) << where << ": " << m.dump();
  EXPECT_GE(m["peak_bytes"].get<uint64_t>(), m["current_bytes"].get<uint64_t>()) << where;
  EXPECT_GT(m["current_bytes"].get<uint64_t>(), 0u) << where;
  EXPECT_FALSE(m["peak_method"].get<std::string>().empty()) << where;
}

fs::path save_bytes(const TempDir& dir, const std::string& name, const c10::IValue& value) {
  const auto bytes = torch::jit::pickle_save(value);
  return dir.write(name, std::string(bytes.begin(), bytes.end()));
}

}  // namespace

TEST(SmokeLedger, RecordSaysHowWhenAndWithWhatItRanAndWritesNoFilesUnasked) {
  TempDir dir;
  const auto model = save_clean_model(dir.path() / "models");
  const fs::path cwd = dir.path() / "cwd";
  fs::create_directories(cwd);
  const CliRun run = mpsready("smoke " + quote(model.string()) + " --input 4x8:float32 --format json --iterations 3" +
                                  " --warmup 2 --growth-iterations 3 --profile-steps 1",
                              false, "cd " + quote(cwd.string()) + " && ");
  ASSERT_EQ(run.code, 0) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["schema_version"], 2);

  const auto& argv = j["run"]["argv"];
  ASSERT_GE(argv.size(), 4u) << j["run"].dump();
  EXPECT_EQ(argv[1], "smoke");
  EXPECT_EQ(argv[2], nlohmann::json(model.string()));
  EXPECT_EQ(argv[3], "--input");
  EXPECT_TRUE(std::regex_match(j["run"]["started_at"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  EXPECT_EQ(j["run"]["warmup"], 2);
  EXPECT_EQ(j["run"]["iterations"], 3);
  EXPECT_GE(j["run"]["threads"].get<int>(), 1);

  const auto& env = j["environment"];
#if defined(__linux__)
  EXPECT_EQ(env["distribution"], nlohmann::json(*os_release_pretty_name("/etc/os-release")));
#endif
  EXPECT_NE(env["libtorch_build"]["config"].get<std::string>().find("PyTorch built with"), std::string::npos);
  EXPECT_TRUE(env["libtorch_build"]["commit"].is_null() || env["libtorch_build"]["commit"].is_string());

  // A step time without --sweep: the inputs as given, with their own memory peak.
  const auto& step = j["step"];
  EXPECT_EQ(step["ran"], true) << step.dump();
  EXPECT_GT(step["step_ms_p50"].get<double>(), 0);
  EXPECT_GE(step["step_ms_p95"].get<double>(), step["step_ms_p50"].get<double>());
  EXPECT_EQ(step["batch_size"], 4);
  EXPECT_GT(step["throughput_per_s"].get<double>(), 0);
  EXPECT_EQ(step["iterations"], 3);
  expect_memory_consistent(step["memory"], "step");
  EXPECT_TRUE(j["sweep"]["rows"].empty());

  // Timings that did not run are null, not 0.0: the speedup check needs a device other than the CPU.
  EXPECT_EQ(j["speedup"]["ran"], false);
  EXPECT_TRUE(j["speedup"]["cpu_step_ms_p50"].is_null());
  EXPECT_TRUE(j["speedup"]["device_step_ms_p50"].is_null());
  EXPECT_TRUE(j["speedup"]["improvement"].is_null());

  // Without --out-dir: nothing on disk, and the record points at no file; the repeat check still ran.
  EXPECT_TRUE(fs::is_empty(cwd)) << fs::directory_iterator(cwd)->path();
  EXPECT_TRUE(j["repeat"]["outputs_file"].is_null());
  EXPECT_EQ(j["repeat"]["reloaded_bitwise_equal"], true);
  EXPECT_TRUE(j["trace_file"].is_null());
  EXPECT_FALSE(j["hot_ops"].empty());
}

TEST(SmokeLedger, SweepPeaksArePerBatchAndFilesGoOnlyToOutDir) {
  TempDir dir;
  const auto model = save_clean_model(dir.path());
  const fs::path out = dir.path() / "out";
  // A large batch first: the small batches after it must not inherit its peak. Its tensors are
  // over glibc's largest mmap threshold (32 MiB), so freeing them really returns the memory.
  const CliRun run = mpsready("smoke " + quote(model.string()) + " --input 4x8:float32 --format json --sweep 4000000,1,2" +
                                  kQuick + " --out-dir " + quote(out.string()),
                              false);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  const auto& rows = j["sweep"]["rows"];
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& row : rows) {
    EXPECT_GT(row["step_ms_p50"].get<double>(), 0);
    expect_memory_consistent(row["memory"], "batch " + row["batch_size"].dump());
  }
  if (rows[1]["memory"]["peak_method"] == "vmhwm-since-reset") {
    // 4000000 x 8 float32 inputs alone are 128 MB: batch 1's peak is far below batch 4000000's.
    EXPECT_LT(rows[1]["memory"]["peak_bytes"].get<uint64_t>() + 64'000'000, rows[0]["memory"]["peak_bytes"].get<uint64_t>())
        << rows.dump();
  }
  EXPECT_EQ(j["repeat"]["outputs_file"], nlohmann::json((out / "outputs.pt").string()));
  EXPECT_TRUE(fs::exists(out / "outputs.pt"));
  EXPECT_TRUE(fs::exists(out / "sweep.csv"));
  EXPECT_TRUE(fs::exists(out / "trace.json"));
  const std::string csv = read_text(out / "sweep.csv");
  EXPECT_NE(csv.find(",memory_peak_method,"), std::string::npos) << csv;
}

TEST(SmokeLedger, AFailedForwardHasNullTimingsNotZeros) {
  TempDir dir;
  const CliRun run = mpsready("smoke " + quote(save_clean_model(dir.path()).string()) +
                                  " --input 4x3:float32 --format json --sweep 1,2" + kQuick,
                              false);
  ASSERT_EQ(run.code, 1) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["forward"]["ran"], false);
  EXPECT_EQ(j["step"]["ran"], false);
  EXPECT_TRUE(j["step"]["step_ms_p50"].is_null());
  EXPECT_TRUE(j["step"]["step_ms_p95"].is_null());
  EXPECT_TRUE(j["step"]["throughput_per_s"].is_null());
  EXPECT_TRUE(j["step"]["memory"].is_null());
  EXPECT_EQ(j["step"]["skipped"], "the model did not run");
  EXPECT_TRUE(j["sweep"]["rows"].empty());
}

TEST(SmokeLedger, InputsFromATorchSaveListOrDict) {
  TempDir dir;
  const auto model = quote(save_clean_model(dir.path()).string());
  torch::manual_seed(5);
  const torch::Tensor x = torch::randn({3, 8});

  c10::impl::GenericList list(c10::AnyType::get());  // torch.save([x]) writes a plain list
  list.push_back(x);
  CliRun run = mpsready("smoke " + model + " --inputs " + quote(save_bytes(dir, "list.pt", list).string()) +
                            " --format json" + kQuick,
                        false);
  ASSERT_EQ(run.code, 0) << run.out;
  auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["inputs"].size(), 1u);
  EXPECT_EQ(j["inputs"][0]["source"], "file");
  EXPECT_EQ(j["inputs"][0]["shape"], nlohmann::json::array({3, 8}));
  EXPECT_EQ(j["step"]["batch_size"], 3);

  c10::impl::GenericDict named(c10::StringType::get(), c10::AnyType::get());  // torch.save({"x": x})
  named.insert("x", x);
  const auto dict_file = save_bytes(dir, "dict.pt", named);
  run = mpsready("smoke " + model + " --inputs " + quote(dict_file.string()) + " --format json" + kQuick, false);
  ASSERT_EQ(run.code, 0) << run.out;
  j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["inputs"][0]["source"], "file:x");
  // The fresh process reads the same dict and gets the same bits.
  run = mpsready("smoke " + model + " --inputs " + quote(dict_file.string()) +
                     " --format json --iterations 1 --warmup 0 --growth-iterations 0 --profile-steps 0",
                 false);
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_EQ(nlohmann::json::parse(run.out)["repeat"]["fresh_process"]["hashes_equal"], true);

  // A key that is not a forward argument: a usage error naming forward's arguments.
  c10::impl::GenericDict wrong(c10::StringType::get(), c10::AnyType::get());
  wrong.insert("images", x);
  run = mpsready("smoke " + model + " --inputs " + quote(save_bytes(dir, "wrong.pt", wrong).string()) + kQuick);
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.out.find("\"images\", which is not an argument of forward (x)"), std::string::npos) << run.out;
  // Something else entirely: says what is accepted.
  run = mpsready("smoke " + model + " --inputs " + quote(save_bytes(dir, "text.pt", c10::IValue("hello")).string()) + kQuick);
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.out.find("a tensor, a tuple or list of tensors, or a dict"), std::string::npos) << run.out;
}

}  // namespace mpsready::testing
