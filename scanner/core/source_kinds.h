#pragma once
// Which language a repository file is, by its name: the one list every stage asks.
#include <string_view>

namespace mpsready {

// C++ and CUDA sources and headers: the files the C++ front end reads, whose comments are C++
// comments, and whose findings are kernels to port. A `.c` or Objective-C++ file is read by no
// front end.
bool is_cpp_source(std::string_view path);

}  // namespace mpsready
