#include "cli/baseline.h"

#include <cerrno>
#include <cstring>

#include <fstream>

#include <nlohmann/json.hpp>

#include "report/fingerprint.h"

namespace mpsready {

bool write_baseline(const std::string& file, const ScanResult& result, const std::string& version, std::string& error) {
  const std::vector<std::string> prints = finding_fingerprints(result.findings);
  nlohmann::ordered_json doc;
  doc["schema_version"] = 1;
  doc["tool"] = {{"name", "mpsready"}, {"version", version}};
  doc["fingerprint_key"] = kFingerprintKey;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (size_t i = 0; i < result.findings.size(); ++i) {
    const Finding& f = result.findings[i];
    list.push_back({{"fingerprint", prints[i]}, {"rule", f.rule}, {"location", location_label(f)}});
  }
  doc["findings"] = list;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "cannot write baseline " + file + ": " + std::strerror(errno);
    return false;
  }
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  out.flush();
  if (!out) error = "cannot write baseline " + file + ": " + std::strerror(errno);
  return static_cast<bool>(out);
}

bool read_baseline(const std::string& file, std::set<std::string>& fingerprints, std::string& error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    error = "cannot read baseline " + file + ": " + std::strerror(errno);
    return false;
  }
  try {
    const auto doc = nlohmann::json::parse(in);
    if (!doc.is_object() || doc.value("schema_version", 0) != 1 || !doc.contains("findings") || !doc["findings"].is_array() ||
        doc.value("fingerprint_key", std::string()) != kFingerprintKey) {
      error = file + ": not an mpsready baseline (write one with --write-baseline FILE)";
      return false;
    }
    for (size_t i = 0; i < doc["findings"].size(); ++i) {
      const auto& entry = doc["findings"][i];
      if (!entry.is_object() || !entry.contains("fingerprint") || !entry["fingerprint"].is_string()) {
        error = file + ": \"findings\"[" + std::to_string(i) + "] has no \"fingerprint\" string";
        return false;
      }
      fingerprints.insert(entry["fingerprint"].get<std::string>());
    }
  } catch (const nlohmann::json::exception& e) {
    error = file + ": not valid JSON: " + e.what();
    return false;
  }
  return true;
}

}  // namespace mpsready
