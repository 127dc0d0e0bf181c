#include "deps/requirements_reader.h"
#include "deps/line_space.h"

#include <set>

#include <re2/re2.h>

#include "deps/requirement_spec.h"
#include "engine/file_kinds.h"
#include "engine/file_reader.h"

namespace mpsready {
namespace {

namespace fs = std::filesystem;

using deps_text::is_space;

// The value of an option written `-r X`, `-rX`, `--requirement X` or `--requirement=X`.
bool option_value(std::string_view line, std::initializer_list<std::string_view> names, std::string& value) {
  for (std::string_view name : names) {
    if (line.substr(0, name.size()) != name) continue;
    std::string_view rest = line.substr(name.size());
    const bool long_opt = name.size() > 2;
    if (rest.empty()) return false;
    if (rest[0] == '=' && long_opt) rest.remove_prefix(1);
    else if (is_space(rest[0])) {}
    else if (long_opt) continue;
    while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
    size_t end = 0;
    while (end < rest.size() && !is_space(rest[end])) ++end;
    value = std::string(rest.substr(0, end));
    return !value.empty();
  }
  return false;
}

// An included requirements file is read up to this size, as a scanned file is by default.
constexpr uintmax_t kMaxIncludedSize = 16u << 20;

struct Context {
  const fs::path& root;
  const std::function<bool(std::string_view)>& read_on_its_own;
  std::vector<DepsFile>& included;
  std::set<std::string> visited;
};

void follow(DepsFile& file, Context& ctx, std::vector<std::string>& chain);

void read_included(DepsFile& from, const RequirementsReader::Include& inc, Context& ctx,
                   std::vector<std::string>& chain) {
  const auto at = from.position(inc.offset);
  const std::string where = "line " + std::to_string(at.line) + ": ";
  if (inc.target.find("://") != std::string::npos) {
    from.errors.push_back({from.path, where + "`" + inc.target + "` is a URL; it was not fetched"});
    return;
  }
  const fs::path target = (fs::path(from.path).parent_path() / inc.target).lexically_normal();
  const std::string rel = target.generic_string();
  if (fs::path(inc.target).is_absolute() || rel.empty() || rel.rfind("..", 0) == 0) {
    from.errors.push_back({from.path, where + "`" + inc.target + "` is outside the scanned directory; it was not read"});
    return;
  }
  // Every component must be a plain directory or file: a symbolic link could leave the root.
  fs::path walk = ctx.root;
  for (const auto& part : target) {
    walk /= part;
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(walk, ec))) {
      from.errors.push_back({from.path, where + "`" + inc.target + "` goes through a symbolic link; it was not read"});
      return;
    }
  }
  if (ctx.read_on_its_own && ctx.read_on_its_own(rel)) {
    std::error_code ec;
    if (!fs::is_regular_file(walk, ec))
      from.errors.push_back({from.path, where + "`" + inc.target + "` does not exist"});
    return;  // scanned as a file of its own
  }
  if (std::find(chain.begin(), chain.end(), rel) != chain.end()) {
    std::string loop;
    for (const auto& c : chain) loop += c + " -> ";
    from.errors.push_back({from.path, where + "include loop (" + loop + rel + "); not read again"});
    return;
  }
  if (!ctx.visited.insert(rel).second) return;  // already read through another include
  std::error_code ec;
  if (!fs::is_regular_file(walk, ec)) {
    from.errors.push_back({from.path, where + "`" + inc.target + "` does not exist"});
    return;
  }
  if (fs::file_size(walk, ec) > kMaxIncludedSize) {
    from.errors.push_back({from.path, where + "`" + inc.target + "` is too large to read"});
    return;
  }
  // Read as every file of the repository is: beneath the root with no link on the way (one may
  // have been swapped in since the check above), and never past the size limit.
  ReadResult read = read_file_beneath(ctx.root, rel, kMaxIncludedSize);
  if (!read.bytes) {
    from.errors.push_back({from.path, where + "`" + inc.target + "` could not be read: " + read.error});
    return;
  }
  DepsFile inner;
  inner.path = rel;
  inner.kind = DepsFileKind::requirements;
  // pip honours a UTF-16/32 byte-order mark in an included file as in the file given to it.
  std::string bytes = std::move(*read.bytes);
  if (std::optional<std::string> decoded = decode_wide_bom(bytes)) bytes = std::move(*decoded);
  inner.text = std::make_shared<SourceText>(std::move(bytes));
  follow(inner, ctx, chain);
  if (inc.constraint) {
    for (auto& r : inner.records) {
      r.optional = true;
      r.group = "constraints";
    }
  }
  ctx.included.push_back(std::move(inner));
}

