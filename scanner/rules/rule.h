#pragma once
// A rule as loaded from rules/<language>/<id>/rule.json. Pure data: the language front ends
// compile its matchers.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/impact.h"
#include "rules/autofix_spec.h"

namespace mpsready {

enum class WhenGuarded { lower, drop, keep };
// A finding inside an argument of a call to an in-repository helper that casts to float32 on MPS
// (python/downcast_helpers.h): kept as it is, reported as info, or not reported.
enum class WhenDowncast { keep, info, drop };

struct MatcherSpec {
  std::string kind;        // "python.call", "python.name", "python.import", "python.query"
  nlohmann::json params;   // kind-specific, validated by the matcher that compiles it
};

struct Rule {
  std::string id;
  std::string title;
  std::string language;
  std::string category;
  Impact impact = Impact::info;
  std::optional<Impact> guarded_impact;
  WhenGuarded when_guarded = WhenGuarded::lower;
  WhenDowncast when_downcast = WhenDowncast::keep;
  // A finding inside `if <option>:` for an option on by default whose name holds one of these
  // words (`double` in `double_precision=True`) is info: the caller can switch it off for MPS.
  std::vector<std::string> opt_out_words;
  bool mechanical = false;
  std::vector<std::string> needles;
  std::vector<MatcherSpec> matchers;
  std::string message;
  std::string fix;
  std::optional<AutofixSpec> autofix;  // "autofix": what `mpsready fix` may rewrite
  std::vector<std::string> supersedes;
  std::vector<std::string> references;
  std::string status;
  std::string since;
  // What a finding of this rule is about, for the repository model: "import" (the site imports
  // a module: it is moot when that module is the repository's own, and on a feature branch it is
  // that feature's), "extension" (the site declares a compiled extension: its impact follows the
  // extension's CPU path and importers). Empty: a code site like any other. (A dependency finding
  // is tied to its importers through the facts the deps front end records.)
  std::string subject;

  std::filesystem::path dir;   // the rule's folder
  std::string query_source;    // query.scm, when present
  std::string doc;             // doc.md
  std::filesystem::path fixture;  // fixture file or fixture/ directory, when present

  // Set by RuleSet::configure_impacts when a configuration gives this rule an impact other than
  // its own: `impact` is then the configured one, and it replaces the impacts of table records and
  // matchers (assess/impact_resolution.h says how a site's impact follows from these).
  bool impact_configured = false;

  Impact impact_when_guarded() const {
    return guarded_impact ? *guarded_impact : lowered(impact);
  }
  // The rule under a configured impact. The same impact as its own changes nothing (its table
  // records and guarded impacts stay); another one becomes the impact of every site, and a guarded
  // site stays as many levels below it as the rule's own guarded impact is below its own impact.
  void configure_impact(Impact configured);
};

}  // namespace mpsready
