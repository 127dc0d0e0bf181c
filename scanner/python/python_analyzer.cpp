#include "python/python_analyzer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "python/code_graph_facts.h"
#include "python/downcast_helpers.h"
#include "python/extension_facts.h"
#include "python/import_context.h"
#include "python/python_file.h"
#include "python/ts_python.h"
#include "rules/message_template.h"

namespace mpsready {
namespace {

constexpr size_t kMaxSnippetBytes = 240;
// CPython itself rejects code nested 200 levels deep; past this, the tree is not real code.
constexpr size_t kMaxQueryDepth = 1000;
constexpr size_t kMaxTextVarBytes = 80;

Location locate(const SourceText& text, uint32_t start, uint32_t end, const NotebookSource* notebook) {
  const LineColumn begin = text.position(start);
  const LineColumn finish = text.position(end);
  Location loc{begin.line, begin.column, finish.line, finish.column, 0};
  if (notebook) {
    const auto map_line = [&](int line) {
      const size_t i = static_cast<size_t>(line - 1);
      return i < notebook->line_in_cell.size() ? notebook->line_in_cell[i] : line;
    };
    const size_t i = static_cast<size_t>(begin.line - 1);
    loc.cell = i < notebook->cell_of_line.size() ? notebook->cell_of_line[i] : 0;
    loc.file_line = i < notebook->file_line.size() ? notebook->file_line[i] : 0;
    loc.file_column = i < notebook->file_column.size() ? notebook->file_column[i] : 0;
    loc.line = map_line(begin.line);
    loc.end_line = map_line(finish.line);
  }
  return loc;
}

// Answers "does some span contain [start, end)?" in O(log n): among spans starting at or before
// `start`, the largest end must reach `end`. The second largest end answers the same question
// excluding the span itself, when [start, end) is one of the spans.
class SpanIndex {
 public:
  explicit SpanIndex(std::vector<std::pair<uint32_t, uint32_t>> spans) : spans_(std::move(spans)) {
    std::sort(spans_.begin(), spans_.end());
    uint32_t first = 0, second = 0;
    for (const auto& s : spans_) {
      if (s.second >= first) {
        second = first;
        first = s.second;
      } else if (s.second > second) {
        second = s.second;
      }
      max1_.push_back(first);
      max2_.push_back(second);
    }
  }
  bool contains(uint32_t start, uint32_t end) const {
    const size_t i = last_starting_at_or_before(start);
    return i != kNone && max1_[i] >= end;
  }
  // [start, end) is itself in the index: is another span containing it?
  bool contains_other(uint32_t start, uint32_t end) const {
    const size_t i = last_starting_at_or_before(start);
    return i != kNone && max2_[i] >= end;
  }

 private:
  static constexpr size_t kNone = SIZE_MAX;
  size_t last_starting_at_or_before(uint32_t start) const {
    const auto it = std::upper_bound(spans_.begin(), spans_.end(), std::make_pair(start, UINT32_MAX));
    return it == spans_.begin() ? kNone : static_cast<size_t>(it - spans_.begin()) - 1;
  }
  std::vector<std::pair<uint32_t, uint32_t>> spans_;
  std::vector<uint32_t> max1_, max2_;
};

}  // namespace

void merge_overlapping(std::vector<Finding>& findings, const PythonProgram& program) {
  // Exact duplicates (two matchers of one rule on the same span) first.
  std::sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.rule, a.start_byte, a.end_byte) < std::tie(b.rule, b.start_byte, b.end_byte);
  });
  findings.erase(std::unique(findings.begin(), findings.end(),
                             [](const Finding& a, const Finding& b) {
                               return a.rule == b.rule && a.start_byte == b.start_byte &&
                                      a.end_byte == b.end_byte;
                             }),
                 findings.end());

  // Spans that cover others: each rule's own spans, and the spans of rules superseding it.
  std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> covering;
  std::map<std::string, std::set<std::string>> superseded_by;
  for (const auto& compiled : program.rules())
    for (const auto& other : compiled.rule->supersedes) superseded_by[other].insert(compiled.rule->id);
  for (const Finding& f : findings) {
    covering[f.rule].emplace_back(f.start_byte, f.end_byte);
    for (const auto& [victim, winners] : superseded_by)
      if (winners.count(f.rule)) covering["~" + victim].emplace_back(f.start_byte, f.end_byte);
  }
  std::map<std::string, SpanIndex> same_rule, superseding;
  for (auto& [key, spans] : covering) {
    if (key[0] == '~') superseding.emplace(key.substr(1), SpanIndex(spans));
    else same_rule.emplace(key, SpanIndex(spans));
  }
  std::erase_if(findings, [&](const Finding& f) {
    if (same_rule.at(f.rule).contains_other(f.start_byte, f.end_byte)) return true;
    const auto it = superseding.find(f.rule);
    return it != superseding.end() && it->second.contains(f.start_byte, f.end_byte);
  });
}

