#include "report/fingerprint.h"

#include <cstdio>
#include <map>
#include <tuple>

namespace mpsready {

uint64_t fnv1a64(std::string_view bytes, uint64_t hash) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string normalized_snippet(std::string_view snippet) {
  std::string out;
  bool pending_space = false;
  for (const char c : snippet) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

std::vector<std::string> finding_fingerprints(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  out.reserve(findings.size());
  std::map<std::tuple<std::string, std::string, std::string>, unsigned> seen;
  for (const Finding& f : findings) {
    std::string snippet = normalized_snippet(f.snippet);
    const unsigned occurrence = seen[{f.rule, f.path, snippet}]++;
    // Fields are separated by a byte that cannot occur in any of them (NUL), so "a"+"bc" and
    // "ab"+"c" hash differently.
    std::string key = f.rule;
    key += '\0';
    key += f.path;
    key += '\0';
    key += snippet;
    key += '\0';
    key += std::to_string(occurrence);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(key)));
    out.emplace_back(hex);
  }
  return out;
}

}  // namespace mpsready
