#pragma once
// One fixed set of findings and rules that every report format is rendered from, so the golden
// files under tests/report/golden/ can be compared byte for byte.
#include <string>
#include <vector>

#include "engine/scanner.h"
#include "rules/rule.h"

namespace mpsready::testing {

inline Finding golden_finding(const std::string& rule, const std::string& category, Impact impact,
                              const std::string& path, int line, int column, int end_column,
                              const std::string& message, const std::string& snippet) {
  Finding f;
  f.rule = rule;
  f.category = category;
  f.impact = impact;
  f.path = path;
  f.location = {line, column, line, end_column, 0};
  f.message = message;
  f.fix = "Use `torch.device(\"mps\")` when available.";
  f.snippet = snippet;
  f.mechanical = rule == "py-tensor-dot-cuda" || rule == "py-cuda-device-string";
  return f;
}

inline std::vector<Rule> golden_rules() {
  const auto rule = [](const std::string& id, const std::string& category, Impact impact, bool mechanical) {
    Rule r;
    r.id = id;
    r.title = "Rule " + id;
    r.language = id.rfind("cu-", 0) == 0 ? "cpp" : "python";
    r.category = category;
    r.impact = impact;
    r.mechanical = mechanical;
    r.fix = "Fix for " + id + ".";
    r.doc = "# " + id + ": title\n\n## What it flags\n\nSites of " + id + ".\nOn two lines.\n\n## Fix\n\nDo it.\n";
    return r;
  };
  return {rule("cu-cuda-kernel", "custom-extension", Impact::blocker, false),
          rule("py-cuda-amp", "amp", Impact::portable, true),
          rule("py-cuda-device-string", "device-hardcode", Impact::portable, true),
          rule("py-float64", "dtype", Impact::info, false),
          rule("py-tensor-dot-cuda", "device-hardcode", Impact::portable, true)};
}

inline ScanResult golden_scan() {
  ScanResult r;
  Finding kernel = golden_finding("cu-cuda-kernel", "custom-extension", Impact::blocker, "csrc/kernel.cu", 12, 1, 16,
                                  "CUDA kernel `rms_kernel` has no MPS implementation",
                                  "__global__ void rms_kernel(float* x) {");
  kernel.mode = "tolerant";
  r.findings.push_back(kernel);
  Finding guarded = golden_finding("py-cuda-amp", "amp", Impact::info, "src/my model/train.py", 30, 10, 33,
                                   "`torch.cuda.amp.autocast` is CUDA-only", "    with torch.cuda.amp.autocast():");
  guarded.guarded = true;
  r.findings.push_back(guarded);
  r.findings.push_back(golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable, "src/my model/train.py",
                                      41, 13, 25, "`model.cuda()` moves the module to a CUDA device",
                                      "    model = model.cuda()"));
  r.findings.push_back(golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable, "src/my model/train.py",
                                      77, 5, 13, "`x.cuda()` moves the tensor to a CUDA device",
                                      "    x = x.cuda()  # </script><img src=x onerror=alert(1)> [x](http://evil) @everyone"));
  Finding cell = golden_finding("py-cuda-device-string", "device-hardcode", Impact::portable, "notebooks/explore.ipynb", 2, 27, 33,
                                "`\"cuda\"` names a CUDA device", "x = torch.zeros(2, device=\"cuda\")  # ![i](http://x) <!-- `|` -->");
  cell.location.cell = 3;
  cell.location.file_line = 41;  // where the cell's line starts in the .ipynb
  cell.location.file_column = 6;
  r.findings.push_back(cell);
  r.findings.push_back(golden_finding("py-float64", "dtype", Impact::info, "src/data.py", 8, 9, 22,
                                      "float64 is not supported on MPS\x01\x1b[31m", "y = x.double()\t# **bold** _it_ #1 \\"));
  sort_findings(r.findings);
  Finding hidden = golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable, "src/legacy.py", 3, 1, 9,
                                  "`m.cuda()` moves the module to a CUDA device", "m.cuda()  # mpsready: ignore[py-tensor-dot-cuda] legacy");
  r.suppressed.push_back(hidden);
  r.errors.push_back({"broken.py", "syntax error at line 2; findings in the rest of the file are still reported"});
  r.skipped.push_back({"weights.py", "binary file (contains NUL bytes)"});
  r.files_scanned = 7;
  r.files_parsed = 5;
  r.files_ignored = 2;
  // As the assessment leaves them: components with roles; the notebook does not count.
  for (Finding& f : r.findings) {
    const bool notebook = f.path.rfind("notebooks/", 0) == 0;
    f.component = notebook ? "notebooks" : f.path.substr(0, f.path.find('/'));
    f.role = notebook ? "notebooks" : "core";
    f.in_core = !notebook;
    if (notebook) f.context = "notebooks: not part of what the repository's core runs";
  }
  r.summary_context.components = {{"(root)", "entry-point", false}, {"notebooks", "notebooks", true},
                                   {"src", "core", false}};
  r.summary = summarize(r.findings, r.summary_context);
  return r;
}

}  // namespace mpsready::testing
