#include "fix/edit_collection.h"

#include <algorithm>
#include <memory>
#include <tuple>

#include <re2/re2.h>

#include "fix/device_in_scope.h"
#include "fix/line_wrap.h"
#include "fix/site_syntax.h"
#include "fix/template_expansion.h"
#include "python/python_file.h"
#include "python/ts_python.h"

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

// A file parsed once for all its sites.
struct ParsedFile {
  TreePtr tree;
  std::unique_ptr<PythonFile> file;
  TSNode root() const { return ts_tree_root_node(tree.get()); }
};

// Why a site does not decide the verdict, or "" when it does: only such sites are fixed unless
// every site is asked for.
std::string outside_what_decides(const Finding& f, bool component_named) {
  // A component the user named is migrated as its own core: being outside the repository's core
  // (an example, a notebook, a tool) is no reason there, but the Mac path's reasons (code a Mac
  // does not run, an optional feature) still are.
  const bool own_core = component_named && !f.in_core && f.mac_path != "not-on-mac" && f.mac_path != "optional";
  if (!f.in_core && !own_core)
    return "outside the core (" + (!f.context.empty() ? f.context : !f.role.empty() ? f.role : std::string("not counted")) +
           "); --all fixes it";
  if (f.gap) return "a gap of a core that selects MPS itself; --all fixes it";
  if (f.impact == Impact::info) return "harmless on a Mac (info); --all fixes it";
  if (!own_core && !f.mac_path.empty() && f.mac_path != "default")
    return "a Mac with the defaults does not run it (" + f.mac_path + (f.mac_chain.empty() ? "" : ": " + f.mac_chain) +
           "); --all fixes it";
  return "";
}

// Why the options leave a site alone before its text is read, or "".
std::string not_selected(const Finding& f, const AutofixSpec& spec, const EditCollectionOptions& options) {
  if (f.guarded && !options.include_guarded)
    return "behind a check already (a CUDA test, or an option a run with the defaults leaves off); "
           "--include-guarded rewrites it";
  if (!options.components.empty() && !options.components.count(f.component))
    return "in component `" + f.component + "`; --component " + f.component + " fixes it";
  if (!options.all)
    if (std::string why = outside_what_decides(f, !options.components.empty()); !why.empty()) return why;
  if (!spec.pytorch.empty() && !options.target_pytorch.empty() && !version_at_least(options.target_pytorch, spec.pytorch))
    return "the fix needs PyTorch " + spec.pytorch + ", the target is " + options.target_pytorch;
  return "";
}

// Code points of the longest line in `text`.
size_t longest_line(std::string_view text) {
  size_t longest = 0, current = 0;
  for (char c : text) {
    if (c == '\n') {
      longest = std::max(longest, current);
      current = 0;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++current;
    }
  }
  return std::max(longest, current);
}

// The lines an edit of [start, end) touches, before and after it.
std::pair<std::string, std::string> touched_lines(std::string_view text, uint32_t start, uint32_t end,
                                                  std::string_view replacement) {
  size_t first = start;
  while (first > 0 && text[first - 1] != '\n') --first;
  size_t last = text.find('\n', end);
  if (last == std::string_view::npos) last = text.size();
  std::string before(text.substr(first, last - first));
  std::string after = std::string(text.substr(first, start - first)) + std::string(replacement) +
                      std::string(text.substr(end, last - end));
  return {std::move(before), std::move(after)};
}

// Keeps the rewrite of [start, end) within `max_line` where it was: as it is, or broken before
// each `else` of its conditional choice. Returns 0 when `written` fits (changed to the broken
// form if needed), else the length of its longest line.
size_t fit_line_limit(std::string_view text, uint32_t start, uint32_t end, size_t max_line, std::string& written) {
  const auto too_long = [&](const std::string& candidate) {
    const auto [before, after] = touched_lines(text, start, end, candidate);
    const size_t longest = longest_line(after);
    return longest > max_line && longest > longest_line(before) ? longest : size_t{0};
  };
  const size_t longest = too_long(written);
  if (!longest) return 0;
  size_t line_start = start;
  while (line_start > 0 && text[line_start - 1] != '\n') --line_start;
  const std::optional<std::string> wrapped = wrapped_at_else(text.substr(line_start, start - line_start), written);
  if (!wrapped || too_long(*wrapped)) return longest;
  written = *wrapped;
  return 0;
}

