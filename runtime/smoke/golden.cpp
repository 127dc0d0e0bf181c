#include "smoke/golden.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "smoke/outputs.h"

namespace mpsready {

namespace {

nlohmann::json input_identity(const SmokeResult& result, const std::vector<std::string>& input_specs) {
  nlohmann::json j = nlohmann::json::array();
  if (!input_specs.empty()) {
    for (const auto& s : input_specs) j.push_back(s);
  } else {
    // From a file: the tensors themselves identify the inputs.
    for (const auto& t : result.inputs) j.push_back(t.sha256);
  }
  return j;
}

}  // namespace

std::string golden_outputs_path(const std::string& golden_json) {
  std::string base = golden_json;
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0) base.resize(base.size() - 5);
  return base + ".outputs.pt";
}

std::string write_golden(const std::string& path, const SmokeResult& result, const std::vector<torch::Tensor>& outputs,
                         const std::vector<std::string>& input_specs) {
  std::string error;
  if (!save_outputs(golden_outputs_path(path), outputs, error)) return error;
  nlohmann::json j;
  j["kind"] = "mpsready-golden";
  j["schema_version"] = 1;
  j["model_sha256"] = result.model_sha256;
  j["inputs"] = input_identity(result, input_specs);
  j["seed"] = result.seed;
  nlohmann::json input_hashes = nlohmann::json::array();
  for (const auto& t : result.inputs) input_hashes.push_back(t.sha256);
  j["input_sha256"] = input_hashes;
  j["device"] = result.device.used;
  j["libtorch"] = result.environment.libtorch_version;
  j["os"] = result.environment.os + " " + result.environment.os_version;
  j["outputs_file"] = std::filesystem::path(golden_outputs_path(path)).filename().string();
  nlohmann::json outs = nlohmann::json::array();
  for (const auto& o : result.outputs) outs.push_back({{"shape", o.shape}, {"dtype", o.dtype}, {"sha256", o.sha256}});
  j["outputs"] = outs;
  std::ofstream out(path, std::ios::trunc);
  out << j.dump(2) << "\n";
  if (!out) return "cannot write " + path;
  return "";
}

bool compare_golden(const std::string& path, const SmokeResult& result, const std::vector<torch::Tensor>& outputs,
                    const std::vector<std::string>& input_specs, const ToleranceTable& table, GoldenResult& golden) {
  golden.compared = path;
  std::ifstream in(path);
  if (!in) {
    golden.error = "--compare " + path + ": no such file";
    return false;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    golden.error = "--compare " + path + ": not JSON (expected a file written by `mpsready smoke --record`)";
    return false;
  }
  if (!j.is_object() || j.value("kind", "") != "mpsready-golden") {
    golden.error = "--compare " + path + ": not a golden record (expected a file written by `mpsready smoke --record`)";
    return false;
  }
  golden.golden_device = j.value("device", "");
  golden.golden_libtorch = j.value("libtorch", "");
  if (j.value("model_sha256", "") != result.model_sha256) {
    golden.error = "--compare " + path + ": recorded for another model (sha256 " + j.value("model_sha256", "") +
                   ", this model " + result.model_sha256 + ")";
    return false;
  }
  if (j.value("inputs", nlohmann::json()) != input_identity(result, input_specs) ||
      j.value("seed", uint64_t{0}) != result.seed) {
    golden.error = "--compare " + path + ": recorded with other inputs or another --seed; run with the same --input "
                   "or --inputs and --seed as the recording";
    return false;
  }
  // Generated inputs come from LibTorch's random generator: two LibTorch versions could draw
  // other numbers from the same seed, and then the outputs cannot be compared.
  nlohmann::json input_hashes = nlohmann::json::array();
  for (const auto& t : result.inputs) input_hashes.push_back(t.sha256);
  if (j.contains("input_sha256") && j["input_sha256"] != input_hashes) {
    golden.error = "--compare " + path + ": the inputs generated here (LibTorch " + result.environment.libtorch_version +
                   ") differ from those of the recording (LibTorch " + golden.golden_libtorch +
                   ") for the same --input and --seed; record and compare with an inputs file instead (--inputs, "
                   "written by scripts/export-model.py)";
    return false;
  }
  const std::filesystem::path outputs_file =
      std::filesystem::path(path).parent_path() / j.value("outputs_file", std::string());
  std::string error;
  auto golden_outputs = load_outputs(outputs_file.string(), error);
  if (!golden_outputs) {
    golden.error = "--compare " + path + ": its outputs file cannot be read: " + error;
    return false;
  }
  golden.comparison = compare_outputs(outputs, *golden_outputs, table);
  return true;
}

}  // namespace mpsready
