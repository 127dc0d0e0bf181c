#include "core/impact.h"

#include <algorithm>

namespace mpsready {

std::string_view to_string(Impact impact) {
  switch (impact) {
    case Impact::info: return "info";
    case Impact::portable: return "portable";
    case Impact::blocker: return "blocker";
  }
  return "info";
}

std::optional<Impact> parse_impact(std::string_view text) {
  if (text == "info") return Impact::info;
  if (text == "portable") return Impact::portable;
  if (text == "blocker") return Impact::blocker;
  return std::nullopt;
}

Impact lowered(Impact impact) {
  return impact == Impact::blocker ? Impact::portable : Impact::info;
}

const std::vector<std::string>& known_categories() {
  static const std::vector<std::string> categories = {
      "device-hardcode", "cuda-api", "amp",   "stream",  "distributed",
      "custom-extension", "nvidia-library", "dtype", "compile", "memory",
      "build",           "environment",    "op-coverage"};
  return categories;
}

bool is_known_category(std::string_view category) {
  const auto& all = known_categories();
  return std::find(all.begin(), all.end(), category) != all.end();
}

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::mps_ready: return "mps-ready";
    case Verdict::partial: return "partial";
    case Verdict::stay_on_linux: return "stay-on-linux";
  }
  return "mps-ready";
}

std::optional<Verdict> parse_verdict(std::string_view text) {
  if (text == "mps-ready") return Verdict::mps_ready;
  if (text == "partial") return Verdict::partial;
  if (text == "stay-on-linux") return Verdict::stay_on_linux;
  return std::nullopt;
}

}  // namespace mpsready
