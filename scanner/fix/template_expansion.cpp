#include "fix/template_expansion.h"

#include <re2/re2.h>

namespace mpsready {

std::optional<std::string> expand_rewrites(const AutofixSpec& spec, std::string_view span) {
  for (const AutofixRewrite& rewrite : spec.rewrites) {
    // Compiled per call: fixes run on the few findings a repository has, not on every line.
    const RE2 re(rewrite.match, RE2::Quiet);
    if (!re.ok()) continue;  // validated at rule load; kept defensive
    std::string text(span);
    // Replace() substitutes the first match; anchoring makes it the whole span.
    if (!RE2::FullMatch(text, re)) continue;
    if (RE2::Replace(&text, re, rewrite.replace)) return text;
  }
  return std::nullopt;
}

}  // namespace mpsready
