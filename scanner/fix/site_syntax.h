#pragma once
// Where a finding's span sits in its file's syntax, as far as a rewrite needs to know: a whole
// statement (then a rewrite may span lines, at its indentation), an argument, an assigned value.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <tree_sitter/api.h>

namespace mpsready {

class PythonFile;

struct SiteSyntax {
  bool statement = false;  // a whole expression statement, alone on its line(s)
  std::string indent;      // the statement's indentation
  bool argument = false;   // a keyword argument (or its value), or a call's only positional argument
  bool value = false;      // the value assigned to a name, attribute or key, or a dict entry's value
};

SiteSyntax site_syntax(std::string_view text, TSNode root, uint32_t start, uint32_t end);

// The span of `<module>.device(...)` when bytes [start, end) are its only argument and it fits on
// one line (`torch.device("cuda:0")`): a rewrite of the argument into a device object would
// only wrap that device again, so the call itself is what to replace. Nullopt otherwise.
std::optional<std::pair<uint32_t, uint32_t>> device_call_around(std::string_view text, TSNode root, uint32_t start,
                                                                uint32_t end, std::string_view module);

// The line of an `assert` that requires CUDA (`assert torch.cuda.is_available()`) before the site
// in its block or an enclosing one: a Mac stops there, so code after it is CUDA's alone.
std::optional<int> cuda_required_before(const PythonFile& file, uint32_t site);

// The name a file binds `module` to at top level: the module's own name for `import torch` (or
// `import torch.nn`), the alias for `import torch as T`; nullopt when it binds neither.
std::optional<std::string> module_binding(std::string_view text, TSNode root, std::string_view module);

}  // namespace mpsready
