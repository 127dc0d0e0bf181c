#pragma once
// The message of a LibTorch exception without its C++ backtrace. LibTorch throws c10::Error; the
// TorchScript interpreter rethrows a failing op's error as std::runtime_error with the script's
// traceback.
#include <exception>
#include <string>

#include <c10/util/Exception.h>

namespace mpsready {

inline std::string exception_text(const std::exception& e) {
  const auto* c10_error = dynamic_cast<const c10::Error*>(&e);
  return c10_error ? c10_error->what_without_backtrace() : e.what();
}

}  // namespace mpsready
