#pragma once
// Whether a `try: import x / except ImportError:` has a working fallback, so that what it imports
// is optional. A handler that binds the names to None, warns, sets a flag or JIT-builds the same
// extension provides no alternative by itself: the import is optional only if the file then uses
// the names only on guarded paths (a CUDA check, a test of the name or flag), never when it
// merely re-exports them or tests its flag only to raise.
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <tree_sitter/api.h>

namespace mpsready {

class GuardMap;
class ImportMap;
struct NameRef;

struct FallbackFacts {
  std::string_view source;
  TSNode root;
  const ImportMap& imports;
  const std::vector<NameRef>& refs;
  const GuardMap& cuda_guards;      // regions behind CUDA checks (without import fallbacks)
  const std::vector<TSNode>& ifs;   // every if_statement / elif_clause
};

// `attempt` is a try_statement whose handler `handler` catches import errors and does not only
// raise.
bool has_working_fallback(const FallbackFacts& facts, TSNode attempt, TSNode handler);

}  // namespace mpsready
