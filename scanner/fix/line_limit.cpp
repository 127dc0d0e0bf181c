#include "fix/line_limit.h"

#include <optional>

#include <re2/re2.h>
#include <toml++/toml.h>

namespace mpsready {

namespace {

std::optional<std::string> read_root_file(const std::filesystem::path& root, const std::string& name,
                                          const ScanOptions& options) {
  ReadResult read = read_scanned_file(name, root / name, options);
  if (!read.bytes) return std::nullopt;
  return std::move(*read.bytes);
}

// A sane limit: linters accept any number, a fix keeps to what a person would set.
bool plausible(int64_t columns) { return columns >= 40 && columns <= 1000; }

}  // namespace

LineLimit project_line_limit(const std::filesystem::path& root, bool single_file, const ScanOptions& options) {
  LineLimit limit;
  if (single_file) return limit;
  if (const auto text = read_root_file(root, "pyproject.toml", options)) {
    try {
      const toml::table doc = toml::parse(std::string_view(*text), std::string_view("pyproject.toml"));
      for (const char* tool : {"ruff", "black"}) {
        if (const auto columns = doc["tool"][tool]["line-length"].value<int64_t>(); columns && plausible(*columns)) {
          limit.columns = static_cast<size_t>(*columns);
          limit.source = std::string("[tool.") + tool + "] line-length in pyproject.toml";
          return limit;
        }
      }
    } catch (const toml::parse_error&) {
      // A broken pyproject.toml says nothing about line length; the scan reports it elsewhere.
    }
  }
  // `[flake8]` up to the next section; the option's name as flake8 accepts it.
  static const RE2 flake8(R"((?ms)^\[flake8\][^\[]*?^max[-_]line[-_]length\s*[=:]\s*([0-9]+))");
  for (const char* name : {"setup.cfg", ".flake8", "tox.ini"}) {
    const auto text = read_root_file(root, name, options);
    int64_t columns = 0;
    if (text && RE2::PartialMatch(*text, flake8, &columns) && plausible(columns)) {
      limit.columns = static_cast<size_t>(columns);
      limit.source = std::string("max-line-length in ") + name;
      return limit;
    }
  }
  return limit;
}

}  // namespace mpsready
