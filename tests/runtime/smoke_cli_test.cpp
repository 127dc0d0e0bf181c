// `mpsready smoke` and `mpsready audit` as a user runs them: exit codes, messages, the record,
// the fresh-process check and golden files between runs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <torch/script.h>
#include <torch/utils.h>

#include "support/cli_runner.h"
#include "support/test_support.h"
#include "test_models.h"

namespace mpsready::testing {

namespace {

// Small and quick: the checks' step counts are kept low.
std::string quick(const TempDir& dir) {
  return " --iterations 2 --warmup 1 --growth-iterations 3 --profile-steps 1 --out-dir " +
         quote((dir.path() / "out").string());
}

}  // namespace

TEST(SmokeCli, CleanModelJsonRecordIsUnconfirmedAndRepeatsInAFreshProcess) {
  TempDir dir;
  const auto model = save_clean_model(dir.path());
  const CliRun run = mpsready("smoke " + quote(model.string()) + " --input 4x8:float32 --format json" + quick(dir), false);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["schema_version"], 2);
  EXPECT_EQ(j["device"]["requested"], "auto");
  EXPECT_EQ(j["device"]["used"], "cpu");
  EXPECT_EQ(j["device"]["mps_available"], false);
  EXPECT_EQ(j["confirmation"]["status"], "unconfirmed");
  EXPECT_EQ(j["nonfinite"], false);
  EXPECT_EQ(j["reference"]["within_tolerance"], true);
  EXPECT_EQ(j["repeat"]["reloaded_bitwise_equal"], true);
  EXPECT_EQ(j["repeat"]["fresh_process"]["ran"], true) << j["repeat"].dump();
  EXPECT_EQ(j["repeat"]["fresh_process"]["hashes_equal"], true);
  EXPECT_EQ(j["fallback_capture"]["applies"], false);
}

TEST(SmokeCli, TextSummaryNamesTheResult) {
  TempDir dir;
  const CliRun run = mpsready("smoke " + quote(save_clean_model(dir.path()).string()) + " --input 4x8:float32 --no-fresh-process" + quick(dir));
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("result  unconfirmed"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("not a Mac"), std::string::npos) << run.out;
}

TEST(SmokeCli, NaNExitsOneAndFloat64RunsOnTheCpu) {
  TempDir dir;
  CliRun run = mpsready("smoke " + quote(save_nan_model(dir.path()).string()) + " --input 2x8:float32 --format json --no-fresh-process" + quick(dir), false);
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_EQ(nlohmann::json::parse(run.out)["nonfinite"], true);
  run = mpsready("smoke " + quote(save_float64_model(dir.path()).string()) + " --input 2x8:float32 --format json --no-fresh-process" + quick(dir), false);
  EXPECT_EQ(run.code, 0) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["mps_blockers"].size(), 1u);
  EXPECT_EQ(j["forward"]["ran"], true);
}

TEST(SmokeCli, BadFilesAndBadOptionsExitTwoWithTheirOwnMessage) {
  TempDir dir;
  const std::string model = read_text(save_clean_model(dir.path()));
  c10::impl::GenericDict state(c10::StringType::get(), c10::TensorType::get());
  state.insert("fc.weight", torch::ones({2, 2}));
  const auto bytes = torch::jit::pickle_save(state);
  const std::vector<std::pair<fs::path, std::string>> cases = {
      {dir.write("state_dict.pt", std::string(bytes.begin(), bytes.end())), "torch.save archive"},
      {dir.write("truncated.pt", model.substr(0, model.size() / 3)), "truncated"},
      {dir.path() / "missing.pt", "no such file"},
      {dir.write("random.bin", std::string("\x7f\x45\x4c\x46 random", 11)), "not a TorchScript archive"}};
  for (const auto& [path, message] : cases) {
    const CliRun run = mpsready("smoke " + quote(path.string()) + " --input 2x8:float32" + quick(dir));
    EXPECT_EQ(run.code, 2) << path;
    EXPECT_NE(run.out.find(message), std::string::npos) << run.out;
  }
  const auto clean = quote((dir.path() / "clean.pt").string());
  EXPECT_EQ(mpsready("smoke " + clean + " --input 2x8:float33").code, 2);
  EXPECT_EQ(mpsready("smoke " + clean + " --input 2x8:float32 --sweep 1,x").code, 2);
  EXPECT_EQ(mpsready("smoke " + clean + " --input 2x8:float32 --tolerance float32=1").code, 2);
  const CliRun mps = mpsready("smoke " + clean + " --input 2x8:float32 --device mps");
  EXPECT_EQ(mps.code, 2);
  EXPECT_NE(mps.out.find("MPS is not available"), std::string::npos) << mps.out;
}

TEST(SmokeCli, GoldenRecordThenCompareAcrossRuns) {
  TempDir dir;
  const auto model = quote(save_dict_model(dir.path()).string());
  const auto golden = (dir.path() / "golden.json").string();
  CliRun run = mpsready("smoke " + model + " --input 3x8:float32 --no-fresh-process --record " + quote(golden) + quick(dir));
  ASSERT_EQ(run.code, 0) << run.out;
  const auto g = nlohmann::json::parse(read_text(golden));
  EXPECT_EQ(g["kind"], "mpsready-golden");
  EXPECT_EQ(g["outputs"].size(), 2u);
  run = mpsready("smoke " + model + " --input 3x8:float32 --format json --no-fresh-process --compare " + quote(golden) + quick(dir), false);
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_EQ(nlohmann::json::parse(run.out)["golden"]["comparison"]["within_tolerance"], true);
  // Another input shape was not recorded: a usage error naming the cause.
  run = mpsready("smoke " + model + " --input 5x8:float32 --no-fresh-process --compare " + quote(golden) + quick(dir));
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.out.find("other inputs"), std::string::npos) << run.out;
}

TEST(SmokeCli, InputsFileAndSweepFiles) {
  TempDir dir;
  const auto model = quote(save_clean_model(dir.path()).string());
  const auto inputs = quote(save_inputs_archive(dir.path()).string());
  const CliRun run = mpsready("smoke " + model + " --inputs " + inputs + " --sweep 1,3 --format json --no-fresh-process" + quick(dir), false);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["inputs"][0]["source"], "file");
  ASSERT_EQ(j["sweep"]["rows"].size(), 2u);
  EXPECT_EQ(j["sweep"]["rows"][1]["batch_size"], 3);
  EXPECT_TRUE(fs::exists(j["sweep"]["csv"].get<std::string>()));
  EXPECT_TRUE(fs::exists(j["sweep"]["svg"].get<std::string>()));
}

TEST(AuditCli, ReportsTheVerdictAndThatNoMpsRunConfirmedIt) {
  TempDir dir;
  const auto model = quote(save_clean_model(dir.path()).string());
  const auto repo = source_dir() / "sample_repos" / "mnist-mps-ready";
  const CliRun run = mpsready("audit " + quote(repo.string()) + " --model " + model +
                              " --input 2x8:float32 --format json --no-fresh-process" + quick(dir), false);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["static"]["verdict"], "mps-ready");
  EXPECT_EQ(j["confirmation"]["static_verdict"], "mps-ready");
  EXPECT_EQ(j["confirmation"]["status"], "unconfirmed");
  EXPECT_EQ(j["smoke"]["forward"]["ran"], true);
  const CliRun text = mpsready("audit " + quote(repo.string()) + " --model " + model + " --input 2x8:float32 --no-fresh-process" + quick(dir));
  EXPECT_NE(text.out.find("static  "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("mps-ready"), std::string::npos);
}

}  // namespace mpsready::testing
