#include "rules/param_reader.h"

#include <algorithm>
#include <cstring>

namespace mpsready {

void ParamReader::fail(const std::string& what) const {
  throw RuleError(rule_.dir.string() + "/rule.json: " + kind_ + " params: " + what);
}

std::vector<std::string> ParamReader::strings(const char* key) const {
  if (!params_.contains(key)) return {};
  const auto& value = params_.at(key);
  if (value.is_string()) return {value.get<std::string>()};
  if (!value.is_array()) fail(std::string("\"") + key + "\" must be a string or an array of strings");
  std::vector<std::string> out;
  for (const auto& item : value) {
    if (!item.is_string()) fail(std::string("\"") + key + "\" must contain only strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::string ParamReader::string(const char* key, const std::string& fallback) const {
  if (!params_.contains(key)) return fallback;
  if (!params_.at(key).is_string()) fail(std::string("\"") + key + "\" must be a string");
  return params_.at(key).get<std::string>();
}

bool ParamReader::boolean(const char* key, bool fallback) const {
  if (!params_.contains(key)) return fallback;
  if (!params_.at(key).is_boolean()) fail(std::string("\"") + key + "\" must be true or false");
  return params_.at(key).get<bool>();
}

const nlohmann::json* ParamReader::object(const char* key) const {
  if (!params_.contains(key)) return nullptr;
  if (!params_.at(key).is_object()) fail(std::string("\"") + key + "\" must be an object");
  return &params_.at(key);
}

const Table* ParamReader::table(const RuleSet& rules) const {
  const std::string name = string("table", "");
  if (name.empty()) return nullptr;
  const Table* table = rules.table(name);
  if (!table) fail("unknown table \"" + name + "\"");
  return table;
}

void ParamReader::allow_only(std::initializer_list<const char*> keys) const {
  for (const auto& item : params_.items()) {
    // Not a structured binding: clang 14 cannot capture one in a lambda.
    const std::string& key = item.key();
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; }))
      fail("unknown key \"" + key + "\"");
  }
}

}  // namespace mpsready
