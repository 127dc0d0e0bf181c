#include "python/module_facts.h"

#include <re2/re2.h>

#include <vector>

#include "core/source_text.h"

namespace mpsready {
namespace {

constexpr size_t kEvidencePerFile = 3;
constexpr size_t kEvidenceText = 100;
// How many lines after a CUDA check a call of a pure-PyTorch fallback still belongs to it.
constexpr int kFallbackReach = 30;

// Calls each line of `text` with its 1-based number.
template <typename F>
void for_each_line(std::string_view text, F&& f) {
  int number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (!f(++number, text.substr(start, end - start))) return;
    start = end + 1;
  }
}

bool is_code_at_column_zero(std::string_view line) {
  return !line.empty() && line[0] != ' ' && line[0] != '\t' && line[0] != '#' && line[0] != '\r';
}

size_t indent_of(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t");
  return first == std::string_view::npos ? std::string_view::npos : first;
}

// The lines of `raise NotImplementedError` on a branch without CUDA: the `else:` of a CUDA check,
// the body of a negated check, or the statement right after a CUDA branch that returns. A check
// joined with others by `and` (`if torch.cuda.is_available() and CUDA_HOME is not None:`) is
// false without CUDA just the same; one joined by `or` is not (`or FORCE_CUDA`).
std::vector<int> scan_cuda_only_raises(std::string_view text) {
  static const RE2 positive(
      R"re(^\s*(?:el)?if\s+(?:[^:#]*\band\s+)?(?:[\w.\[\]]+\.is_cuda\b|torch\.cuda\.is_available\(\)|[\w.]+\.type\s*==\s*["']cuda["'])(?:\s+and\s[^:#]*)?\s*:)re");
  static const RE2 negative(R"re(^\s*if\s+(?:not\s+[\w.\[\]]+\.is_cuda\b|not\s+torch\.cuda\.is_available\(\)|[\w.]+\.type\s*!=\s*["']cuda["'])\s*:)re");
  static const RE2 raise(R"(^\s*raise\s+NotImplementedError\b)");
  static const RE2 returns(R"(^\s*return\b)");
  struct Branch {
    size_t indent;
    bool cuda;  // the branch needs CUDA (a positive check's body); else: runs without it
    bool returned = false;
  };
  std::vector<int> out;
  std::vector<Branch> open;     // enclosing `if`/`else` branches tied to a CUDA check
  std::vector<std::pair<size_t, bool>> closed;  // a positive branch just ended: its indent, whether it returned
  for_each_line(text, [&](int number, std::string_view line) {
    const size_t indent = indent_of(line);
    if (indent == std::string_view::npos || line[indent] == '#') return true;
    const re2::StringPiece piece(line.data(), line.size());
    const std::string_view code = line.substr(indent);
    while (!open.empty() && indent <= open.back().indent) {
      if (open.back().cuda) closed.emplace_back(open.back().indent, open.back().returned);
      open.pop_back();
    }
    std::erase_if(closed, [&](const auto& c) { return indent < c.first; });
    const bool after_cuda_return = !closed.empty() && closed.back().first == indent && closed.back().second;
    const bool is_else = code.rfind("else", 0) == 0 && code.find(':') != std::string_view::npos;
    if (is_else && !closed.empty() && closed.back().first == indent) {
      open.push_back({indent, false});
      closed.pop_back();
      return true;
    }
    if (!closed.empty() && closed.back().first == indent && !is_else) {
      if (RE2::PartialMatch(piece, raise) && after_cuda_return) out.push_back(number);
      closed.pop_back();
    }
    static const RE2 disjunction(R"(\bor\b)");
    if (RE2::PartialMatch(piece, positive) && !RE2::PartialMatch(piece, disjunction)) open.push_back({indent, true});
    else if (RE2::PartialMatch(piece, negative)) open.push_back({indent, false});
    else if (!open.empty() && RE2::PartialMatch(piece, raise) && !open.back().cuda) out.push_back(number);
    else if (!open.empty() && open.back().cuda && RE2::PartialMatch(piece, returns)) open.back().returned = true;
    return true;
  });
  return out;
}

}  // namespace

