#include "fix/edit_collection.h"

#include <re2/re2.h>

#include "fix/device_in_scope.h"
#include "fix/template_expansion.h"

namespace mpsready {

namespace {

std::vector<int> version_parts(const std::string& version) {
  std::vector<int> parts;
  int value = 0;
  bool any = false;
  for (char c : version) {
    if (c >= '0' && c <= '9') {
      value = value * 10 + (c - '0');
      any = true;
    } else if (c == '.') {
      parts.push_back(value);
      value = 0;
      any = false;
    } else {
      break;
    }
  }
  if (any) parts.push_back(value);
  while (parts.size() < 3) parts.push_back(0);
  return parts;
}

}  // namespace

bool version_at_least(const std::string& version, const std::string& minimum) {
  return version_parts(version) >= version_parts(minimum);
}

CollectedEdits collect_edits(const std::vector<Finding>& findings, const RuleSet& rules,
                             const EditCollectionOptions& options,
                             const std::function<const std::string&(const std::string&)>& text_of) {
  CollectedEdits out;
  for (const Finding& f : findings) {
    const Rule* rule = rules.find(f.rule);
    if (!rule || !rule->autofix || rule->autofix->mode != AutofixMode::rewrite) continue;
    const AutofixSpec& spec = *rule->autofix;
    const auto leave = [&](std::string reason) { out.left.push_back({f.path, f.rule, f.location, std::move(reason)}); };
    if (f.guarded && !options.include_guarded) continue;  // already behind a CUDA check: not a site to change
    if (!spec.pytorch.empty() && !options.target_pytorch.empty() &&
        !version_at_least(options.target_pytorch, spec.pytorch)) {
      leave("the fix needs PyTorch " + spec.pytorch + ", the target is " + options.target_pytorch);
      continue;
    }
    const std::string& text = text_of(f.path);
    if (f.end_byte <= f.start_byte || f.end_byte > text.size()) {
      leave("the site's source range is unknown");
      continue;
    }
    if (!spec.requires_text.empty() && !RE2::PartialMatch(text, RE2("(?m)" + spec.requires_text, RE2::Quiet))) {
      leave(spec.requires_note.empty() ? "the file lacks what the fix needs" : spec.requires_note);
      continue;
    }
    const std::string original = text.substr(f.start_byte, f.end_byte - f.start_byte);
    const auto bound = [&](const std::string& name) { return device_bound_in_scope(text, f.start_byte, name); };
    const std::optional<Expansion> replacement = expand_rewrites(spec, original, options.target_pytorch, bound);
    if (!replacement) {
      leave("no mechanical rewrite for this form");
      continue;
    }
    if (replacement->text == original) continue;
    std::string needs = spec.pytorch;
    if (!replacement->pytorch.empty() && (needs.empty() || version_at_least(replacement->pytorch, needs)))
      needs = replacement->pytorch;
    out.edits.push_back({f.path, f.rule, f.start_byte, f.end_byte, original, replacement->text, f.location, needs});
  }
  return out;
}

}  // namespace mpsready
