#pragma once
// The context of indented imports read from indentation alone, for files no rule needs to parse.
// It answers only where indentation is as good as the syntax tree: an import whose enclosing
// blocks are functions, classes and the `__main__` block, with no control flow before it in its
// functions (an early `return` or an `if` could make it guarded, which only the tree tells).
// Anything else — an import under `if`/`try`/`with`/`for`, inside a string or a bracket, tabs in
// the indentation — is left to the parse.
#include <string_view>
#include <vector>

#include "core/repo_facts.h"

namespace mpsready {

// `facts` are the lexical imports of `text`, with `guarded` set on the indented ones (the
// marker of scan_imports_lexically). Fills lazy/function/in_main_block and clears the marker on
// every indented import when all of them can be read this way, and returns true; returns false
// and leaves `facts` as they were otherwise.
bool resolve_lexical_contexts(std::string_view text, std::vector<ImportFact>& facts);

}  // namespace mpsready
