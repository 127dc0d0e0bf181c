#include "ops/op_trace_report.h"

#include <deque>
#include <map>
#include <set>

namespace mpsready {
namespace {

OpUse parse_qualified(const std::string& qualified_name) {
  std::string rest = qualified_name.rfind("aten::", 0) == 0 ? qualified_name.substr(6) : qualified_name;
  const size_t dot = rest.find('.');
  if (dot == std::string::npos) return {rest, "", 0};
  return {rest.substr(0, dot), rest.substr(dot + 1), 0};
}

// The status that decides whether the trace follows an op's callees: an inferred `missing` is a
// generic kernel whose callees the trace shows for real.
OpStatus traced_status(const OpCoverageRow& row) { return row.inferred ? OpStatus::generic : row.mps; }

bool runs_callees_on_mps(OpStatus s) { return s == OpStatus::composite || s == OpStatus::generic; }

// The chain's last link: a missing functional op with a structured delegate runs the delegate's
// kernel without dispatching it, so the yaml, not the trace, names it.
void append_delegate(std::vector<std::string>& chain, const NativeFunctions& table) {
  const OpOverload* op = lookup_op(table, parse_qualified(chain.back()));
  if (op && !op->delegate.empty()) chain.push_back("aten::" + op->delegate);
}

// A row the trace made missing through its chains: in each version checked, it runs on MPS only
// when its own status does and no op along its chains is missing there (the calls are the traced
// release's; other releases are assumed to make the same calls). Without this the versions would
// speak of the op alone and say "runs on MPS from 1.13" of an op that falls back in every release.
void restate_versions_through_chains(OpCoverageRow& row, const std::vector<const NativeFunctions*>& tables) {
  if (row.by_version.size() != tables.size()) return;
  row.mps_from.clear();
  for (size_t i = 0; i < tables.size(); ++i) {
    OpCoverageRow::InVersion& in = row.by_version[i];
    bool runs = op_status_rank(in.status) > op_status_rank(OpStatus::missing);
    for (const auto& chain : row.chains)
      for (size_t k = 1; k < chain.size() && runs; ++k)
        runs = op_status_rank(lookup_status(*tables[i], parse_qualified(chain[k]))) > op_status_rank(OpStatus::missing);
    if (!runs) {
      in.status = OpStatus::missing;
      in.inferred = false;
    }
    if (row.mps_from.empty() && runs) row.mps_from = in.version;
    if (!runs) row.mps_from.clear();  // lost again
  }
}

}  // namespace

OpCoverageReport report_from_trace(const std::vector<TracedCall>& calls, const std::vector<const NativeFunctions*>& tables,
                                   size_t target) {
  // The per-op rows (status, versions) exactly as the graph listing would give them.
  std::map<std::string, OpUse> uses;
  std::map<std::string, std::set<std::string>> callers, callees;
  for (const TracedCall& call : calls) {
    auto [it, fresh] = uses.emplace(call.op, parse_qualified(call.op));
    it->second.count += call.count;
    callers[call.op].insert(call.caller.empty() ? "model" : call.caller);
    if (!call.caller.empty()) callees[call.caller].insert(call.op);
  }
  std::vector<OpUse> use_list;
  for (const auto& [name, use] : uses) use_list.push_back(use);
  OpCoverageReport report = report_from_tables(use_list, tables, target);
  report.method = "trace";
  std::map<std::string, OpCoverageRow*> rows;
  for (auto& row : report.ops) {
    row.own = row.mps;
    row.callers.assign(callers[qualified(row.op)].begin(), callers[qualified(row.op)].end());
    rows[qualified(row.op)] = &row;
  }
  const NativeFunctions& table = *tables.at(target);

  // Dispatched for MPS: a breadth-first walk from the model's calls through composite/generic ops.
  std::set<std::string> dispatched;
  std::deque<std::string> queue;
  for (const auto& [name, row] : rows)
    if (callers[name].count("model")) queue.push_back(name), dispatched.insert(name);
  while (!queue.empty()) {
    const std::string name = queue.front();
    queue.pop_front();
    if (!runs_callees_on_mps(traced_status(*rows.at(name)))) continue;
    for (const std::string& callee : callees[name])
      if (rows.count(callee) && dispatched.insert(callee).second) queue.push_back(callee);
  }
  for (auto& [name, row] : rows) {
    row->dispatched_on_mps = dispatched.count(name) > 0;
    row->falls_back = row->dispatched_on_mps && row->mps == OpStatus::missing &&
                      !(row->inferred && rows.count("aten::" + row->through));
  }

  // Chains: from each dispatched composite/generic op, a breadth-first walk (shortest paths) to
  // every missing op it reaches.
  for (auto& [start, row] : rows) {
    if (!row->dispatched_on_mps || !runs_callees_on_mps(traced_status(*row))) continue;
    std::map<std::string, std::string> came_from{{start, ""}};
    std::deque<std::string> walk{start};
    while (!walk.empty()) {
      const std::string name = walk.front();
      walk.pop_front();
      const OpCoverageRow& here = *rows.at(name);
      if (name != start && here.falls_back) {
        std::vector<std::string> chain;
        for (std::string at = name; !at.empty(); at = came_from[at]) chain.insert(chain.begin(), at);
        append_delegate(chain, table);
        row->chains.push_back(std::move(chain));
        continue;
      }
      if (name != start && !runs_callees_on_mps(traced_status(here))) continue;
      for (const std::string& callee : callees[name])
        if (rows.count(callee) && came_from.emplace(callee, name).second) walk.push_back(callee);
    }
    if (!row->chains.empty()) {
      // What the model sees: the op does not run on MPS as a whole. The inference is replaced by
      // what the trace saw.
      row->mps = OpStatus::missing;
      row->inferred = false;
      row->through.clear();
      restate_versions_through_chains(*row, tables);
    }
  }
  // A missing op called directly is its own chain (with its structured delegate, if any).
  for (auto& [name, row] : rows) {
    if (!row->falls_back) continue;
    std::vector<std::string> chain{name};
    append_delegate(chain, table);
    if (chain.size() > 1 || callers[name].count("model")) row->chains.insert(row->chains.begin(), chain);
  }
  finish_report(report);
  return report;
}

}  // namespace mpsready
