#include "cli/diff_config.h"

#include <cctype>
#include <optional>
#include <set>

#include "engine/file_reader.h"

namespace mpsready {

namespace fs = std::filesystem;

namespace {

// Everything of a configuration that shapes a scan, in one string (ordered containers only).
std::string signature(const ProjectConfig& c) {
  std::string s;
  const auto list = [&](const char* name, const std::vector<std::string>& items) {
    s += name;
    for (const std::string& i : items) s += '\0' + i;
    s += '\n';
  };
  list("exclude", c.excludes);
  list("select", c.select);
  list("ignore", c.ignore);
  s += "impact";
  for (const auto& [id, impact] : c.impacts) s += '\0' + id + '=' + std::string(to_string(impact));
  s += "\ntarget_pytorch=" + c.target_pytorch + "\nfail_on=" + c.fail_on + "\nroles";
  for (const auto& [prefix, role] : c.roles) s += '\0' + prefix + '=' + std::to_string(static_cast<int>(role));
  s += '\n';
  list("components", c.components);
  s += "per_file_ignores";
  for (const auto& [glob, ids] : c.per_file_ignores) {
    s += '\0' + glob;
    for (const std::string& id : ids) s += '\1' + id;
  }
  return s;
}

// `file` relative to `dir` when it lies inside it (lexically, after resolving what exists).
std::optional<std::string> inside(const fs::path& dir, const std::string& file) {
  std::error_code ec;
  const fs::path d = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  const fs::path f = fs::weakly_canonical(fs::absolute(file, ec), ec);
  const fs::path rel = f.lexically_relative(d);
  if (rel.empty() || rel.is_absolute() || *rel.begin() == ".." || rel == ".") return std::nullopt;
  return rel.generic_string();
}

void replace_prefix(std::string& text, const fs::path& dir, const std::string& label) {
  const std::string prefix = (dir / "").string();
  for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + label.size()))
    text.replace(at, prefix.size(), label);
}

std::string bytes_or_empty(const fs::path& file) {
  const ReadResult read = read_repository_file(file, 1 << 20);
  return read.bytes ? *read.bytes : std::string("\x01missing");
}

}  // namespace

ConfigResult load_base_config(const fs::path& root, const fs::path& base_dir, const std::string& base_label,
                              const std::string& explicit_file, std::vector<ScanInputChange>& changes) {
  const std::string base_prefix = base_label + ":";
  std::optional<std::string> rel;
  if (!explicit_file.empty()) {
    rel = inside(root, explicit_file);
    if (!rel) return load_project_config(root, explicit_file);  // the caller's file, outside the repository
  }
  ConfigResult then;
  if (rel) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(base_dir / *rel, ec))) {
      then = load_project_config(base_dir, (base_dir / *rel).string());
    } else {
      then.config = ProjectConfig{};  // BASE has no such file: no configuration
    }
    if (bytes_or_empty(base_dir / *rel) != bytes_or_empty(root / *rel)) changes.push_back({*rel, "configuration"});
  } else {
    then = load_project_config(base_dir, "");
  }
  replace_prefix(then.error, base_dir, base_prefix);
  replace_prefix(then.note, base_dir, base_prefix);
  if (!then.config) return then;
  replace_prefix(then.config->source, base_dir, base_prefix);
  if (rel) return then;
  // The work tree's own configuration, only to compare.
  const ConfigResult now = load_project_config(root, "");
  const auto name = [&](std::string source) {
    replace_prefix(source, root, "");
    replace_prefix(source, base_dir, "");
    if (source.rfind(base_prefix, 0) == 0) source.erase(0, base_prefix.size());
    return source;
  };
  if (!now.config) {
    // The error starts with the file ("ROOT/pyproject.toml:3: not valid TOML: ...").
    std::string file = name(now.error.substr(0, now.error.find(": ")));
    while (!file.empty() && (std::isdigit(static_cast<unsigned char>(file.back())) || file.back() == ':')) file.pop_back();
    changes.push_back({file.empty() ? ".mpsready.json" : file, "configuration"});
  } else if (signature(*now.config) != signature(*then.config)) {
    const std::string file = name(!now.config->source.empty() ? now.config->source : then.config->source);
    changes.push_back({file, "configuration"});
  }
  return then;
}

std::string base_baseline(const fs::path& root, const fs::path& base_dir, const std::string& file,
                          std::vector<ScanInputChange>& changes) {
  const std::optional<std::string> rel = inside(root, file);
  if (!rel) return file;
  if (bytes_or_empty(base_dir / *rel) != bytes_or_empty(root / *rel)) changes.push_back({*rel, "baseline"});
  std::error_code ec;
  return fs::is_regular_file(fs::symlink_status(base_dir / *rel, ec)) ? (base_dir / *rel).string() : "";
}

std::vector<std::string> no_longer_scanned(const ScanResult& before, const ScanResult& after, const fs::path& root) {
  // A file with errors is still analysed as far as it can be (one bad file costs one file, and
  // its findings are reported): only a file not walked or skipped whole counts.
  const auto read_whole = [](const ScanResult& scan) {
    std::set<std::string> files(scan.files.begin(), scan.files.end());
    for (const FileNote& n : scan.skipped) files.erase(n.path);
    return files;
  };
  const std::set<std::string> then = read_whole(before);
  const std::set<std::string> now = read_whole(after);
  std::vector<std::string> out;
  for (const std::string& path : then) {
    if (now.count(path)) continue;
    std::error_code ec;
    if (fs::exists(fs::symlink_status(root / path, ec))) out.push_back(path);
  }
  return out;
}

}  // namespace mpsready
