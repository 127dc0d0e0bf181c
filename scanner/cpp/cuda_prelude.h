#pragma once
// The in-memory header that lets Clang parse CUDA and PyTorch-extension code with no CUDA SDK
// and no PyTorch headers installed: CUDA's keywords, builtins and common types, permissive
// declarations of the runtime API, and the ATen dispatch macros (so kernel launches inside
// AT_DISPATCH_* lambdas stay in the AST). It is prepended to each file, followed by a #line
// directive so positions are the file's own.
#include <string_view>

namespace mpsready {

std::string_view cuda_prelude();

}  // namespace mpsready