void follow(DepsFile& file, Context& ctx, std::vector<std::string>& chain) {
  std::vector<RequirementsReader::Include> includes;
  RequirementsReader::read_text(file, includes);
  chain.push_back(file.path);
  for (const auto& inc : includes) read_included(file, inc, ctx, chain);
  chain.pop_back();
}

}  // namespace

void RequirementsReader::read(DepsFile& file, const fs::path& root,
                              const std::function<bool(std::string_view)>& read_on_its_own,
                              std::vector<DepsFile>& included) {
  Context ctx{root, read_on_its_own, included, {}};
  ctx.visited.insert(file.path);
  std::vector<std::string> chain;
  follow(file, ctx, chain);
}

void RequirementsReader::read_text(DepsFile& file, std::vector<Include>& includes) {
  const std::string_view text = file.text->text();
  size_t start = 0;
  int line_no = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line_no;
    std::string_view line = text.substr(start, end - start);
    const uint32_t line_start = static_cast<uint32_t>(start);
    start = end + 1;
    // A comment starts at `#` at the beginning of the line or after whitespace.
    for (size_t i = 0; i < line.size(); ++i)
      if (line[i] == '#' && (i == 0 || is_space(line[i - 1]))) {
        line = line.substr(0, i);
        break;
      }
    size_t b = 0;
    while (b < line.size() && is_space(line[b])) ++b;
    size_t e = line.size();
    while (e > b && (is_space(line[e - 1]) || line[e - 1] == '\\')) --e;
    if (b >= e) {
      if (end == text.size()) break;
      continue;
    }
    const std::string_view content = line.substr(b, e - b);
    const uint32_t at = line_start + static_cast<uint32_t>(b);
    std::string value;
    if (content[0] == '-') {
      if (option_value(content, {"--requirement", "-r"}, value)) includes.push_back({value, false, at});
      else if (option_value(content, {"--constraint", "-c"}, value)) includes.push_back({value, true, at});
      else file.add_directive("option", std::string(content), at);
    } else if (content.find("://") != std::string_view::npos && content.find(" @ ") == std::string_view::npos &&
               content.find('@') == std::string_view::npos) {
      file.add_directive("url", std::string(content), at);
    } else if (content[0] == '.' || content[0] == '/' || content.rfind("git+", 0) == 0 ||
               content.rfind("file:", 0) == 0) {
      file.add_directive("url", std::string(content), at);
    } else {
      // Per-requirement options (`--hash=...`) follow the requirement.
      std::string_view req = content;
      for (size_t i = 1; i + 1 < req.size(); ++i)
        if (is_space(req[i]) && req[i + 1] == '-' && i + 2 < req.size() && req[i + 2] == '-') {
          req = req.substr(0, i);
          break;
        }
      while (!req.empty() && is_space(req.back())) req.remove_suffix(1);
      DependencyRecord r;
      if (RequirementSpec::parse(req, r)) {
        r.text = std::string(req);
        r.start = at;
        r.end = at + static_cast<uint32_t>(req.size());
        file.records.push_back(std::move(r));
      } else {
        file.errors.push_back({file.path, "line " + std::to_string(line_no) + ": `" + std::string(req) +
                                              "` is neither a requirement nor an option; it was skipped"});
      }
    }
    if (end == text.size()) break;
  }
}

}  // namespace mpsready
