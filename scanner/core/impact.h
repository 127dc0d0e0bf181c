#pragma once
// The fixed vocabularies of the JSON contract: impacts, categories, verdicts.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mpsready {

// Ordered: a higher value keeps the repository further from MPS.
enum class Impact { info = 0, portable = 1, blocker = 2 };

std::string_view to_string(Impact impact);
std::optional<Impact> parse_impact(std::string_view text);
// One level lower, used for guarded sites (blocker -> portable -> info).
Impact lowered(Impact impact);

// Categories are kept as strings (they appear verbatim in every output) but only these exist.
const std::vector<std::string>& known_categories();
bool is_known_category(std::string_view category);

enum class Verdict { mps_ready, partial, stay_on_linux };
std::string_view to_string(Verdict verdict);
std::optional<Verdict> parse_verdict(std::string_view text);

}  // namespace mpsready