ModuleFact scan_main_block(const std::string& path, std::string_view text) {
  static const RE2 main_check(R"(^if\s+(?:__name__\s*==\s*["']__main__["']|["']__main__["']\s*==\s*__name__)\s*:)");
  ModuleFact fact{path, 0, 0, {}};
  if (text.find("NotImplementedError") != std::string_view::npos) fact.cuda_only_raises = scan_cuda_only_raises(text);
  for_each_line(text, [&](int number, std::string_view line) {
    if (fact.main_line == 0) {
      if (RE2::PartialMatch(line, main_check)) fact.main_line = fact.main_end_line = number;
      return true;
    }
    // The block ends before the next statement at column 0 (an `else:` belongs to it).
    if (is_code_at_column_zero(line) && line.rfind("else", 0) != 0 && line.rfind("elif", 0) != 0) return false;
    fact.main_end_line = number;
    return true;
  });
  return fact;
}

std::vector<EvidenceFact> scan_mps_evidence(const std::string& path, std::string_view text) {
  // Code that picks or handles MPS: the backend's own API, or "mps" as a device string.
  static const RE2 selects(R"((torch\.backends\.mps\.is_(?:available|built)|torch\.mps\.[a-z_]+|["']mps(?::\d+)?["']))");
  // Code that knows MPS without choosing it on this line: a helper or class named for it
  // (`def get_mps_device_if_available`, `class MPSAccelerator`), a switch read from the
  // environment (`os.environ.get("SUNO_ENABLE_MPS")`), the device-agnostic `torch.accelerator`.
  static const RE2 aware(
      R"re((^\s*(?:def|class)\s+\w*(?:\b|_)(?:mps|MPS|Mps)(?:_|[A-Z]|\b)\w*|(?:os\.environ(?:\.get)?|os\.getenv)\s*[(\[]\s*["'][A-Z0-9_]*MPS[A-Z0-9_]*["']|\btorch\.accelerator\.[a-z_]+))re");
  // A pure-PyTorch alternative to a compiled op: its definition (`class DCNv3_pytorch`, `def
  // knn_python`), or a call of one on a path a Mac takes, and a setup.py that builds the CPU
  // extension (`extension = CppExtension`).
  static const RE2 fallback_def(R"(^\s*(?:def|class)\s+\w+_(?:pytorch|python|torch|ref|reference|naive)\b)");
  static const RE2 fallback_call(R"(\b\w+_(?:pytorch|python|reference|naive)\s*\()");
  static const RE2 cuda_branch(R"(^\s*(?:el)?if\s+.*(?:\.is_cuda\b|torch\.cuda\.is_available\(\)|\.type\s*[!=]=\s*["']cuda["']))");
  static const RE2 cpu_build(R"(^\s*\w+\s*=\s*(?:[\w.]+\.)?CppExtension\s*$)");
  std::vector<EvidenceFact> out;
  const bool has_mps = text.find("mps") != std::string_view::npos || text.find("MPS") != std::string_view::npos ||
                       text.find("torch.accelerator") != std::string_view::npos;
  const bool has_fallback = text.find("_pytorch") != std::string_view::npos || text.find("_python") != std::string_view::npos ||
                            text.find("_ref") != std::string_view::npos || text.find("_naive") != std::string_view::npos ||
                            text.find("CppExtension") != std::string_view::npos;
  if (!has_mps && !has_fallback) return out;
  size_t selects_seen = 0, aware_seen = 0, fallback_seen = 0;
  int cuda_if_line = 0;        // the last `if` that tests CUDA, while a fallback call may follow it
  bool cuda_if_reported = false;
  for_each_line(text, [&](int number, std::string_view line) {
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') return true;
    const std::string code = shorten_utf8(line.substr(first), kEvidenceText);
    // Substring tests first: the regexes run only on lines that could match them.
    const auto holds = [&](std::string_view needle) { return line.find(needle) != std::string_view::npos; };
    if (has_mps && (holds("mps") || holds("MPS") || holds("Mps") || holds("torch.accelerator"))) {
      if (selects_seen < kEvidencePerFile && RE2::PartialMatch(line, selects)) {
        out.push_back({path, number, 0, "selects-mps", code});
        ++selects_seen;
      } else if (aware_seen < kEvidencePerFile && RE2::PartialMatch(line, aware)) {
        out.push_back({path, number, 0, "mps-aware", code});
        ++aware_seen;
      }
    }
    if (has_fallback && fallback_seen < kEvidencePerFile) {
      if (holds("cuda") && RE2::PartialMatch(line, cuda_branch)) {
        cuda_if_line = number;
        cuda_if_reported = false;
      }
      const bool named_fallback = holds("_pytorch") || holds("_python") || holds("_torch") || holds("_ref") ||
                                  holds("_naive");
      if ((named_fallback && RE2::PartialMatch(line, fallback_def)) ||
          (holds("CppExtension") && RE2::PartialMatch(line, cpu_build))) {
        out.push_back({path, number, 0, "cpu-fallback", code});
        ++fallback_seen;
      } else if (named_fallback && cuda_if_line && !cuda_if_reported && number - cuda_if_line <= kFallbackReach &&
                 RE2::PartialMatch(line, fallback_call)) {
        // Reported at the check: that is where the code chooses between the op and its fallback.
        out.push_back({path, cuda_if_line, 0, "cpu-fallback", code});
        cuda_if_reported = true;
        ++fallback_seen;
      }
    }
    return true;
  });
  return out;
}

}  // namespace mpsready
