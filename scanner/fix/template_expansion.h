#pragma once
// Expands a rule's "autofix" rewrites over the text of one finding's span.
#include <optional>
#include <string>
#include <string_view>

#include "rules/autofix_spec.h"

namespace mpsready {

// The replacement for `span`: the first rewrite whose `match` matches the whole span, with its
// captures substituted into `replace`. nullopt when no rewrite matches (a form the rule's fix does
// not cover: left for a human).
std::optional<std::string> expand_rewrites(const AutofixSpec& spec, std::string_view span);

}  // namespace mpsready
