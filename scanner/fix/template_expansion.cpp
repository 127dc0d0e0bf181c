#include "fix/template_expansion.h"

#include <re2/re2.h>

#include "fix/edit_collection.h"

namespace mpsready {

namespace {

bool context_holds(RewriteContext context, const SiteSyntax* syntax) {
  switch (context) {
    case RewriteContext::any: return true;
    case RewriteContext::statement: return syntax && syntax->statement;
    case RewriteContext::argument: return syntax && syntax->argument;
    case RewriteContext::value: return syntax && syntax->value;
  }
  return false;
}

// A template's new lines start at the statement's indentation (the template's own indentation
// follows it). Only the template's text changes, never the captures it names.
std::string indented(const std::string& replace, const std::string& indent) {
  std::string out;
  for (char c : replace) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

}  // namespace

std::string with_bound_expression(std::string text, const std::string& name, const std::string& expression) {
  if (name.empty() || expression.empty() || expression == name) return text;
  // Preceded by the start, a character no name has, or a capture (`\1device`).
  RE2::GlobalReplace(&text, RE2("(^|[^A-Za-z_0-9.\\\\]|\\\\[0-9])" + RE2::QuoteMeta(name) + "\\b"), "\\1" + expression);
  return text;
}

std::string with_module_name(std::string text, const std::string& module, const std::string& name) {
  if (module.empty() || name.empty() || name == module) return text;
  // A rewrite string: backslashes in the name would be read as captures; a Python name has none.
  RE2::GlobalReplace(&text, RE2("(^|[^A-Za-z_0-9.])" + RE2::QuoteMeta(module) + "\\."), "\\1" + name + ".");
  return text;
}

std::optional<Expansion> expand_rewrites(const AutofixSpec& spec, std::string_view span, const RewriteSite& site,
                                         const std::string& target_pytorch) {
  for (const AutofixRewrite& rewrite : spec.rewrites) {
    if (!rewrite.pytorch.empty() && (target_pytorch.empty() || !version_at_least(target_pytorch, rewrite.pytorch)))
      continue;  // a newer form: only for a target that has it
    if (!context_holds(rewrite.context, site.syntax)) continue;
    // Compiled per call: fixes run on the few findings a repository has, not on every line.
    const RE2 re(rewrite.match, RE2::Quiet);
    if (!re.ok()) continue;  // validated at rule load; kept defensive
    std::string text(span);
    // Replace() substitutes the first match; anchoring makes it the whole span.
    if (!RE2::FullMatch(text, re)) continue;
    if (!rewrite.unless_called.empty() && site.called && site.called(rewrite.unless_called)) {
      if (site.declined && site.declined->empty()) *site.declined = rewrite.unless_note;
      continue;
    }
    if (!rewrite.bound_name.empty() && (!site.bound || !site.bound(rewrite.bound_name, rewrite.bound_object))) continue;
    std::string replace = with_module_name(rewrite.replace, spec.module, site.module_name);
    if (!rewrite.bound_name.empty() && site.bound_as)
      replace = with_bound_expression(replace, rewrite.bound_name, site.bound_as(rewrite.bound_name));
    if (site.syntax && site.syntax->statement) replace = indented(replace, site.syntax->indent);
    if (RE2::Replace(&text, re, replace)) return Expansion{std::move(text), rewrite.pytorch, rewrite.bound_name, rewrite.note};
  }
  return std::nullopt;
}

std::optional<Expansion> expand_rewrites(const AutofixSpec& spec, std::string_view span,
                                         const std::string& target_pytorch,
                                         const std::function<bool(const std::string&)>& bound) {
  RewriteSite site;
  if (bound) site.bound = [&bound](const std::string& name, bool) { return bound(name); };
  return expand_rewrites(spec, span, site, target_pytorch);
}

}  // namespace mpsready
