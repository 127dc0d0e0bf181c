#pragma once
// PyTorch's native_functions.yaml, read with a real YAML parser and reduced to one MPS status per
// operator overload. This is the static source of truth for op coverage: it needs no LibTorch,
// so the scanner can use it, and several files (several PyTorch versions) can be loaded at once.
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ops/op_status.h"

namespace mpsready {

// A file that is not valid YAML or not shaped like native_functions.yaml. The message names the
// file and, where known, the line.
class NativeFunctionsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OpOverload {
  std::string name;      // "add"
  std::string overload;  // "Tensor", "" for the default overload
  OpStatus status = OpStatus::unknown;
  bool method = false;  // `variants` includes method: `x.name(...)` exists on tensors
};

class NativeFunctions {
 public:
  // Reads `path`; `version` is the PyTorch version it belongs to ("" when not known).
  static NativeFunctions load(const std::filesystem::path& path, const std::string& version);
  // Parses YAML text; `where` names it in errors and in describe().
  static NativeFunctions parse(const std::string& text, const std::string& where, const std::string& version);

  // The status of `name.overload` ("" = the default overload); unknown when absent.
  OpStatus status(std::string_view name, std::string_view overload) const;
  // The status a call by name most likely reaches: the default overload when there is one, else
  // the best of the overloads that are not out= variants. Unknown when the name is absent.
  OpStatus default_status(std::string_view name) const;
  bool has_name(std::string_view name) const;
  // Whether some overload of `name` is a tensor method.
  bool is_method(std::string_view name) const;

  const std::string& version() const { return version_; }
  const std::string& path() const { return path_; }
  size_t size() const { return ops_.size(); }
  // "native_functions.yaml (PyTorch 1.13.1, /path/to/native_functions.yaml)"
  std::string describe() const;

 private:
  std::map<std::string, OpOverload, std::less<>> ops_;  // key "name.overload" or "name"
  std::map<std::string, std::vector<const OpOverload*>, std::less<>> by_name_;
  std::string version_;
  std::string path_;
};

// Splits "name.overload(args) -> ret" into name and overload; false when it is not an op schema.
bool split_func_schema(std::string_view func, std::string& name, std::string& overload);

}  // namespace mpsready
