#pragma once
// The answer of `mpsready ops`: each aten op a model uses, its MPS status and where the answer
// came from (a native_functions.yaml of one PyTorch version, or the live dispatcher). JSON schema:
// docs/ops-output.md.
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "ops/native_functions.h"

namespace mpsready {

struct OpUse {
  std::string name;      // "cumsum" (no namespace)
  std::string overload;  // "" for the default overload or when not known
  size_t count = 0;
};

struct OpCoverageRow {
  OpUse op;
  OpStatus mps = OpStatus::unknown;
  // missing (inferred): a CompositeExplicitAutograd op whose out= overload (`through`) has no MPS
  // kernel; see OpOverload::inferred.
  bool inferred = false;
  std::string through;
  // With several native_functions.yaml files: the status in each version (oldest first) and the
  // first version from which the op runs on MPS ("" when none).
  struct InVersion {
    std::string version;
    OpStatus status = OpStatus::unknown;
    bool inferred = false;
  };
  std::vector<InVersion> by_version;
  std::string mps_from;
  // From a trace (op_trace_report.h) only:
  OpStatus own = OpStatus::unknown;        // the table's status before the callees were looked at
  std::vector<std::vector<std::string>> chains;  // qualified ops from this one to a missing callee
  std::vector<std::string> callers;        // qualified ops that called it, "model" for the model's code
  bool dispatched_on_mps = true;  // reached through composite/generic ops only, so dispatched for MPS
  bool falls_back = false;        // dispatched for MPS and missing: where the CPU fallback happens
};

struct OpCoverageReport {
  std::string subject;        // the model file, as given
  std::string torch_version;  // of the source that answered
  std::string source;         // "op-status table of PyTorch 2.11.0 (pytorch-2.11.0.tsv)" or "dispatcher (LibTorch 2.5.1)"
  std::vector<OpCoverageRow> ops;  // sorted by name, then overload
  std::map<OpStatus, size_t> summary;  // distinct op overloads per status
  // "graph": the ops of the TorchScript graph (cannot see inside composites); "trace": the ops
  // one forward pass on the CPU dispatched, nested calls included.
  std::string method = "graph";
  // A trace recorded elsewhere (`ops --trace`): the LibTorch that ran it ("LibTorch 2.11.0"), as its
  // file's header says; "" for a trace run here.
  std::string traced_with;
};

// The overload one use reaches in a table: the named overload; when the overload is not known, or
// not in the table, the op's default overload. Null when the table does not have the op.
const OpOverload* lookup_op(const NativeFunctions& table, const OpUse& use);
OpStatus lookup_status(const NativeFunctions& table, const OpUse& use);
// "missing (inferred)" for an inferred status, else to_string(status).
std::string status_label(OpStatus status, bool inferred);

// `tables` oldest first; `target` is the one that answers (the others fill by_version).
OpCoverageReport report_from_tables(const std::vector<OpUse>& uses, const std::vector<const NativeFunctions*>& tables,
                                    size_t target);
// The live path: `status` answers for each use.
OpCoverageReport report_from_dispatcher(const std::vector<OpUse>& uses,
                                        const std::function<OpStatus(const OpUse&)>& status,
                                        const std::string& torch_version);

// "aten::name" or "aten::name.overload".
std::string qualified(const OpUse& op);
// Sorts the rows and counts them per status.
void finish_report(OpCoverageReport& report);

void write_op_coverage_json(std::ostream& out, const OpCoverageReport& report);
void write_op_coverage_text(std::ostream& out, const OpCoverageReport& report);

}  // namespace mpsready