FileAnalysis analyze_python(const SourceText& text, const std::string& path,
                            const PythonProgram& program, const std::vector<bool>& active,
                            PythonParser& parser, const AnalysisOptions& options,
                            const NotebookSource* notebook, const PythonReading& reading) {
  FileAnalysis result;
  const std::string_view code = reading.code.empty() ? text.text() : reading.code;
  if (const size_t depth = unparsable_nesting(code)) {
    result.errors.push_back({path, "brackets nested " + std::to_string(depth) + " levels deep and not closed in order; the file was not parsed", true});
    return result;
  }
  TreePtr tree = parser.parse(code, options.parse_timeout_micros);
  if (!tree) {
    result.errors.push_back({path, "parse time limit reached; the file was not analysed", true});
    return result;
  }
  const PythonFile file(code, tree.get(), reading.star);
  if (const auto error = file.first_error()) {
    const Location loc = locate(text, ts_node_start_byte(*error), ts_node_start_byte(*error), notebook);
    std::string where = "line " + std::to_string(loc.line);
    if (loc.cell) where = "cell " + std::to_string(loc.cell) + ", " + where;
    result.errors.push_back({path, "syntax error at " + where +
                                       "; findings in the rest of the file are still reported"});
  }

  const auto add_import = [&](TSNode statement, TSNode at, const std::string& name, int level) {
    const uint32_t start = ts_node_start_byte(at);
    const Location loc = locate(text, start, start, notebook);
    const ImportContext context = import_context(file, statement);
    ImportFact fact{path, loc.line, loc.cell, name, file.guards().contains(start)};
    fact.level = level;
    fact.lazy = context.lazy;
    fact.function = context.function;
    fact.branch = context.branch;
    fact.in_main_block = context.in_main_block;
    fact.caught = context.caught;
    result.imports.push_back(std::move(fact));
  };
  for (const ImportSite& site : file.imports().sites()) add_import(site.statement, site.node, site.name, 0);
  for (const auto& site : file.imports().relative_sites()) add_import(site.statement, site.statement, site.name, site.level);

  result.extensions = find_extensions(file, text, path);
  if (!notebook) result.code.push_back(scan_code_graph(file, path));

  // Tree-sitter queries cost time proportional to depth times size; on absurdly deep trees they
  // are skipped (and the file reported), while the linear matchers still run.
  const bool too_deep = file.max_depth() > kMaxQueryDepth;
  bool skipped_queries = false;
  const CombinedQuery& queries = program.queries();
  std::vector<bool> wanted(queries.slots());
  for (uint32_t slot = 0; slot < queries.slots(); ++slot) {
    wanted[slot] = active[program.rule_of_slot(slot)];
    if (wanted[slot] && too_deep) {
      wanted[slot] = false;
      skipped_queries = true;
    }
  }
  std::vector<std::vector<RawMatch>> query_matches;
  queries.run(file, wanted, query_matches);
  std::vector<RawMatch> raw;
  // Arguments of calls to helpers that cast to float32 on MPS, found once for the rules that ask.
  std::optional<std::vector<DowncastArgument>> downcast;
  const auto passed_to_downcast = [&](uint32_t start, uint32_t end) -> const DowncastArgument* {
    if (!downcast) downcast = mps_downcast_arguments(file);
    for (const DowncastArgument& arg : *downcast)
      if (arg.start <= start && end <= arg.end) return &arg;
    return nullptr;
  };
  for (size_t i = 0; i < program.rules().size(); ++i) {
    if (!active[i]) continue;
    const CompiledPythonRule& compiled = program.rules()[i];
    const Rule& rule = *compiled.rule;
    raw.clear();
    for (const auto& matcher : compiled.matchers) matcher->match(file, raw);
    for (const uint32_t slot : compiled.query_slots)
      std::move(query_matches[slot].begin(), query_matches[slot].end(), std::back_inserter(raw));
    for (RawMatch& m : raw) {
      const uint32_t start = ts_node_start_byte(m.node);
      const uint32_t end = ts_node_end_byte(m.node);
      // A rule that keeps its impact behind CUDA checks (the check is its own finding) is still
      // lowered where only a run that chose CUDA goes (a distributed launch, `device == "cuda"`).
      const bool guarded = rule.when_guarded != WhenGuarded::keep ? file.guards().contains(start)
                                                                  : file.choice_guards().contains(start);
      if (guarded && rule.when_guarded == WhenGuarded::drop) continue;
      if (rule.when_downcast != WhenDowncast::keep) {
        if (const DowncastArgument* arg = passed_to_downcast(start, end)) {
          if (rule.when_downcast == WhenDowncast::drop) continue;
          m.impact_cap = Impact::info;
          m.vars["use"] = "it is passed to `" + arg->helper + "`, which casts to float32 on MPS";
        }
      }

      // A dtype the caller chooses: `if self.double_precision:` for `double_precision=True`.
      if (!rule.opt_out_words.empty() && !guarded) {
        if (const OptionBranch* branch = file.opt_out_branch(start, end)) {
          std::string lower = branch->option;
          for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          for (const std::string& word : rule.opt_out_words) {
            if (lower.find(word) == std::string::npos) continue;
            m.impact_cap = Impact::info;
            m.vars["note"] = "it runs only while the option `" + branch->option +
                             "` is on, its default; a caller switches it off for MPS (`" + branch->option + "=False`)";
            break;
          }
        }
      }

      Finding f;
      f.rule = rule.id;
      f.category = rule.category;
      f.path = path;
      f.start_byte = start;
      f.end_byte = end;
      f.guarded = guarded;
      f.mechanical = rule.mechanical;
      std::string message = rule.message;
      std::string fix = rule.fix;
      SiteContext& site = f.site;
      site.guarded = guarded;
      site.device_branch = (file.device_branches().contains(start) && file.device_branches().contains(end - 1)) ||
                           m.switched_by_cuda_test;
      site.cap = m.impact_cap;
      if (m.record) {
        const auto& fields = m.record->fields;
        if (auto it = fields.find("impact"); it != fields.end()) site.own = parse_impact(it->second);
        if (auto it = fields.find("guarded_impact"); it != fields.end()) site.guarded_own = parse_impact(it->second);
        if (auto it = fields.find("message"); it != fields.end()) message = it->second;
        if (auto it = fields.find("fix"); it != fields.end()) fix = it->second;
        if (auto it = fields.find("mechanical"); it != fields.end()) f.mechanical = it->second == "true";
        for (const auto& [key, value] : fields) m.vars.emplace(key, value);
      }
      if (m.guarded_impact) site.guarded_own = m.guarded_impact;
      // What the message adds if the cap decides the impact (the assessment appends it).
      std::string cap_note;
      if (site.cap) {
        if (const auto use = m.vars.find("use"); use != m.vars.end())
          cap_note = "; " + use->second + ", so nothing needs to change for MPS";
        else if (const auto note = m.vars.find("note"); note != m.vars.end())
          cap_note = "; " + note->second;
        else if (const auto sw = m.vars.find("switch"); sw != m.vars.end())
          cap_note = "; here it switches itself off without CUDA (`" + sw->second + "`), so a Mac runs it as plain fp32 code";
        // Otherwise the matcher's message template already says why (op coverage's `{cpu}`).
      }
      m.vars.emplace("text", shorten_utf8(file.text(m.node), kMaxTextVarBytes));
      if (!cap_note.empty()) site.cap_note = fill_template(cap_note, m.vars);
      f.message = fill_template(message, m.vars);
      f.fix = fill_template(fix, m.vars);
      // A method call at the end of a chain over several lines (`(model\n .eval()\n .cuda())`) is
      // cited at its method's line and column, the token the message names, not at the chain's start.
      uint32_t anchor = start;
      if (node_is(m.node, "call")) {
        const TSNode function = ts_node_child_by_field_id(m.node, PyFields::get().function);
        const TSNode method = node_is(function, "attribute") ? ts_node_child_by_field_id(function, PyFields::get().attribute) : TSNode{};
        if (!ts_node_is_null(method) && text.position(ts_node_start_byte(method)).line != text.position(start).line)
          anchor = ts_node_start_byte(method);
      }
      f.location = locate(text, anchor, end, notebook);
      f.snippet = shorten_utf8(text.line(text.position(anchor).line), kMaxSnippetBytes);
      result.findings.push_back(std::move(f));
    }
  }
  if (skipped_queries)
    result.errors.push_back({path, "nesting " + std::to_string(file.max_depth()) +
                                       " levels deep exceeds " + std::to_string(kMaxQueryDepth) +
                                       "; rules that use tree-sitter queries were skipped for this file"});
  merge_overlapping(result.findings, program);
  return result;
}

}  // namespace mpsready
