#pragma once
// The `arg` constraint of python.call: which argument to look at and what it must be.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <re2/re2.h>
#include <tree_sitter/api.h>

#include "python/matchers/params.h"

namespace mpsready {

class PythonFile;
struct CallSite;

class ValueMatcher {
 public:
  ValueMatcher(const nlohmann::json& spec, const ParamReader& reader);
  bool matches(const PythonFile& file, TSNode value) const;

 private:
  enum class Kind { string, contains_string, literal_true, not_literal_true, names, any } kind_ = Kind::any;
  std::unique_ptr<RE2> regex_;
  std::vector<std::string> names_;
};

class ArgumentConstraint {
 public:
  ArgumentConstraint(const nlohmann::json& spec, const ParamReader& reader);

  // The argument that satisfies the constraint; a null node when `or_absent` matched a call
  // without the argument; nullopt when the call does not match.
  std::optional<TSNode> match(const PythonFile& file, const CallSite& call) const;

 private:
  std::optional<uint32_t> position_;
  std::vector<std::string> keywords_;
  std::optional<ValueMatcher> value_;
  bool or_absent_ = false;
};

}  // namespace mpsready
