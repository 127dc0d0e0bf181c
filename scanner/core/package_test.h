#pragma once
// A test of whether a package is installed, read from its text: a call whose name asks for
// availability (`RequirementCache("transformer_engine>=0.11.0")`, `module_available("apex")`,
// `package_available("x")`, `importlib.util.find_spec("x") is not None`) with the package's
// name as its first argument, a string literal. On a Mac it is false for a package that has no
// macOS build (model/mac_path.h): that is what it tests.
#include <optional>
#include <string>
#include <string_view>

namespace mpsready {

struct PackageTest {
  std::string package;  // normalized (normalized_package)
  bool negated = false;  // `not …`, `… is None`: true when the package is missing
};

// The package a test asks about, or nullopt when `text` is no such test.
std::optional<PackageTest> read_package_test(std::string_view text);

// A distribution or module name as pip and importlib compare them: lower case, `-` and `.`
// as `_`, a requirement's version or extras cut off (`Transformer-Engine[pytorch]>=1` →
// `transformer_engine`).
std::string normalized_package(std::string_view name);

}  // namespace mpsready
