#include "python/module_facts.h"

#include <re2/re2.h>

#include "core/source_text.h"

namespace mpsready {
namespace {

constexpr size_t kEvidencePerFile = 3;
constexpr size_t kEvidenceText = 100;

// Calls each line of `text` with its 1-based number.
template <typename F>
void for_each_line(std::string_view text, F&& f) {
  int number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (!f(++number, text.substr(start, end - start))) return;
    start = end + 1;
  }
}

bool is_code_at_column_zero(std::string_view line) {
  return !line.empty() && line[0] != ' ' && line[0] != '\t' && line[0] != '#' && line[0] != '\r';
}

}  // namespace

ModuleFact scan_main_block(const std::string& path, std::string_view text) {
  static const RE2 main_check(R"(^if\s+(?:__name__\s*==\s*["']__main__["']|["']__main__["']\s*==\s*__name__)\s*:)");
  ModuleFact fact{path, 0, 0};
  for_each_line(text, [&](int number, std::string_view line) {
    if (fact.main_line == 0) {
      if (RE2::PartialMatch(line, main_check)) fact.main_line = fact.main_end_line = number;
      return true;
    }
    // The block ends before the next statement at column 0 (an `else:` belongs to it).
    if (is_code_at_column_zero(line) && line.rfind("else", 0) != 0 && line.rfind("elif", 0) != 0) return false;
    fact.main_end_line = number;
    return true;
  });
  return fact;
}

std::vector<EvidenceFact> scan_mps_evidence(const std::string& path, std::string_view text) {
  // Code that picks or handles MPS: the backend's own API, or "mps" as a device string.
  static const RE2 selects(R"((torch\.backends\.mps\.is_(?:available|built)|torch\.mps\.[a-z_]+|["']mps(?::\d+)?["']))");
  std::vector<EvidenceFact> out;
  if (text.find("mps") == std::string_view::npos) return out;
  for_each_line(text, [&](int number, std::string_view line) {
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') return true;
    std::string seen;
    if (RE2::PartialMatch(line, selects, &seen))
      out.push_back({path, number, 0, "selects-mps", shorten_utf8(line.substr(first), kEvidenceText)});
    return out.size() < kEvidencePerFile;
  });
  return out;
}

}  // namespace mpsready
