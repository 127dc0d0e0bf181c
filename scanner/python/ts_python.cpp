#include "python/ts_python.h"
#include "engine/test_point.h"

#include <algorithm>
#include <string>

#include <cstring>
#include <stdexcept>

extern "C" const TSLanguage* tree_sitter_python();

namespace mpsready {

const TSLanguage* python_language() {
  static const TSLanguage* language = [] {
    const TSLanguage* lang = tree_sitter_python();
    const uint32_t version = ts_language_version(lang);
    if (version < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION ||
        version > TREE_SITTER_LANGUAGE_VERSION)
      throw std::runtime_error("tree-sitter-python grammar ABI " + std::to_string(version) +
                               " is not supported by this tree-sitter library");
    return lang;
  }();
  return language;
}

PythonParser::PythonParser() : parser_(ts_parser_new()) {
  ts_parser_set_language(parser_, python_language());
}

PythonParser::~PythonParser() { ts_parser_delete(parser_); }

size_t unparsable_nesting(std::string_view text) {
  // Brackets counted lexically, strings and comments included: an overestimate, which only
  // matters past kMaxUnbalancedNesting levels.
  std::string expected;  // the closing bracket each open one needs, innermost last
  size_t deepest = 0;
  bool in_order = true;
  for (const char c : text) {
    if (c == '(' || c == '[' || c == '{') {
      expected.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
      deepest = std::max(deepest, expected.size());
    } else if (c == ')' || c == ']' || c == '}') {
      if (expected.empty() || expected.back() != c) in_order = false;
      if (!expected.empty()) expected.pop_back();
    }
  }
  if (!expected.empty()) in_order = false;
  return deepest > kMaxUnbalancedNesting && !in_order ? deepest : 0;
}

TreePtr PythonParser::parse(std::string_view text, uint64_t timeout_micros) {
  if (unparsable_nesting(text)) return nullptr;
  test_point("python", text);
  ts_parser_reset(parser_);
  ts_parser_set_timeout_micros(parser_, timeout_micros);
  return TreePtr(ts_parser_parse_string(parser_, nullptr, text.data(),
                                        static_cast<uint32_t>(text.size())));
}

const PyFields& PyFields::get() {
  static const PyFields fields = [] {
    const TSLanguage* lang = python_language();
    auto id = [lang](const char* name) {
      const TSFieldId field = ts_language_field_id_for_name(lang, name,
                                                            static_cast<uint32_t>(std::strlen(name)));
      if (field == 0) throw std::runtime_error(std::string("grammar has no field ") + name);
      return field;
    };
    PyFields f{};
    f.function = id("function");
    f.arguments = id("arguments");
    f.object = id("object");
    f.attribute = id("attribute");
    f.name = id("name");
    f.alias = id("alias");
    f.value = id("value");
    f.module_name = id("module_name");
    f.condition = id("condition");
    f.consequence = id("consequence");
    f.alternative = id("alternative");
    f.body = id("body");
    f.left = id("left");
    f.right = id("right");
    f.argument = id("argument");
    f.operator_ = id("operator");
    f.type = id("type");
    f.definition = id("definition");
    f.parameters = id("parameters");
    return f;
  }();
  return fields;
}

}  // namespace mpsready
