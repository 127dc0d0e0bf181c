#include "fix/template_expansion.h"

#include <re2/re2.h>

#include "fix/edit_collection.h"

namespace mpsready {

std::optional<Expansion> expand_rewrites(const AutofixSpec& spec, std::string_view span,
                                         const std::string& target_pytorch,
                                         const std::function<bool(const std::string&)>& bound) {
  for (const AutofixRewrite& rewrite : spec.rewrites) {
    if (!rewrite.pytorch.empty() && (target_pytorch.empty() || !version_at_least(target_pytorch, rewrite.pytorch)))
      continue;  // a newer form: only for a target that has it
    // Compiled per call: fixes run on the few findings a repository has, not on every line.
    const RE2 re(rewrite.match, RE2::Quiet);
    if (!re.ok()) continue;  // validated at rule load; kept defensive
    std::string text(span);
    // Replace() substitutes the first match; anchoring makes it the whole span.
    if (!RE2::FullMatch(text, re)) continue;
    if (!rewrite.bound_name.empty() && (!bound || !bound(rewrite.bound_name))) continue;
    if (RE2::Replace(&text, re, rewrite.replace)) return Expansion{std::move(text), rewrite.pytorch};
  }
  return std::nullopt;
}

}  // namespace mpsready
