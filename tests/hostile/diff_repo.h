#pragma once
// A scratch git repository for the diff-mode tests: a BASE commit, then the pull request's
// commit (or uncommitted edits), scanned with the real executable.
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {

inline int sh_quiet(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

// `git -C DIR` with an identity, no signing and no hooks of the user's.
inline std::string git_in(const TempDir& dir) {
  return "git -C " + quote(dir.path().string()) +
         " -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false -c core.hooksPath=/dev/null";
}

// Commits everything in `dir` (initialising the repository first); false when git fails.
inline bool commit_all(const TempDir& dir, const std::string& message) {
  const std::string git = git_in(dir);
  if (!fs::exists(dir.path() / ".git") && sh_quiet(git + " init -q") != 0) return false;
  return sh_quiet(git + " add -A") == 0 && sh_quiet(git + " commit -q --no-verify -m " + quote(message)) == 0;
}

struct DiffScan {
  int code = -1;
  std::string out;
  nlohmann::json doc;  // the JSON report, when it parsed
};

// `mpsready scan DIR --format json --diff BASE EXTRA`, stdout parsed; the exit code kept.
inline DiffScan diff_scan(const TempDir& dir, const std::string& base, const std::string& extra = "") {
  DiffScan scan;
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --format json --diff " + base + " " + extra, false);
  scan.code = run.code;
  scan.out = run.out;
  scan.doc = nlohmann::json::parse(run.out, nullptr, false);
  return scan;
}

// "path:line:rule" for every finding listed ("path:cell:line:rule" in a notebook).
inline std::vector<std::string> sites(const nlohmann::json& doc) {
  std::vector<std::string> out;
  if (!doc.is_object() || !doc.contains("findings")) return out;
  for (const auto& f : doc["findings"])
    out.push_back(f["path"].get<std::string>() + ":" + (f.contains("cell") ? std::to_string(f["cell"].get<int>()) + ":" : "") +
                  std::to_string(f["line"].get<int>()) + ":" + f["rule"].get<std::string>());
  return out;
}

// The files the report says the change edits among the scan's inputs.
inline std::vector<std::string> config_changes(const nlohmann::json& doc) {
  std::vector<std::string> out;
  if (!doc.is_object() || !doc.contains("diff") || !doc["diff"].contains("config_changes")) return out;
  for (const auto& c : doc["diff"]["config_changes"]) out.push_back(c["file"].get<std::string>() + " (" + c["what"].get<std::string>() + ")");
  return out;
}

}  // namespace mpsready::testing
