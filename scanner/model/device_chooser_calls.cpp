#include "model/device_chooser_calls.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace mpsready {
namespace {

// The evidence line returns an MPS device: `return "mps"`, `return torch.device('mps')`.
bool returns_mps(const EvidenceFact& e) {
  return e.kind == "selects-mps" && e.cell == 0 && e.text.starts_with("return ") &&
         (e.text.find("\"mps") != std::string::npos || e.text.find("'mps") != std::string::npos);
}

}  // namespace

std::vector<EvidenceFact> device_chooser_calls(const RepoFacts& facts, const CallGraph& graph) {
  std::map<size_t, const EvidenceFact*> choosers;  // function node -> its first line returning MPS
  for (const EvidenceFact& e : facts.evidence) {
    if (!returns_mps(e)) continue;
    const std::optional<size_t> node = graph.node_at(e.path, e.line);
    if (!node || graph.nodes()[*node].kind != CallNode::Kind::function) continue;
    const auto [it, fresh] = choosers.emplace(*node, &e);
    if (!fresh && e.line < it->second->line) it->second = &e;
  }
  if (choosers.empty()) return {};
  std::set<std::pair<std::string, int>> seen;
  for (const EvidenceFact& e : facts.evidence) seen.emplace(e.path, e.line);
  std::vector<EvidenceFact> out;
  for (const CallEdge& edge : graph.edges()) {
    if (edge.via != 'c' || edge.file < 0 || static_cast<size_t>(edge.file) >= facts.code.size()) continue;
    const auto chooser = choosers.find(edge.to);
    if (chooser == choosers.end() || edge.from == edge.to) continue;
    const std::string& path = facts.code[static_cast<size_t>(edge.file)].path;
    if (!seen.emplace(path, edge.line).second) continue;
    const CallNode& callee = graph.nodes()[edge.to];
    const EvidenceFact& at = *chooser->second;
    out.push_back({path, edge.line, 0, "selects-mps",
                   "calls `" + callee.name + "()`, which returns MPS where it is available (" + at.path + ":" +
                       std::to_string(at.line) + ")"});
  }
  std::sort(out.begin(), out.end(), [](const EvidenceFact& a, const EvidenceFact& b) {
    return std::tie(a.path, a.line) < std::tie(b.path, b.line);
  });
  return out;
}

}  // namespace mpsready
