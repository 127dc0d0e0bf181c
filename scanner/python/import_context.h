#pragma once
// Where an import statement sits, for the repository's import graph: at module level or inside a
// function (lazy), on a feature branch, or in the `__main__` block.
#include <string>

#include <tree_sitter/api.h>

namespace mpsready {

class PythonFile;

struct ImportContext {
  bool lazy = false;
  std::string function;  // innermost enclosing function, `Class.method` for a method
  std::string branch;    // innermost non-CUDA condition the import depends on, shortened
  bool in_main_block = false;
  bool caught = false;  // in a `try` body whose handler catches import errors (ImportFact::caught)
};

ImportContext import_context(const PythonFile& file, TSNode statement);

// `if __name__ == "__main__":` (either order, either quotes).
bool is_main_check(const PythonFile& file, TSNode condition);

}  // namespace mpsready