// The binding for `name` that the target may use: the newest one it reaches.
const AutofixBinding* binding_for(const AutofixSpec& spec, const std::string& name, const std::string& target) {
  const AutofixBinding* chosen = nullptr;
  for (const AutofixBinding& b : spec.bindings) {
    if (b.name != name) continue;
    if (!b.pytorch.empty() && (target.empty() || !version_at_least(target, b.pytorch))) continue;
    if (!chosen || (!b.pytorch.empty() && (chosen->pytorch.empty() || version_at_least(b.pytorch, chosen->pytorch))))
      chosen = &b;
  }
  return chosen;
}

std::string binding_lines(const std::string& text, const std::string& indent) {
  std::string out = indent;
  for (char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out + "\n";
}

// One pass over the findings. `scripts`: scripts that bind the device once after their imports
// (device_scope's `script_binding`). `function_bindings`: per script, where a binding of the
// rule's device choice would go in its functions.
CollectedEdits collect_pass(const std::vector<Finding>& findings, const RuleSet& rules,
                            const EditCollectionOptions& options,
                            const std::function<const std::string&(const std::string&)>& text_of,
                            const std::set<std::string>& callees, const std::set<std::string>& scripts,
                            std::map<std::string, std::set<uint32_t>>& function_bindings) {
  CollectedEdits out;
  std::map<std::string, bool> called_cache;  // pattern -> whether some call matches
  const auto called = [&](const std::string& pattern) {
    auto it = called_cache.find(pattern);
    if (it == called_cache.end()) {
      const RE2 re(pattern, RE2::Quiet);
      bool any = false;
      for (const std::string& callee : callees) any = any || RE2::PartialMatch(callee, re);
      it = called_cache.emplace(pattern, any).first;
    }
    return it->second;
  };
  std::map<std::string, ParsedFile> parsed;
  const auto parse = [&](const std::string& path, const std::string& text) -> const ParsedFile* {
    auto it = parsed.find(path);
    if (it == parsed.end()) {
      ParsedFile p;
      PythonParser parser;
      p.tree = parser.parse(text, /*timeout_micros=*/10'000'000);
      if (p.tree) p.file = std::make_unique<PythonFile>(text, p.tree.get());
      it = parsed.emplace(path, std::move(p)).first;
    }
    return it->second.tree ? &it->second : nullptr;
  };
  for (const Finding& f : findings) {
    const Rule* rule = rules.find(f.rule);
    if (!rule || !rule->autofix || rule->autofix->mode != AutofixMode::rewrite) continue;
    const AutofixSpec& spec = *rule->autofix;
    const auto leave = [&](std::string reason) { out.left.push_back({f.path, f.rule, f.location, std::move(reason)}); };
    if (std::string why = not_selected(f, spec, options); !why.empty()) {
      leave(std::move(why));
      continue;
    }
    const std::string& text = text_of(f.path);
    if (f.end_byte <= f.start_byte || f.end_byte > text.size()) {
      leave("the site's source range is unknown");
      continue;
    }
    const ParsedFile* file = parse(f.path, text);
    if (!file) {
      leave("the file could not be parsed for fixing");
      continue;
    }
    std::string module_name;
    if (!spec.module.empty()) {
      const std::optional<std::string> bound = module_binding(text, file->root(), spec.module);
      if (!bound) {
        leave(spec.requires_note.empty() ? "the file does not import " + spec.module : spec.requires_note);
        continue;
      }
      module_name = *bound;
    } else if (!spec.requires_text.empty() && !RE2::PartialMatch(text, RE2("(?m)" + spec.requires_text, RE2::Quiet))) {
      leave(spec.requires_note.empty() ? "the file lacks what the fix needs" : spec.requires_note);
      continue;
    }
    if (const std::optional<int> line = cuda_required_before(*file->file, f.start_byte)) {
      leave("the `assert` at line " + std::to_string(*line) + " already requires CUDA: a Mac stops there");
      continue;
    }
    const std::string original = text.substr(f.start_byte, f.end_byte - f.start_byte);
    const SiteSyntax syntax = site_syntax(text, file->root(), f.start_byte, f.end_byte);
    std::map<std::string, DeviceScope> scopes;
    const bool notebook = f.location.cell > 0;
    RewriteSite site;
    site.syntax = &syntax;
    site.called = called;
    site.module_name = module_name;
    std::string declined;
    site.declined = &declined;
    site.bound = [&](const std::string& name, bool object) {
      const DeviceScope scope =
          device_scope(text, file->root(), f.start_byte, name, /*module_binding=*/!notebook, scripts.count(f.path) != 0);
      scopes[name] = scope;
      if (object && !scope.object) return false;
      return scope.bound || (scope.insertable && binding_for(spec, name, options.target_pytorch));
    };
    site.bound_as = [&](const std::string& name) { return scopes[name].expression; };
    const std::optional<Expansion> replacement = expand_rewrites(spec, original, site, options.target_pytorch);
    if (!replacement) {
      bool wanted_binding = false;
      for (const auto& [name, scope] : scopes) wanted_binding = wanted_binding || !scope.bound;
      if (!declined.empty()) {
        leave(declined);
        continue;
      }
      leave(wanted_binding ? "no `device` in scope to use here, and none can be bound for it; choose the device once "
                             "in this scope and pass it"
                           : "no mechanical rewrite for this form");
      continue;
    }
    if (replacement->text == original) continue;
    std::string written = replacement->text;
    // A notebook's lines are its cells' strings, which no line-length linter reads.
    if (options.max_line && !notebook) {
      if (const size_t longest = fit_line_limit(text, f.start_byte, f.end_byte, options.max_line, written)) {
        leave("the fixed line would be " + std::to_string(longest) + " characters, over the project's limit of " +
              std::to_string(options.max_line) + " (" + options.max_line_source + "); fix it by hand");
        continue;
      }
    }
    std::string needs = spec.pytorch;
    if (!replacement->pytorch.empty() && (needs.empty() || version_at_least(replacement->pytorch, needs)))
      needs = replacement->pytorch;
    // `torch.device("cuda:0")` whose string becomes a device object the scope holds: the call would
    // only wrap that device again (`torch.device(device)`), so the call becomes the name.
    uint32_t edit_start = f.start_byte, edit_end = f.end_byte;
    std::string edit_original = original;
    if (!replacement->bound_name.empty() && !module_name.empty() && scopes[replacement->bound_name].object &&
        (written == replacement->bound_name || written == scopes[replacement->bound_name].expression))
      if (const auto call = device_call_around(text, file->root(), f.start_byte, f.end_byte, module_name)) {
        std::tie(edit_start, edit_end) = *call;
        edit_original = text.substr(edit_start, edit_end - edit_start);
      }
    Edit edit{f.path, f.rule, edit_start, edit_end, edit_original, written, f.location, needs};
    edit.note = replacement->note;
    if (!replacement->bound_name.empty()) {
      const DeviceScope& scope = scopes[replacement->bound_name];
      if (!scope.bound) {
        const AutofixBinding* binding = binding_for(spec, replacement->bound_name, options.target_pytorch);
        // A function that runs a model it does not move takes the model's device, where its
        // caller put it; otherwise the rule's choice of device.
        const std::string bound =
            scope.from_module.empty()
                ? with_module_name(binding->text, spec.module, module_name)
                : binding->name + " = next(" + scope.from_module + ".parameters()).device";
        Edit insert{f.path, f.rule, scope.insert_at, scope.insert_at, "",
                    (scope.after_imports ? "\n" : "") + binding_lines(bound, scope.indent), f.location,
                    scope.from_module.empty() ? (binding->pytorch.empty() ? spec.pytorch : binding->pytorch) : spec.pytorch};
        if (scope.scope.starts_with("function") && scope.from_module.empty() && is_script(text, file->root()))
          function_bindings[f.path].insert(scope.insert_at);
        insert.binding = true;
        insert.note = "binds `" + binding->name + "` once for " + scope.scope +
                      (scope.from_module.empty() ? "" : ", from the device of `" + scope.from_module + "`");
        if (!insert.needs_pytorch.empty() && (edit.needs_pytorch.empty() || version_at_least(insert.needs_pytorch, edit.needs_pytorch)))
          edit.needs_pytorch = insert.needs_pytorch;  // the site runs the binding's code
        out.edits.push_back(std::move(insert));
        edit.uses_binding_at = scope.insert_at;
      }
    }
    out.edits.push_back(std::move(edit));
  }
  return out;
}

}  // namespace

bool version_at_least(const std::string& version, const std::string& minimum) {
  return version_parts(version) >= version_parts(minimum);
}

CollectedEdits collect_edits(const std::vector<Finding>& findings, const RuleSet& rules,
                             const EditCollectionOptions& options,
                             const std::function<const std::string&(const std::string&)>& text_of,
                             const std::set<std::string>& callees) {
  // A script whose functions would each choose the device binds it once, after its imports: the
  // choice is written once per file, never repeated per function.
  std::set<std::string> scripts;
  std::map<std::string, std::set<uint32_t>> function_bindings;
  CollectedEdits first = collect_pass(findings, rules, options, text_of, callees, scripts, function_bindings);
  for (const auto& [path, at] : function_bindings)
    if (at.size() > 1) scripts.insert(path);
  if (scripts.empty()) return first;
  return collect_pass(findings, rules, options, text_of, callees, scripts, function_bindings);
}

}  // namespace mpsready
