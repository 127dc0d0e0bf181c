#pragma once
// One C++/CUDA file as the matchers see it: its text, its raw tokens and what Clang found.
#include <map>
#include <string>
#include <vector>

#include "clang_parse.h"
#include "core/source_text.h"
#include "rules/table.h"
#include "token_scanner.h"

namespace mpsready {

struct CppFile {
  std::string path;
  const SourceText* text = nullptr;
  bool cuda = false;
  // A LibTorch application's source, not an extension's: no PYBIND11_MODULE, TORCH_LIBRARY*,
  // torch/extension.h or CUDA device code, and a `main` or a LibTorch front-end header
  // (`torch/torch.h`, `torch/script.h`). Matchers can be limited to such files (`files`).
  bool libtorch_application = false;
  std::vector<CppToken> tokens;
  ClangParseResult clang;

  // Byte offset of a Clang position.
  uint32_t offset(int line, int byte_column) const { return text->offset_of(line, byte_column); }
};

struct CppRawMatch {
  uint32_t start = 0;  // byte offsets in the file
  uint32_t end = 0;
  std::map<std::string, std::string> vars;
  const TableRecord* record = nullptr;
  // The matcher's own overrides (`impact`, `message`, … in its params), applied after `record`.
  const TableRecord* overrides = nullptr;
};

class CppMatcher {
 public:
  virtual ~CppMatcher() = default;
  virtual void match(const CppFile& file, std::vector<CppRawMatch>& out) const = 0;
};

}  // namespace mpsready
