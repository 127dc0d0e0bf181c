#pragma once
// What a diff-mode scan is configured by: BASE's, never the change's own. A pull request that
// edits `.mpsready.json`, the `[tool.mpsready]` table or the committed baseline would otherwise
// decide how it is judged itself (ignore every rule, lower impacts, call a package "tests"). The
// change's edits are read only to say that it makes them.
#include <filesystem>
#include <string>
#include <vector>

#include "cli/config.h"
#include "engine/scanner.h"

namespace mpsready {

// An input of the scan that the change edits, named for the PR comment and the exit message.
struct ScanInputChange {
  std::string file;  // relative to the scanned root (".mpsready.json", "pyproject.toml [tool.mpsready]")
  std::string what;  // "configuration", "baseline", or "no longer scanned"
};

// BASE's configuration, read from `base_dir` (BASE's files under `root`, written out), as
// load_project_config would read it from `root`; `base_label` ("origin/main") names its files in
// errors ("origin/main:.mpsready.json: ..."). A --config file inside the root is read from BASE
// too (absent there: no configuration); one outside it is the caller's and used as it is. When
// the work tree's configuration differs (or is not valid), `changes` says so.
ConfigResult load_base_config(const std::filesystem::path& root, const std::filesystem::path& base_dir,
                              const std::string& base_label, const std::string& explicit_file,
                              std::vector<ScanInputChange>& changes);

// The baseline file diff mode reads: for a --baseline inside the root, BASE's copy in `base_dir`
// ("" when BASE has none: every finding is new), and a change noted when the work tree's differs;
// otherwise `file` itself.
std::string base_baseline(const std::filesystem::path& root, const std::filesystem::path& base_dir,
                          const std::string& file, std::vector<ScanInputChange>& changes);

// The files BASE's scan read that are still in the work tree (regular files under `root`) but
// that the work tree's scan did not read (left out by a .gitignore the change edits, grown past
// the size limit, made binary or a link): their findings are hidden from both the diff and the
// tree.
std::vector<std::string> no_longer_scanned(const ScanResult& before, const ScanResult& after,
                                           const std::filesystem::path& root);

}  // namespace mpsready
