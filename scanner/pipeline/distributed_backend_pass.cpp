#include "pipeline/distributed_backend_pass.h"

#include <cctype>
#include <string>

#include "engine/scanner.h"
#include "rules/message_template.h"

namespace mpsready {
namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `name` used as a table in `expression`: `name[...]` or `name.get(...)`, as a whole word.
bool indexes(const std::string& expression, const std::string& name) {
  for (size_t at = expression.find(name); at != std::string::npos; at = expression.find(name, at + 1)) {
    if (at > 0 && is_identifier_char(expression[at - 1])) continue;
    const size_t after = at + name.size();
    if (expression.compare(after, 1, "[") == 0 || expression.compare(after, 5, ".get(") == 0) return true;
  }
  return false;
}

// `.method(` of one of the space-separated `methods` in `expression`.
std::string calls_one_of(const std::string& expression, const std::string& methods) {
  size_t start = 0;
  while (start < methods.size()) {
    size_t end = methods.find(' ', start);
    if (end == std::string::npos) end = methods.size();
    const std::string method = methods.substr(start, end - start);
    if (!method.empty() && expression.find("." + method + "(") != std::string::npos) return method;
    start = end + 1;
  }
  return {};
}

}  // namespace

DistributedBackendPass::DistributedBackendPass(const RuleSet& rules) {
  for (const Rule& r : rules.rules())
    for (const MatcherSpec& m : r.matchers)
      if (m.kind == "repository.distributed_backend") rules_.push_back(&r);
}

void DistributedBackendPass::run(ScanResult& result) const {
  if (rules_.empty()) return;
  const auto& facts = result.facts.distributed;
  for (const DistributedFact& init : facts) {
    if (init.kind != "init") continue;
    std::string stub;
    for (const DistributedFact& d : facts) {
      if (d.kind == "mps-stub-table" && indexes(init.text, d.name)) {
        stub = "the per-device table `" + d.name + "` (" + d.path + ":" + std::to_string(d.line) + ") gives MPS no backend";
      } else if (d.kind == "mps-stub-class") {
        const std::string method = calls_one_of(init.text, d.text);
        if (!method.empty())
          stub = "`" + d.name + "." + method + "` (" + d.path + ":" + std::to_string(d.line) +
                 ") only raises or returns None";
      }
      if (!stub.empty()) break;
    }
    if (stub.empty()) continue;
    for (const Rule* rule : rules_) {
      Finding f;
      f.rule = rule->id;
      f.category = rule->category;
      f.mechanical = rule->mechanical;
      f.path = init.path;
      f.location = {init.line, 1, init.line, 1, 0};
      f.message = fill_template(rule->message, {{"function", init.name}, {"backend", init.text}, {"stub", stub}});
      f.fix = rule->fix;
      result.findings.push_back(std::move(f));
    }
  }
}

}  // namespace mpsready
