#include "deps/setup_cfg_reader.h"
#include "deps/line_space.h"

#include "deps/entry_point.h"
#include "deps/package_list.h"
#include "deps/requirement_spec.h"

namespace mpsready {
namespace {

using deps_text::is_space;

std::string_view trim_view(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// The packages of `[options]` and `[options.packages.find]`; `find:` searches `where`, which
// may come before or after it.
struct PackageParts {
  bool find = false;
  uint32_t find_at = 0;
  std::string where;
  uint32_t where_at = 0;

  void read(DepsFile& file, const std::string& section, const std::string& key, std::string_view value, uint32_t at) {
    if (section == "options" && key == "package_dir") {
      add_package_part(file, "package-dir", value, at);
      return;
    }
    const bool list = section == "options" && key == "packages";
    const bool search = section == "options.packages.find";
    if (!list && !search) return;
    if (list && (value == "find:" || value == "find_namespace:")) {
      find = true, find_at = at;
      return;
    }
    if (search && key == "where") {
      where = std::string(value), where_at = at;
      return;
    }
    const std::string_view kind = list ? "package" : key == "include" ? "package-include" : key == "exclude" ? "package-exclude" : "";
    if (kind.empty()) return;
    // One per line, or several separated by commas.
    size_t from = 0;
    while (from <= value.size()) {
      size_t comma = value.find(',', from);
      if (comma == std::string_view::npos) comma = value.size();
      add_package_part(file, kind, value.substr(from, comma - from), at + static_cast<uint32_t>(from));
      from = comma + 1;
    }
  }

  void finish(DepsFile& file) const {
    if (find) add_package_part(file, "package-find", where, where.empty() ? find_at : where_at);
  }
};

}  // namespace

void SetupCfgReader::read(DepsFile& file) {
  const std::string_view text = file.text->text();
  std::string section, key;
  bool in_list = false;  // inside a value that holds requirements
  size_t start = 0;
  int line_no = 0;
  PackageParts packages;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line_no;
    const std::string_view line = text.substr(start, end - start);
    const uint32_t line_start = static_cast<uint32_t>(start);
    start = end + 1;
    const std::string_view t = trim_view(line);
    const bool indented = !line.empty() && is_space(line[0]);
    std::string_view value;
    uint32_t value_at = 0;
    if (t.empty() || t[0] == '#' || t[0] == ';') {
      if (end == text.size()) break;
      continue;
    }
    if (!indented && t.front() == '[') {
      const size_t close = t.find(']');
      if (close == std::string_view::npos)
        file.errors.push_back({file.path, "line " + std::to_string(line_no) + ": unterminated section header"});
      section = std::string(trim_view(t.substr(1, close == std::string_view::npos ? t.size() - 1 : close - 1)));
      in_list = false;
    } else if (!indented) {
      const size_t eq = t.find_first_of("=:");
      if (eq == std::string_view::npos) {
        file.errors.push_back({file.path, "line " + std::to_string(line_no) + ": `" + std::string(t) +
                                              "` is neither a section, a key nor a continuation"});
        in_list = false;
      } else {
        key = std::string(trim_view(t.substr(0, eq)));
        in_list = (section == "options" && (key == "install_requires" || key == "setup_requires")) ||
                  section == "options.extras_require";
        value = trim_view(t.substr(eq + 1));
        value_at = line_start + static_cast<uint32_t>(value.data() - line.data());
      }
    } else {
      value = t;
      value_at = line_start + static_cast<uint32_t>(t.data() - line.data());
    }
    const bool scripts = section == "options.entry_points" && (key == "console_scripts" || key == "gui_scripts");
    if (scripts && !value.empty()) add_entry_point(file, value, value_at);
    if (!value.empty()) packages.read(file, section, key, value, value_at);
    if (in_list && !value.empty()) {
      // Inline comments start with ` #`.
      if (const size_t hash = value.find(" #"); hash != std::string_view::npos) value = trim_view(value.substr(0, hash));
      DependencyRecord r;
      if (RequirementSpec::parse(value, r)) {
        r.text = std::string(value);
        r.start = value_at;
        r.end = value_at + static_cast<uint32_t>(value.size());
        if (section == "options.extras_require") {
          r.group = key;
          r.optional = true;
        } else if (key == "setup_requires") {
          r.group = "setup_requires";
        }
        file.records.push_back(std::move(r));
      }
    }
    if (end == text.size()) break;
  }
  packages.finish(file);
}

}  // namespace mpsready
