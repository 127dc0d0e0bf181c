#pragma once
// A tuple or list of classes bound to a name that only type tests read:
//
//     supported = (SingleDeviceStrategy, DDPStrategy)
//     if not isinstance(strategy, supported): raise ...
//     names = ", ".join(s.__name__ for s in supported)
//
// names the classes without making any of them, as `isinstance(x, (A, B))` written inline does:
// the call graph must not take such a name for an instance of the class (model/mac_path.h).
#include <tree_sitter/api.h>

#include "python/python_file.h"

namespace mpsready {

// `assignment`: an `x = (A, B)` / `x = [A, B]` node whose right side holds only dotted names.
// True when every other mention of `x` in the same scope (the enclosing function, else the
// module, nested functions included) is the class argument of `isinstance`/`issubclass` (also
// through `tuple(x)`), or the iterable of a comprehension that reads only `.__name__` or
// `.__qualname__` of its item — and there is at least one such type test. False for any other
// use (a call, an iteration that uses the classes, a return, an argument) and when the scope is
// too large to read within the walk's budget (kMaxScopeNodes).
bool names_only_type_tests(const PythonFile& file, TSNode assignment);

inline constexpr unsigned kMaxScopeNodes = 20'000;

}  // namespace mpsready
