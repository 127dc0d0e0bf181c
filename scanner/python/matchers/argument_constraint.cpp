#include "python/matchers/argument_constraint.h"

#include <algorithm>

#include "core/dotted_pattern.h"
#include "python/python_file.h"
#include "python/string_literal.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

// Subtrees searched by contains_string and names are bounded, like conditions.
constexpr size_t kMaxValueNodes = 4096;

std::unique_ptr<RE2> compile_regex(const std::string& pattern, const ParamReader& reader) {
  auto re = std::make_unique<RE2>(pattern, RE2::Quiet);
  if (!re->ok()) reader.fail("invalid regex \"" + pattern + "\": " + re->error());
  return re;
}

}  // namespace

ValueMatcher::ValueMatcher(const nlohmann::json& spec, const ParamReader& reader) {
  if (!spec.is_object() || spec.size() != 1) reader.fail("\"value\" must be an object with one key");
  const std::string key = spec.begin().key();
  const nlohmann::json& value = spec.begin().value();
  if (key == "string" || key == "contains_string") {
    if (!value.is_string()) reader.fail("\"value." + key + "\" must be a regex string");
    kind_ = key == "string" ? Kind::string : Kind::contains_string;
    regex_ = compile_regex(value.get<std::string>(), reader);
  } else if (key == "true") {
    kind_ = Kind::literal_true;
  } else if (key == "not_true") {
    kind_ = Kind::not_literal_true;
  } else if (key == "any") {
    kind_ = Kind::any;
  } else if (key == "names") {
    kind_ = Kind::names;
    if (!value.is_array()) reader.fail("\"value.names\" must be an array of patterns");
    for (const auto& item : value) names_.push_back(item.get<std::string>());
  } else {
    reader.fail("unknown value matcher \"" + key + "\"");
  }
}

bool ValueMatcher::matches(const PythonFile& file, TSNode value) const {
  switch (kind_) {
    case Kind::any: return true;
    case Kind::literal_true: return node_is(value, "true");
    case Kind::not_literal_true: return !node_is(value, "true");
    case Kind::string: {
      const auto content = string_literal_content(file.source(), value);
      return content && RE2::PartialMatch(*content, *regex_);
    }
    case Kind::contains_string:
    case Kind::names: {
      std::vector<TSNode> stack{value};
      size_t visited = 0;
      while (!stack.empty() && visited++ < kMaxValueNodes) {
        const TSNode node = stack.back();
        stack.pop_back();
        if (kind_ == Kind::contains_string) {
          if (const auto content = string_literal_content(file.source(), node)) {
            if (RE2::PartialMatch(*content, *regex_)) return true;
            continue;
          }
        } else if (node_is(node, "attribute") || node_is(node, "identifier")) {
          const std::string name = file.resolve(node);
          if (std::any_of(names_.begin(), names_.end(),
                          [&](const std::string& p) { return dotted_pattern_matches(p, name); }))
            return true;
        }
        const uint32_t count = ts_node_named_child_count(node);
        for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
      }
      return false;
    }
  }
  return false;
}

ArgumentConstraint::ArgumentConstraint(const nlohmann::json& spec, const ParamReader& reader) {
  if (!spec.is_object()) reader.fail("\"arg\" must be an object");
  for (const auto& [key, value] : spec.items()) {
    if (key == "position") {
      if (!value.is_number_unsigned()) reader.fail("\"arg.position\" must be a number >= 0");
      position_ = value.get<uint32_t>();
    } else if (key == "keyword") {
      if (value.is_string()) keywords_.push_back(value.get<std::string>());
      else if (value.is_array()) for (const auto& k : value) keywords_.push_back(k.get<std::string>());
      else reader.fail("\"arg.keyword\" must be a string or an array of strings");
    } else if (key == "value") {
      value_.emplace(value, reader);
    } else if (key == "or_absent") {
      if (!value.is_boolean()) reader.fail("\"arg.or_absent\" must be true or false");
      or_absent_ = value.get<bool>();
    } else {
      reader.fail("unknown key \"arg." + key + "\"");
    }
  }
  if (!position_ && keywords_.empty()) reader.fail("\"arg\" needs \"position\" or \"keyword\"");
}

std::optional<TSNode> ArgumentConstraint::match(const PythonFile& file, const CallSite& call) const {
  const auto& f = PyFields::get();
  if (!node_is(call.arguments, "argument_list")) return std::nullopt;
  bool present = false;
  uint32_t positional = 0;
  const uint32_t count = ts_node_named_child_count(call.arguments);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode arg = ts_node_named_child(call.arguments, i);
    const std::string_view type = ts_node_type(arg);
    if (type == "comment") continue;
    TSNode value{};
    if (type == "keyword_argument") {
      const std::string_view name = file.text(ts_node_child_by_field_id(arg, f.name));
      if (std::find(keywords_.begin(), keywords_.end(), name) != keywords_.end())
        value = ts_node_child_by_field_id(arg, f.value);
    } else if (type == "list_splat" || type == "dictionary_splat") {
      continue;
    } else {
      if (position_ && positional == *position_) value = arg;
      ++positional;
    }
    if (ts_node_is_null(value)) continue;
    present = true;
    if (!value_ || value_->matches(file, value)) return value;
  }
  if (!present && or_absent_) return TSNode{};
  return std::nullopt;
}

}  // namespace mpsready
