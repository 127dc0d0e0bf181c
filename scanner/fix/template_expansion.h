#pragma once
// Expands a rule's "autofix" rewrites over the text of one finding's span.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "rules/autofix_spec.h"

namespace mpsready {

struct Expansion {
  std::string text;     // the replacement
  std::string pytorch;  // the oldest PyTorch the chosen rewrite's result needs ("" = the rule's)
};

// The replacement for `span`: the first rewrite whose `match` matches the whole span, with its
// captures substituted into `replace`. A rewrite that needs a newer PyTorch is skipped unless
// `target_pytorch` is given and reaches it. nullopt when no rewrite matches (a form the rule's fix
// does not cover: left for a human).
// A rewrite with a `bound_name` is chosen only where `bound(name)` says the name holds a device.
std::optional<Expansion> expand_rewrites(const AutofixSpec& spec, std::string_view span,
                                         const std::string& target_pytorch = "",
                                         const std::function<bool(const std::string&)>& bound = {});

}  // namespace mpsready
