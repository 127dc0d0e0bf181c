#pragma once
// The role a path plays by convention: `tests/`, `examples/`, `third_party/`, `test_x.py`, ...
#include <string_view>

#include "model/repo_model.h"

namespace mpsready {

// Role::core when no convention applies.
Role conventional_role(std::string_view path);

}  // namespace mpsready
