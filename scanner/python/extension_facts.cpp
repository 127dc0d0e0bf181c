#include "python/extension_facts.h"

#include <filesystem>
#include <optional>

#include "python/import_context.h"
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

bool looks_like_source(std::string_view s) {
  for (std::string_view ext : {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".mm", ".metal"})
    if (s.size() >= ext.size() && s.substr(s.size() - ext.size()) == ext) return true;
  return false;
}

// The literal text of a string node, f-strings included: `f"{here}/csrc/op.cu"` gives the part
// after the last replacement field ("csrc/op.cu"), which names the file relative to the computed
// directory (which is, in practice, the declaring file's).
std::optional<std::string> string_tail(const PythonFile& file, TSNode node) {
  auto s = string_literal_content(file.source(), node);
  if (!s) return s;
  if (const size_t brace = s->rfind("{}"); brace != std::string::npos) {
    *s = s->substr(brace + 2);
    while (!s->empty() && (s->front() == '/' || s->front() == '\\')) s->erase(0, 1);
  }
  return s;
}

// Source files named in an extension's `sources` argument, however the list is built: literal
// lists, `+` of lists, comprehensions, `os.path.join(dir, "a", "b.cu")` (its literal parts) and
// `glob.glob("csrc/*.cu")` (kept as a pattern). Bounded: real argument lists are small.
std::vector<std::string> source_strings(const PythonFile& file, TSNode sources) {
  constexpr size_t kMaxNodes = 2048;
  std::vector<std::string> out;
  if (ts_node_is_null(sources)) return out;
  std::vector<TSNode> stack{sources};
  for (size_t visited = 0; !stack.empty() && visited < kMaxNodes; ++visited) {
    const TSNode node = stack.back();
    stack.pop_back();
    if (node_is(node, "call")) {
      const std::string callee(file.text(ts_node_child_by_field_id(node, PyFields::get().function)));
      if (callee.size() >= 9 && callee.compare(callee.size() - 9, 9, "path.join") == 0) {
        std::string joined;
        const TSNode args = ts_node_child_by_field_id(node, PyFields::get().arguments);
        const uint32_t n = ts_node_named_child_count(args);
        for (uint32_t i = 0; i < n; ++i) {
          const auto part = string_tail(file, ts_node_named_child(args, i));
          if (!part) joined.clear();  // a computed part: the literal ones after it name the file
          else joined += (joined.empty() || part->empty() ? "" : "/") + *part;
        }
        if (looks_like_source(joined) || joined.find('*') != std::string::npos) out.push_back(joined);
        continue;
      }
    }
    if (node_is(node, "string")) {
      if (const auto s = string_tail(file, node); s && (looks_like_source(*s) || s->find('*') != std::string::npos))
        out.push_back(*s);
      continue;
    }
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
  }
  return out;
}

std::string repository_path(const std::string& declaring_file, const std::string& source) {
  namespace fs = std::filesystem;
  return (fs::path(declaring_file).parent_path() / source).lexically_normal().generic_string();
}

// `extension = CUDAExtension` (or CppExtension), then `extension("pkg._C", sources)`: which of the
// two a local name is bound to anywhere in the file (CUDA wins: some build uses it).
// `cpu_build_too`: the name is bound to CppExtension outside any guard and to CUDAExtension only
// behind a CUDA check (`extension = CppExtension` / `if cuda_here or FORCE_CUDA: extension =
// CUDAExtension`): the build without CUDA is a CppExtension of the same name.
std::string extension_class_bound_to(const PythonFile& file, std::string_view name, bool& cpu_build_too) {
  std::string found;
  bool cpp_unguarded = false, cuda_unguarded = false, cuda_any = false;
  for (const NameRef& ref : file.refs()) {
    if (ref.name != "torch.utils.cpp_extension.CUDAExtension" && ref.name != "torch.utils.cpp_extension.CppExtension")
      continue;
    const TSNode parent = ts_node_parent(ref.node);
    if (!node_is(parent, "assignment")) continue;
    if (file.text(ts_node_child_by_field_id(parent, PyFields::get().left)) != name) continue;
    const bool cuda = ref.name.find("CUDA") != std::string::npos;
    const bool guarded = file.guards().contains(ts_node_start_byte(ref.node));
    (cuda ? cuda_unguarded : cpp_unguarded) |= !guarded;
    cuda_any |= cuda;
    if (found.empty() || cuda) found = ref.name;
  }
  cpu_build_too = cuda_any && cpp_unguarded && !cuda_unguarded;
  return found;
}

}  // namespace

std::vector<ExtensionFact> find_extensions(const PythonFile& file, const SourceText& text, const std::string& path) {
  std::vector<ExtensionFact> out;
  // Once per file: a search per call made this quadratic in large files.
  const bool names_cpp_extension = file.source().find("cpp_extension") != std::string_view::npos;
  for (const CallSite& call : file.calls()) {
    std::string callee = call.callee;
    bool cpu_build_too = false;
    if (callee.empty() && names_cpp_extension && node_is(call.function, "identifier"))
      callee = extension_class_bound_to(file, file.text(call.function), cpu_build_too);
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
    for (const auto& source : source_strings(file, argument(file, call, 1, "sources"))) {
      fact.sources.push_back(repository_path(path, source));
      if (source.ends_with(".cu")) fact.cuda = true;
    }
    if (cuda_ext) fact.cuda = true;
    if (load || load_inline) {
      const ImportContext context = import_context(file, call.node);
      fact.jit = true;
      fact.lazy = context.lazy;
      fact.branch = context.branch;
      fact.guarded = file.guards().contains(ts_node_start_byte(call.node));
    }
    if (load_inline && !ts_node_is_null(argument(file, call, 99, "cuda_sources"))) fact.cuda = true;
    if (cpu_build_too) {
      // The same call builds the CppExtension where the CUDA check fails: its C++ sources only
      // (none listed: computed at build time). Sources that were all CUDA leave no CPU build.
      ExtensionFact cpu = fact;
      cpu.cuda = false;
      std::erase_if(cpu.sources, [](const std::string& s) { return s.ends_with(".cu") || s.ends_with(".cuh"); });
      if (fact.sources.empty() || !cpu.sources.empty()) out.push_back(std::move(cpu));
    }
    out.push_back(std::move(fact));
  }
  return out;
}

}  // namespace mpsready
