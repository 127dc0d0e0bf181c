#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/load_rules.h"
#include "fixtures/fix_fixture_check.h"
#include "fixtures/fixture_check.h"

namespace mpsready {

int run_rules_list(const GlobalOptions& global, const std::string& format) {
  auto loaded = load_rules(global, {}, {});
  if (!loaded) return 2;
  if (format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Rule& r : loaded->rules->rules()) {
      out.push_back({{"id", r.id}, {"title", r.title}, {"language", r.language},
                     {"category", r.category}, {"impact", to_string(r.impact)},
                     {"mechanical", r.mechanical}, {"status", r.status}, {"since", r.since}});
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (const Rule& r : loaded->rules->rules()) {
    std::cout << r.id << "  [" << r.category << ", " << to_string(r.impact) << "]  " << r.title << "\n";
  }
  std::cout << loaded->rules->rules().size() << " rules\n";
  return 0;
}

int run_rules_explain(const GlobalOptions& global, const std::string& id) {
  auto loaded = load_rules(global, {}, {});
  if (!loaded) return 2;
  const Rule* rule = loaded->rules->find(id);
  if (!rule) {
    std::cerr << "mpsready: no rule \"" << id << "\" (see `mpsready rules list`)\n";
    return 2;
  }
  std::cout << rule->id << ": " << rule->title << "\n"
            << "category: " << rule->category << "   impact: " << to_string(rule->impact)
            << " (guarded: " << to_string(rule->impact_when_guarded()) << ")"
            << "   mechanical fix: " << (rule->mechanical ? "yes" : "no") << "\n"
            << "fix: " << rule->fix << "\n";
  if (!rule->references.empty()) {
    std::cout << "references:";
    for (const auto& ref : rule->references) std::cout << "\n  - " << ref;
    std::cout << "\n";
  }
  if (!rule->doc.empty()) std::cout << "\n" << rule->doc;
  return 0;
}

int run_rules_test(const GlobalOptions& global, const std::vector<std::string>& ids) {
  auto loaded = load_rules(global, {}, {});
  if (!loaded) return 2;
  std::vector<std::string> targets = ids;
  if (targets.empty())
    for (const Rule& r : loaded->rules->rules()) targets.push_back(r.id);
  int failed = 0;
  for (const auto& id : targets) {
    const FixtureReport report = check_fixture(*loaded->rules, id);
    std::cout << (report.passed() ? "PASS " : "FAIL ") << id << "  tp=" << report.true_positives
              << " fp=" << report.false_positives << " fn=" << report.false_negatives
              << " todo-fp=" << report.todo_false_positives << " todo-fn=" << report.todo_false_negatives
              << "\n";
    for (const auto& failure : report.failures) std::cout << "    " << failure << "\n";
    bool passed = report.passed();
    // A rule with a fix also has its fix fixture pair checked (fixture.py -> fixture.fixed.py).
    const Rule* rule = loaded->rules->find(id);
    if (rule && rule_has_rewrites(*rule)) {
      const FixFixtureReport fix = check_fix_fixture(*loaded->rules, id);
      std::cout << (fix.passed() ? "PASS " : "FAIL ") << id << " fix  sites=" << fix.sites_fixed << "\n";
      for (const auto& failure : fix.failures) std::cout << "    " << failure << "\n";
      passed = passed && fix.passed();
    }
    failed += !passed;
  }
  std::cout << (targets.size() - static_cast<size_t>(failed)) << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace mpsready
