#pragma once
// The longest line a project allows, as its own linters are told: a fixed line stays within it.
#include <cstddef>
#include <filesystem>
#include <string>

#include "engine/scanner.h"

namespace mpsready {

struct LineLimit {
  size_t columns = 100;
  std::string source = "the default, none being configured";
};

// `line-length` of `[tool.ruff]` (or `[tool.black]`) in pyproject.toml, else `max-line-length`
// of `[flake8]` in setup.cfg, .flake8 or tox.ini, read from the root as the scan reads files; the
// default 100 when none says. A single file has no project: the default.
LineLimit project_line_limit(const std::filesystem::path& root, bool single_file, const ScanOptions& options);

}  // namespace mpsready
