#pragma once
// A point just before each front end hands a file to its parser (tree-sitter, Clang, yaml-cpp,
// toml++, the notebook reader). Nothing happens there unless a hook is installed, which only the
// test executable mpsready-crash-hooks does (tests/hostile/crash_hooks.cpp): it makes the front
// end crash, abort or hang on a marker file, so tests can check that the scan survives that.
#include <string_view>

namespace mpsready {

using TestPointHook = void (*)(std::string_view frontend, std::string_view bytes);

void set_test_point_hook(TestPointHook hook);

// `frontend`: "python", "notebook", "cpp", "yaml" or "toml".
void test_point(std::string_view frontend, std::string_view bytes);

}  // namespace mpsready
