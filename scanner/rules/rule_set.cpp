#include "rules/rule_set.h"

#include "rules/rule_selector.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace mpsready {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RuleError(path.string() + ": cannot be read");
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

json parse_json_file(const fs::path& path) {
  try {
    return json::parse(read_file(path));
  } catch (const json::parse_error& e) {
    throw RuleError(path.string() + ": not valid JSON: " + e.what());
  } catch (const json::exception&) {  // out_of_range: a number too large for a double
    throw RuleError(path.string() + ": not valid JSON: a number in it is out of range");
  }
}

const json& require(const json& obj, const char* key, const std::string& where) {
  if (!obj.contains(key)) throw RuleError(where + ": missing required key \"" + key + "\"");
  return obj.at(key);
}

std::string require_string(const json& obj, const char* key, const std::string& where) {
  const json& value = require(obj, key, where);
  if (!value.is_string() || value.get<std::string>().empty())
    throw RuleError(where + ": \"" + key + "\" must be a non-empty string");
  return value.get<std::string>();
}

std::vector<std::string> string_list(const json& obj, const char* key, const std::string& where,
                                     bool required) {
  if (!obj.contains(key)) {
    if (required) throw RuleError(where + ": missing required key \"" + key + "\"");
    return {};
  }
  const json& value = obj.at(key);
  if (!value.is_array()) throw RuleError(where + ": \"" + key + "\" must be an array of strings");
  std::vector<std::string> out;
  for (const auto& item : value) {
    if (!item.is_string() || item.get<std::string>().empty())
      throw RuleError(where + ": \"" + key + "\" must contain only non-empty strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

Impact require_impact(const json& obj, const char* key, const std::string& where) {
  const std::string text = require_string(obj, key, where);
  const auto impact = parse_impact(text);
  if (!impact)
    throw RuleError(where + ": \"" + key + "\" must be blocker, portable or info, not \"" + text +
                    "\"");
  return *impact;
}

MatcherSpec parse_matcher(const json& value, const std::string& where) {
  if (!value.is_object()) throw RuleError(where + ": \"matcher\" entries must be objects");
  MatcherSpec spec;
  spec.kind = require_string(value, "kind", where + " matcher");
  spec.params = value.contains("params") ? value.at("params") : json::object();
  if (!spec.params.is_object()) throw RuleError(where + ": matcher \"params\" must be an object");
  for (const auto& [key, _] : value.items()) {
    if (key != "kind" && key != "params")
      throw RuleError(where + ": unknown matcher key \"" + key + "\"");
  }
  return spec;
}

Table parse_table(const fs::path& path) {
  const std::string where = path.string();
  const json doc = parse_json_file(path);
  if (!doc.is_object()) throw RuleError(where + ": a table must be a JSON object");
  Table table;
  table.name = path.stem().string();
  if (doc.contains("description") && doc["description"].is_string())
    table.description = doc["description"].get<std::string>();
  const json& records = require(doc, "records", where);
  if (!records.is_array()) throw RuleError(where + ": \"records\" must be an array");
  std::set<std::string> seen;
  for (size_t i = 0; i < records.size(); ++i) {
    const std::string rwhere = where + " record " + std::to_string(i);
    const json& rec = records[i];
    if (!rec.is_object()) throw RuleError(rwhere + ": must be an object");
    TableRecord record;
    record.name = require_string(rec, "name", rwhere);
    if (!seen.insert(record.name).second)
      throw RuleError(rwhere + ": duplicate name \"" + record.name + "\"");
    for (const auto& [key, value] : rec.items()) {
      if (value.is_string()) record.fields[key] = value.get<std::string>();
      else if (value.is_boolean()) record.fields[key] = value.get<bool>() ? "true" : "false";
    }
    for (const char* key : {"impact", "guarded_impact"}) {
      if (record.fields.count(key) && !parse_impact(record.fields[key]))
        throw RuleError(rwhere + ": \"" + key + "\" must be blocker, portable or info");
    }
    table.records.push_back(std::move(record));
  }
  return table;
}

const std::set<std::string>& known_rule_keys() {
  static const std::set<std::string> keys = {
      "id",       "title",   "language", "category",   "impact",     "guarded_impact",
      "when_guarded", "when_downcast", "opt_out_words", "mechanical", "needles", "matcher", "message", "fix", "autofix",
      "supersedes", "references", "status", "since", "subject", "$schema"};
  return keys;
}

}  // namespace

Rule parse_rule(const json& doc, const std::string& where) {
  if (!doc.is_object()) throw RuleError(where + ": a rule must be a JSON object");
  for (const auto& [key, _] : doc.items()) {
    if (!known_rule_keys().count(key)) throw RuleError(where + ": unknown key \"" + key + "\"");
  }
  Rule rule;
  rule.id = require_string(doc, "id", where);
  rule.title = require_string(doc, "title", where);
  rule.language = require_string(doc, "language", where);
  rule.category = require_string(doc, "category", where);
  if (!is_known_category(rule.category))
    throw RuleError(where + ": unknown category \"" + rule.category + "\"");
  rule.impact = require_impact(doc, "impact", where);
  if (doc.contains("guarded_impact")) rule.guarded_impact = require_impact(doc, "guarded_impact", where);
  if (doc.contains("when_guarded")) {
    const std::string w = require_string(doc, "when_guarded", where);
    if (w == "lower") rule.when_guarded = WhenGuarded::lower;
    else if (w == "drop") rule.when_guarded = WhenGuarded::drop;
    else if (w == "keep") rule.when_guarded = WhenGuarded::keep;
    else throw RuleError(where + ": \"when_guarded\" must be lower, drop or keep");
  }
  if (doc.contains("when_downcast")) {
    const std::string w = require_string(doc, "when_downcast", where);
    if (w == "keep") rule.when_downcast = WhenDowncast::keep;
    else if (w == "info") rule.when_downcast = WhenDowncast::info;
    else if (w == "drop") rule.when_downcast = WhenDowncast::drop;
    else throw RuleError(where + ": \"when_downcast\" must be keep, info or drop");
  }
  rule.opt_out_words = string_list(doc, "opt_out_words", where, false);
  if (doc.contains("mechanical")) {
    if (!doc["mechanical"].is_boolean()) throw RuleError(where + ": \"mechanical\" must be a boolean");
    rule.mechanical = doc["mechanical"].get<bool>();
  }
  rule.needles = string_list(doc, "needles", where, true);
  if (rule.needles.empty()) throw RuleError(where + ": \"needles\" must not be empty");
  const json& matcher = require(doc, "matcher", where);
  if (matcher.is_array()) {
    for (const auto& m : matcher) rule.matchers.push_back(parse_matcher(m, where));
  } else {
    rule.matchers.push_back(parse_matcher(matcher, where));
  }
  if (rule.matchers.empty()) throw RuleError(where + ": \"matcher\" must not be empty");
  rule.message = require_string(doc, "message", where);
  rule.fix = require_string(doc, "fix", where);
  if (doc.contains("autofix")) {
    try {
      rule.autofix = parse_autofix(doc["autofix"]);
    } catch (const std::invalid_argument& e) {
      throw RuleError(where + ": " + e.what());
    }
  }
  rule.supersedes = string_list(doc, "supersedes", where, false);
  rule.references = string_list(doc, "references", where, false);
  rule.status = require_string(doc, "status", where);
  if (rule.status != "stable" && rule.status != "preview")
    throw RuleError(where + ": \"status\" must be stable or preview");
  rule.since = require_string(doc, "since", where);
  if (doc.contains("subject")) {
    rule.subject = require_string(doc, "subject", where);
    if (rule.subject != "import" && rule.subject != "extension")
      throw RuleError(where + ": \"subject\" must be import or extension");
  }
  return rule;
}

RuleSet RuleSet::load(const fs::path& rules_dir) {
  std::error_code ec;
  if (!fs::is_directory(rules_dir, ec))
    throw RuleError(rules_dir.string() + ": rules directory not found (use --rules DIR)");
  RuleSet set;
  set.dir_ = rules_dir;

  const fs::path tables_dir = rules_dir / "tables";
  if (fs::is_directory(tables_dir, ec)) {
    for (const auto& entry : fs::directory_iterator(tables_dir)) {
      if (entry.path().extension() == ".json") {
        Table table = parse_table(entry.path());
        set.tables_.emplace(table.name, std::move(table));
      }
    }
  }

  // rules/<language>/<id>/rule.json; two fixed levels, so no recursion is needed.
  std::vector<fs::path> rule_files;
  for (const auto& lang : fs::directory_iterator(rules_dir)) {
    if (!lang.is_directory() || lang.path().filename() == "tables" ||
        lang.path().filename() == "schema")
      continue;
    for (const auto& rule_dir : fs::directory_iterator(lang.path())) {
      if (rule_dir.is_directory() && fs::exists(rule_dir.path() / "rule.json"))
        rule_files.push_back(rule_dir.path() / "rule.json");
    }
  }
  std::sort(rule_files.begin(), rule_files.end());

  std::set<std::string> ids;
  for (const auto& file : rule_files) {
    Rule rule = parse_rule(parse_json_file(file), file.string());
    const fs::path dir = file.parent_path();
    if (rule.id != dir.filename().string())
      throw RuleError(file.string() + ": id \"" + rule.id + "\" differs from its folder name");
    if (rule.language != dir.parent_path().filename().string())
      throw RuleError(file.string() + ": language \"" + rule.language +
                      "\" differs from its parent folder");
    if (!ids.insert(rule.id).second) throw RuleError(file.string() + ": duplicate id " + rule.id);
    rule.dir = dir;
    if (fs::exists(dir / "query.scm")) rule.query_source = read_file(dir / "query.scm");
    if (fs::exists(dir / "doc.md")) rule.doc = read_file(dir / "doc.md");
    // A single annotated file, or a fixture/ directory whose files are all annotated (for rules
    // about file names: requirements.txt, Dockerfile, CMakeLists.txt).
    for (const char* name : {"fixture.py", "fixture.cu", "fixture.cpp", "fixture.h", "fixture.pyx", "fixture"}) {
      if (fs::exists(dir / name)) {
        rule.fixture = dir / name;
        break;
      }
    }
    for (const auto& spec : rule.matchers) {
      if (spec.params.contains("table") && spec.params["table"].is_string() &&
          !set.tables_.count(spec.params["table"].get<std::string>()))
        throw RuleError(file.string() + ": unknown table \"" +
                        spec.params["table"].get<std::string>() + "\"");
    }
    set.rules_.push_back(std::move(rule));
  }
  for (const auto& rule : set.rules_) {
    for (const auto& other : rule.supersedes) {
      if (!ids.count(other))
        throw RuleError(rule.dir.string() + "/rule.json: supersedes unknown rule \"" + other + "\"");
    }
  }
  std::sort(set.rules_.begin(), set.rules_.end(),
            [](const Rule& a, const Rule& b) { return a.id < b.id; });
  return set;
}

const Rule* RuleSet::find(const std::string& id) const {
  for (const auto& rule : rules_) {
    if (rule.id == id) return &rule;
  }
  return nullptr;
}

const Table* RuleSet::table(const std::string& name) const {
  const auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : &it->second;
}


void RuleSet::restrict(const std::vector<std::string>& select,
                       const std::vector<std::string>& ignore) {
  for (const auto* list : {&select, &ignore}) {
    for (const auto& selector : *list) {
      std::vector<std::string> ids;
      for (const Rule& r : rules_) ids.push_back(r.id);
      if (const std::string error = unknown_selector_error(selector, ids); !error.empty()) throw RuleError(error);
    }
  }
  std::vector<Rule> kept;
  for (auto& rule : rules_) {
    const bool selected =
        select.empty() || std::any_of(select.begin(), select.end(), [&](const std::string& s) {
          return selector_matches(s, rule.id);
        });
    const bool ignored = std::any_of(ignore.begin(), ignore.end(), [&](const std::string& s) {
      return selector_matches(s, rule.id);
    });
    if (selected && !ignored) kept.push_back(std::move(rule));
  }
  rules_ = std::move(kept);
}

void Rule::configure_impact(Impact configured) {
  if (configured == impact) return;
  const int below = static_cast<int>(impact) - static_cast<int>(impact_when_guarded());
  impact = configured;
  guarded_impact = static_cast<Impact>(std::max(0, static_cast<int>(configured) - std::max(0, below)));
  impact_configured = true;
}

void RuleSet::configure_impacts(const std::map<std::string, Impact>& impacts) {
  for (const auto& entry : impacts) {
    const std::string& id = entry.first;
    const Impact impact = entry.second;
    const auto it = std::find_if(rules_.begin(), rules_.end(), [&](const Rule& r) { return r.id == id; });
    if (it == rules_.end()) throw RuleError("no such rule \"" + id + "\" (see `mpsready rules list`)");
    it->configure_impact(impact);
  }
}

fs::path default_rules_dir(const std::string& override_dir, const char* argv0) {
  if (!override_dir.empty()) return override_dir;
  if (const char* env = std::getenv("MPSREADY_RULES_DIR"); env && *env) return env;
  std::error_code ec;
  if (argv0) {
    fs::path exe = fs::weakly_canonical(fs::path(argv0), ec);
    if (fs::exists("/proc/self/exe", ec)) exe = fs::read_symlink("/proc/self/exe", ec);
    const fs::path installed = exe.parent_path().parent_path() / "share" / "mpsready" / "rules";
    if (!ec && fs::is_directory(installed, ec)) return installed;
  }
  return MPSREADY_SOURCE_RULES_DIR;
}

}  // namespace mpsready
