#pragma once
// Expands a rule's "autofix" rewrites over the text of one finding's span.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "fix/site_syntax.h"
#include "rules/autofix_spec.h"

namespace mpsready {

struct Expansion {
  std::string text;        // the replacement
  std::string pytorch;     // the oldest PyTorch the chosen rewrite's result needs ("" = the rule's)
  std::string bound_name;  // the name the replacement uses from its scope ("" = none)
  std::string note;        // the chosen rewrite's note for the summary
};

// What a rewrite may ask of the site beyond its text.
struct RewriteSite {
  const SiteSyntax* syntax = nullptr;  // none: only rewrites for any context apply
  // Whether the scanned tree calls a function whose dotted name matches the RE2 (`unless_called`).
  std::function<bool(const std::string& pattern)> called;
  // Whether `name` holds a device at the site (with `object`: a `torch.device`, not a string), or
  // can be bound for it.
  std::function<bool(const std::string&, bool object)> bound;
  // How the name bound for it is written at the site ("" or the name: as it is; `self.device`).
  std::function<std::string(const std::string&)> bound_as;
  // The name the file binds the spec's `module` to ("" = the module's own name).
  std::string module_name;
  // Set, when no rewrite applies, to the `unless_note` of a rewrite that matched but that the
  // file's text declined.
  std::string* declined = nullptr;
};

// The replacement for `span`: the first rewrite whose `match` matches the whole span, whose
// context, file condition and bound name hold, with its captures substituted into `replace`. A
// rewrite that needs a newer PyTorch is skipped unless `target_pytorch` is given and reaches it.
// nullopt when no rewrite applies (a form the rule's fix does not cover: left for a human).
std::optional<Expansion> expand_rewrites(const AutofixSpec& spec, std::string_view span, const RewriteSite& site,
                                         const std::string& target_pytorch = "");

// The same for a site of no known syntax, with `bound` alone.
std::optional<Expansion> expand_rewrites(const AutofixSpec& spec, std::string_view span,
                                         const std::string& target_pytorch = "",
                                         const std::function<bool(const std::string&)>& bound = {});

// `text` (a rewrite template) with the variable `name` written as `expression` (`device` as
// `self.device`), wherever it stands as a name of its own.
std::string with_bound_expression(std::string text, const std::string& name, const std::string& expression);

// `text` with the module name `module` written as `name` where it starts a dotted reference
// (`torch.cuda` → `T.cuda`).
std::string with_module_name(std::string text, const std::string& module, const std::string& name);

}  // namespace mpsready
