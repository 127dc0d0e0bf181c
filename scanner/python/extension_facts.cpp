#include "python/extension_facts.h"

#include <filesystem>

#include "python/python_file.h"
#include "python/string_literal.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

// The argument at `position` or with keyword `keyword`.
TSNode argument(const PythonFile& file, const CallSite& call, int position, std::string_view keyword) {
  const auto& f = PyFields::get();
  if (!node_is(call.arguments, "argument_list")) return TSNode{};
  int positional = 0;
  const uint32_t count = ts_node_named_child_count(call.arguments);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode arg = ts_node_named_child(call.arguments, i);
    if (node_is(arg, "keyword_argument")) {
      if (file.text(ts_node_child_by_field_id(arg, f.name)) == keyword) return ts_node_child_by_field_id(arg, f.value);
    } else if (!node_is(arg, "comment")) {
      if (positional++ == position) return arg;
    }
  }
  return TSNode{};
}

std::vector<std::string> literal_strings(const PythonFile& file, TSNode list) {
  std::vector<std::string> out;
  if (!node_is(list, "list") && !node_is(list, "tuple")) return out;
  const uint32_t count = ts_node_named_child_count(list);
  for (uint32_t i = 0; i < count; ++i)
    if (auto s = string_literal_content(file.source(), ts_node_named_child(list, i))) out.push_back(*s);
  return out;
}

std::string repository_path(const std::string& declaring_file, const std::string& source) {
  namespace fs = std::filesystem;
  return (fs::path(declaring_file).parent_path() / source).lexically_normal().generic_string();
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::vector<ExtensionFact> find_extensions(const PythonFile& file, const SourceText& text, const std::string& path) {
  std::vector<ExtensionFact> out;
  for (const CallSite& call : file.calls()) {
    const std::string& callee = call.callee;
    const bool cuda_ext = callee == "torch.utils.cpp_extension.CUDAExtension";
    const bool cpp_ext = callee == "torch.utils.cpp_extension.CppExtension";
    const bool load = callee == "torch.utils.cpp_extension.load";
    const bool load_inline = callee == "torch.utils.cpp_extension.load_inline";
    if (!cuda_ext && !cpp_ext && !load && !load_inline) continue;
    ExtensionFact fact;
    fact.path = path;
    fact.line = text.position(ts_node_start_byte(call.node)).line;
    const auto name = string_literal_content(file.source(), argument(file, call, 0, "name"));
    if (!name) continue;  // a computed name cannot be linked
    fact.name = *name;
    for (const auto& source : literal_strings(file, argument(file, call, 1, "sources"))) {
      fact.sources.push_back(repository_path(path, source));
      if (ends_with(source, ".cu")) fact.cuda = true;
    }
    if (cuda_ext) fact.cuda = true;
    if (load_inline && !ts_node_is_null(argument(file, call, 99, "cuda_sources"))) fact.cuda = true;
    out.push_back(std::move(fact));
  }
  return out;
}

}  // namespace mpsready
