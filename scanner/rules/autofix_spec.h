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
// Where in the syntax a rewrite applies (a site elsewhere is left to the next rewrite).
enum class RewriteContext {
  any,
  statement,  // the span is a whole expression statement, alone on its line(s)
  argument,   // a keyword argument's value, or the only positional argument of a call
  value,      // the value assigned to a name, attribute or key, or a dict entry's value
};

struct AutofixRewrite {
  std::string match;
  std::string replace;     // "\n" starts a new line at the statement's indentation
  std::string pytorch;     // the oldest PyTorch its result runs on ("" = the rule's)
  std::string bound_name;  // "" = none needed; else a device of that name in scope, or a binding
  bool bound_object = false;  // the name must hold a `torch.device`, not a string (`device.type`)
  RewriteContext context = RewriteContext::any;
  // RE2 over the dotted name of every call in the scanned tree (`torch.cuda.amp.GradScaler`): the
  // rewrite is not used where the repository calls one that matches.
  std::string unless_called;
  std::string unless_note;  // why, for the summary, when no later rewrite applies either
  std::string note;         // what the fix summary says of a site fixed this way
};

// A line that binds a rewrite's `bound_name` where the scope has none: inserted once at the top
// of the function (after its docstring), or after a script's imports.
struct AutofixBinding {
  std::string name;
  std::string text;     // lines, relative indentation, without the trailing newline
  std::string pytorch;  // the oldest target it is written for ("" = any)
};

struct AutofixSpec {
  AutofixMode mode = AutofixMode::none;
  std::string pytorch;   // the oldest PyTorch the rewritten code needs ("1.10"); "" = any
  std::string requires_text;  // RE2 the file must contain (e.g. an `import torch`) or the site is left alone
  std::string requires_note;  // why, for the report when requires_text is missing
  std::vector<AutofixRewrite> rewrites;
  // The module the templates name (`torch`): a file that binds it under another name (`import
  // torch as T`) gets the templates with that name. "" = the templates name nothing to check.
  std::string module;
  std::vector<AutofixBinding> bindings;  // newest target first
  // Deprecated modules (`torch.cuda.amp`) whose `from M import name` loses each name that nothing
  // reads once the file's sites are rewritten (fix/import_tidy.h).
  std::vector<std::string> retires_imports;
};

// Parses and validates "autofix" (the regexes compile, rewrites name existing captures); throws
// std::invalid_argument with a message naming the key.
AutofixSpec parse_autofix(const nlohmann::json& json);

const char* to_string(AutofixMode mode);

}  // namespace mpsready
