#pragma once
// PyTorch's native_functions.yaml, read with a real YAML parser, or the op-status table that
// scripts/gen-op-tables.py reduces it to, and brought to one MPS status per operator overload.
// This is the static source of truth for op coverage: it needs no LibTorch, so the scanner can
// use it, and several files (several PyTorch versions) can be loaded at once.
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ops/op_status.h"

namespace mpsready {

// A file that is not valid YAML or not shaped like native_functions.yaml (or an op-status table).
// The message names the file by its file name and, where known, the line.
class NativeFunctionsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OpOverload {
  std::string name;      // "add"
  std::string overload;  // "Tensor", "" for the default overload
  OpStatus status = OpStatus::unknown;
  bool method = false;  // `variants` includes method: `x.name(...)` exists on tensors
  // `missing (inferred)`: a CompositeExplicitAutograd functional op (one kernel for every device)
  // whose out= overload has device kernels but none for MPS. The yaml does not say what the
  // generic kernel calls; it calls its out= overload by convention, so the op is taken as missing.
  bool inferred = false;
  std::string through;  // with inferred: the out= overload, "kthvalue.values"
  // structured_delegate ("_linalg_svd.U"): the functional form runs this overload's kernel
  // without a second dispatch, so a trace sees only the functional op.
  std::string delegate;
  // A CPU kernel runs it (its own, its structured delegate's or, when inferred, its out=
  // overload's): on MPS, PyTorch's CPU fallback (PYTORCH_ENABLE_MPS_FALLBACK=1) can run a missing
  // op only when this holds.
  bool cpu_kernel = false;
};

class NativeFunctions {
 public:
  // Reads `path`: an op-status table when its first line says so, else a native_functions.yaml.
  // `version` is the PyTorch version it belongs to ("" when not known; a table records its own).
  // `label` names the file in describe() and errors (default: its file name, never a full path).
  static NativeFunctions load(const std::filesystem::path& path, const std::string& version,
                              const std::string& label = "");
  // Parses YAML text; `where` names it in errors and in describe().
  static NativeFunctions parse(const std::string& text, const std::string& where, const std::string& version);
  // Parses an op-status table (scripts/gen-op-tables.py); `version` overrides the recorded one when set.
  static NativeFunctions parse_table(const std::string& text, const std::string& where, const std::string& version);

  // The status of `name.overload` ("" = the default overload); unknown when absent.
  OpStatus status(std::string_view name, std::string_view overload) const;
  const OpOverload* find(std::string_view name, std::string_view overload) const;
  // The overload a call by name most likely reaches: the default overload when there is one, else
  // the best of the overloads that are not out= variants. Null when the name is absent.
  const OpOverload* default_op(std::string_view name) const;
  OpStatus default_status(std::string_view name) const;
  bool has_name(std::string_view name) const;
  // Whether some overload of `name` is a tensor method.
  bool is_method(std::string_view name) const;
  // Every overload, by "name.overload" ("name" for the default overload).
  const std::map<std::string, OpOverload, std::less<>>& ops() const { return ops_; }

  const std::string& version() const { return version_; }
  // The file's label (its file name), as in describe() and errors.
  const std::string& where() const { return where_; }
  // The PyTorch commit an op-status table records ("" when none).
  const std::string& commit() const { return commit_; }
  bool is_table() const { return table_; }
  size_t size() const { return ops_.size(); }
  // "native_functions.yaml of PyTorch 1.13.1 (newer.yaml)", "op-status table of PyTorch 2.11.0
  // (pytorch-2.11.0.tsv)": no directory, so no path of the scanning machine reaches a report.
  std::string describe() const;

 private:
  std::map<std::string, OpOverload, std::less<>> ops_;  // key "name.overload" or "name"
  std::map<std::string, std::vector<const OpOverload*>, std::less<>> by_name_;
  std::string version_;
  std::string where_;
  std::string commit_;
  bool table_ = false;

  friend struct NativeFunctionsBuilder;
};

// Splits "name.overload(args) -> ret" into name and overload; false when it is not an op schema.
bool split_func_schema(std::string_view func, std::string& name, std::string& overload);

// For op "name.overload" (default overload: "name"), "aten::name.overload".
std::string qualified_op(const OpOverload& op);

}  // namespace mpsready
