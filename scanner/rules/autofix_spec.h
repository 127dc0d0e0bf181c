#pragma once
// A rule's mechanical fix, as declared under "autofix" in rule.json: data, never code. The fix
// engine (scanner/fix/) applies it; a rule without one keeps its text advice only.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mpsready {

enum class AutofixMode {
  rewrite,     // the rewrites below are safe: `mpsready fix` applies them
  suggestion,  // a rewrite exists but needs a human to choose it: advice only
  none,        // no safe rewrite: advice only
};

// One rewrite: `match` (RE2, whole match) over the text of the finding's span; `replace` is the
// new text, with \0..\9 naming the match's captures. The first rewrite that matches wins; a site
// that none matches is left for a human. A rewrite with `pytorch` writes a newer form: it is
// chosen only when the target PyTorch is known and at least that version, else the next one is.
// A rewrite with `bound_name` uses that name: it is chosen only where the name holds a device in
// the site's scope (a function parameter, a module-level device assignment).
struct AutofixRewrite {
  std::string match;
  std::string replace;
  std::string pytorch;     // the oldest PyTorch its result runs on ("" = the rule's)
  std::string bound_name;  // "" = none needed
};

struct AutofixSpec {
  AutofixMode mode = AutofixMode::none;
  std::string pytorch;   // the oldest PyTorch the rewritten code needs ("1.10"); "" = any
  std::string requires_text;  // RE2 the file must contain (e.g. an `import torch`) or the site is left alone
  std::string requires_note;  // why, for the report when requires_text is missing
  std::vector<AutofixRewrite> rewrites;
};

// Parses and validates "autofix" (the regexes compile, rewrites name existing captures); throws
// std::invalid_argument with a message naming the key.
AutofixSpec parse_autofix(const nlohmann::json& json);

const char* to_string(AutofixMode mode);

}  // namespace mpsready
