#include "ops/op_coverage_report.h"

#include <algorithm>
#include <iomanip>

#include <nlohmann/json.hpp>

namespace mpsready {
namespace {

}  // namespace

void finish_report(OpCoverageReport& report) {
  std::sort(report.ops.begin(), report.ops.end(), [](const OpCoverageRow& a, const OpCoverageRow& b) {
    return std::tie(a.op.name, a.op.overload) < std::tie(b.op.name, b.op.overload);
  });
  for (OpStatus s : {OpStatus::kernel, OpStatus::composite, OpStatus::generic, OpStatus::missing, OpStatus::unknown})
    report.summary[s] = 0;
  for (const auto& row : report.ops) ++report.summary[row.mps];
}

std::string qualified(const OpUse& op) {
  return "aten::" + op.name + (op.overload.empty() ? "" : "." + op.overload);
}

const OpOverload* lookup_op(const NativeFunctions& table, const OpUse& use) {
  const OpOverload* exact = table.find(use.name, use.overload);
  if (exact && exact->status != OpStatus::unknown) return exact;
  if (!use.overload.empty()) return exact;
  const OpOverload* fallback = table.default_op(use.name);
  return fallback ? fallback : exact;
}

OpStatus lookup_status(const NativeFunctions& table, const OpUse& use) {
  const OpOverload* op = lookup_op(table, use);
  return op ? op->status : OpStatus::unknown;
}

std::string status_label(OpStatus status, bool inferred) {
  return std::string(to_string(status)) + (inferred ? " (inferred)" : "");
}

OpCoverageReport report_from_tables(const std::vector<OpUse>& uses, const std::vector<const NativeFunctions*>& tables,
                                    size_t target) {
  OpCoverageReport report;
  const NativeFunctions& answer = *tables.at(target);
  report.torch_version = answer.version();
  report.source = answer.describe();
  for (const OpUse& use : uses) {
    OpCoverageRow row{use, OpStatus::unknown, false, {}, {}, {}};
    if (const OpOverload* op = lookup_op(answer, use)) {
      row.mps = op->status;
      row.inferred = op->inferred;
      row.through = op->through;
    }
    if (tables.size() > 1) {
      for (const NativeFunctions* t : tables) {
        const OpOverload* op = lookup_op(*t, use);
        const OpStatus s = op ? op->status : OpStatus::unknown;
        row.by_version.push_back({t->version(), s, op && op->inferred});
        if (row.mps_from.empty() && op_status_rank(s) > op_status_rank(OpStatus::missing)) row.mps_from = t->version();
        if (op_status_rank(s) <= op_status_rank(OpStatus::missing)) row.mps_from.clear();  // lost again
      }
    }
    report.ops.push_back(std::move(row));
  }
  finish_report(report);
  return report;
}

OpCoverageReport report_from_dispatcher(const std::vector<OpUse>& uses,
                                        const std::function<OpStatus(const OpUse&)>& status,
                                        const std::string& torch_version) {
  OpCoverageReport report;
  report.torch_version = torch_version;
  report.source = "dispatcher (LibTorch " + torch_version + ", MPS kernels registered in this process)";
  for (const OpUse& use : uses) report.ops.push_back({use, status(use), false, {}, {}, {}});
  finish_report(report);
  return report;
}

void write_op_coverage_json(std::ostream& out, const OpCoverageReport& report) {
  using json = nlohmann::ordered_json;
  json doc;
  doc["torch_version"] = report.torch_version;
  doc["source"] = report.source;
  doc["method"] = report.method;
  if (!report.traced_with.empty()) doc["traced_with"] = report.traced_with;
  if (report.method == "graph")
    doc["note"] = "the ops of the TorchScript graph: ops called inside composite and generic kernels are not seen; "
                  "give --input or --inputs to trace what runs";
  json ops = json::array();
  for (const auto& row : report.ops) {
    json op;
    op["name"] = "aten::" + row.op.name;
    op["overload"] = row.op.overload;
    op["mps"] = std::string(to_string(row.mps));
    // Present only for inferred statuses: the yaml does not say what a generic kernel calls.
    if (row.inferred) {
      op["inferred"] = true;
      op["through"] = "aten::" + row.through;
    }
    op["count"] = row.op.count;
    if (report.method == "trace") {
      if (row.own != row.mps) op["own_status"] = std::string(to_string(row.own));
      op["called_from"] = row.callers;
      op["dispatched_on_mps"] = row.dispatched_on_mps;
      op["falls_back"] = row.falls_back;
      if (!row.chains.empty()) op["chains"] = row.chains;
    }
    if (!row.by_version.empty()) {
      json versions = json::object();
      for (const auto& v : row.by_version)
        versions[v.version.empty() ? "unknown" : v.version] = status_label(v.status, v.inferred);
      op["versions"] = versions;
      op["mps_from"] = row.mps_from.empty() ? json(nullptr) : json(row.mps_from);
    }
    ops.push_back(std::move(op));
  }
  doc["ops"] = std::move(ops);
  json summary;
  size_t calls = 0;
  for (const auto& row : report.ops) calls += row.op.count;
  summary["ops"] = report.ops.size();
  summary["calls"] = calls;
  for (OpStatus s : {OpStatus::kernel, OpStatus::composite, OpStatus::generic, OpStatus::missing, OpStatus::unknown})
    summary[std::string(to_string(s))] = report.summary.at(s);
  size_t inferred = 0;
  for (const auto& row : report.ops) inferred += row.inferred;
  summary["inferred"] = inferred;  // of the missing ones
  if (report.method == "trace") {
    json falls = json::array();
    for (const auto& row : report.ops)
      if (row.falls_back) falls.push_back(qualified(row.op));
    summary["falls_back"] = std::move(falls);
  }
  doc["summary"] = std::move(summary);
  out << doc.dump(2) << "\n";
}

void write_op_coverage_text(std::ostream& out, const OpCoverageReport& report) {
  out << report.subject << ": " << report.ops.size()
      << (report.method == "trace" ? " aten ops dispatched by one forward pass on the CPU"
                                   : " aten ops in the TorchScript graph")
      << (report.traced_with.empty() ? "" : " (recorded with " + report.traced_with + ")")
      << ", MPS status from " << report.source << "\n";
  size_t width = 0;
  for (const auto& row : report.ops) width = std::max(width, qualified(row.op).size());
  size_t label_width = 10;
  for (const auto& row : report.ops) label_width = std::max(label_width, status_label(row.mps, row.inferred).size() + 1);
  // Missing and unknown first: those are what a user acts on.
  for (OpStatus wanted : {OpStatus::missing, OpStatus::unknown, OpStatus::composite, OpStatus::generic, OpStatus::kernel}) {
    for (const auto& row : report.ops) {
      if (row.mps != wanted) continue;
      out << "  " << std::left << std::setw(static_cast<int>(label_width)) << status_label(row.mps, row.inferred)
          << std::setw(static_cast<int>(width) + 2) << qualified(row.op) << "x" << row.op.count;
      if (!row.chains.empty()) {
        out << "  (";
        for (size_t c = 0; c < row.chains.size(); ++c) {
          out << (c ? "; " : "");
          for (size_t i = 0; i < row.chains[c].size(); ++i) out << (i ? " → " : "") << row.chains[c][i];
          out << ": missing";
        }
        out << ")";
      } else if (row.inferred)
        out << "  (its generic kernel runs aten::" << row.through << ", which has no MPS kernel)";
      else if (row.mps == OpStatus::missing)
        out << "  (CPU fallback with PYTORCH_ENABLE_MPS_FALLBACK=1, else NotImplementedError)";
      if (!row.dispatched_on_mps) out << "  (only inside another op's kernel)";
      if (!row.by_version.empty())
        out << (row.mps_from.empty() ? "  no MPS kernel in any version checked" : "  runs on MPS from " + row.mps_from);
      out << "\n";
    }
  }
  out << "summary: kernel " << report.summary.at(OpStatus::kernel) << ", composite "
      << report.summary.at(OpStatus::composite) << ", generic " << report.summary.at(OpStatus::generic)
      << ", missing " << report.summary.at(OpStatus::missing) << ", unknown " << report.summary.at(OpStatus::unknown)
      << "\n";
  if (report.method == "graph")
    out << "note: the graph lists the ops the model calls, not the ops called inside composite and generic kernels; "
           "give --input or --inputs to trace what runs.\n";
  if (std::any_of(report.ops.begin(), report.ops.end(), [](const OpCoverageRow& r) { return r.inferred; }))
    out << "note: missing (inferred): a CompositeExplicitAutograd op has one kernel for every device, which runs its "
           "out= overload; that overload has CPU/CUDA kernels but none for MPS, so the op falls back too.\n";
  if (report.summary.at(OpStatus::missing))
    out << "note: a missing op raises NotImplementedError on MPS; with PYTORCH_ENABLE_MPS_FALLBACK=1 it runs on the "
           "CPU instead (slower, with copies); composite ops run on MPS when the ops they call do. The yaml does not "
           "see kernels registered outside it, dtype limits inside MPS kernels or macOS version gates: confirm on a Mac.\n";
}

}  // namespace mpsready
