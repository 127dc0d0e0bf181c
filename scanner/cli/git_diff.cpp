#include "cli/git_diff.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>

extern char** environ;

namespace mpsready {

namespace fs = std::filesystem;

namespace {

struct Process {
  int code = -1;
  std::string out;
  std::string err;
};

// Runs git with `args` (no shell), stdin from `stdin_file` (or /dev/null); its standard output
// goes to `sink` as it comes (or into `out` without a sink).
Process run_git(const fs::path& root, const std::vector<std::string>& args, const std::string& stdin_file = "",
                const std::function<void(std::string_view)>& sink = {}) {
  Process result;
  std::vector<std::string> argv = {"git", "-C", root.string(), "-c", "core.fsmonitor=false", "-c", "core.quotePath=false",
                                   "--no-pager"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);

  int out_pipe[2];
  if (pipe(out_pipe) != 0) return result;
  char err_name[] = "/tmp/mpsready-git-XXXXXX";
  const int err_fd = mkstemp(err_name);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, stdin_file.empty() ? "/dev/null" : stdin_file.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  if (err_fd >= 0) posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "git", &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  if (spawned == 0) {
    char buf[65536];
    ssize_t n = 0;
    while ((n = read(out_pipe[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
      if (n <= 0) continue;
      if (sink) sink(std::string_view(buf, static_cast<size_t>(n)));
      else result.out.append(buf, static_cast<size_t>(n));
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  } else {
    result.err = std::string("cannot run git: ") + std::strerror(spawned);
  }
  close(out_pipe[0]);
  if (err_fd >= 0) {
    std::ifstream in(err_name, std::ios::binary);
    result.err += std::string((std::istreambuf_iterator<char>(in)), {});
    close(err_fd);
    unlink(err_name);
  }
  while (!result.err.empty() && (result.err.back() == '\n' || result.err.back() == '\r')) result.err.pop_back();
  return result;
}

// git's C-style quoting of unusual path names ("a\tb", "\303\251").
std::string unquote(const std::string& s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return s;
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] != '\\' || i + 2 >= s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    if (c >= '0' && c <= '7' && i + 2 < s.size()) {
      out += static_cast<char>(((c - '0') << 6) | ((s[i + 1] - '0') << 3) | (s[i + 2] - '0'));
      i += 2;
    } else {
      switch (c) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        default: out += c;
      }
    }
  }
  return out;
}

std::string strip_prefix(std::string path, const char* prefix) {
  // A name with a space gets a trailing tab in the ---/+++ lines (as GNU diff does).
  if (!path.empty() && path.front() != '"' && path.back() == '\t') path.pop_back();
  const std::string p = unquote(path);
  return p.rfind(prefix, 0) == 0 ? p.substr(std::strlen(prefix)) : std::string();
}

}  // namespace

void parse_unified_diff(const std::string& text, GitDiff& out) {
  std::string current;
  // Lines a hunk still holds, by its `@@` counts: inside a hunk every line is content, whatever
  // it looks like (an added line `++ b/decoy.py` is printed `+++ b/decoy.py` and must not be read
  // as a file header).
  long old_left = 0, new_left = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (old_left > 0 || new_left > 0) {
      const char c = line.empty() ? ' ' : line[0];
      if (c == ' ') {
        --old_left;
        --new_left;
        continue;
      }
      if (c == '-') {
        --old_left;
        continue;
      }
      if (c == '+') {
        --new_left;
        continue;
      }
      if (c == '\\') continue;  // "\ No newline at end of file"
      old_left = new_left = 0;    // a malformed hunk: read on as headers
    }
    if (line.rfind("--- ", 0) == 0) {
      const std::string old_path = strip_prefix(line.substr(4), "a/");
      if (!old_path.empty()) out.changed_files.insert(old_path);
    } else if (line.rfind("+++ ", 0) == 0) {
      current = strip_prefix(line.substr(4), "b/");  // "" for /dev/null (a deleted file)
      if (!current.empty()) out.changed_files.insert(current);
    } else if (line.rfind("@@ ", 0) == 0) {
      // @@ -l[,s] +l[,s] @@
      long old_start = 0, old_count = 1, start = 0, count = 1;
      const size_t minus = line.find(" -");
      const size_t plus = line.find(" +");
      if (minus == std::string::npos || plus == std::string::npos) continue;
      if (std::sscanf(line.c_str() + minus + 2, "%ld,%ld", &old_start, &old_count) < 1) continue;
      if (std::sscanf(line.c_str() + plus + 2, "%ld,%ld", &start, &count) < 1) continue;
      old_left = std::max(0L, old_count);
      new_left = std::max(0L, count);
      if (!current.empty() && count > 0 && start > 0)
        out.added[current].push_back({static_cast<int>(start), static_cast<int>(start + count - 1)});
    }
  }
}

bool on_changed_line(const GitDiff& diff, const Finding& f) {
  const auto it = diff.added.find(f.path);
  if (it == diff.added.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](const auto& r) { return f.location.line >= r.first && f.location.line <= r.second; });
}

bool read_git_diff(const fs::path& root, const std::string& base, GitDiff& out, std::string& error) {
  out.base = base;
  if (base.empty() || base[0] == '-') {
    error = "--diff: \"" + base + "\" is not a git revision";
    return false;
  }
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    error = "--diff needs a directory inside a git work tree";
    return false;
  }
  const Process inside = run_git(root, {"rev-parse", "--is-inside-work-tree"});
  if (inside.code != 0 || inside.out.rfind("true", 0) != 0) {
    error = "--diff: " + root.string() + " is not inside a git work tree" + (inside.err.empty() ? "" : " (" + inside.err + ")");
    return false;
  }
  const Process commit = run_git(root, {"rev-parse", "--verify", "--quiet", "--end-of-options", base + "^{commit}"});
  if (commit.code == 0 && commit.out.size() >= 40) {
    out.base_commit = commit.out.substr(0, commit.out.find('\n'));
  } else if (base == "HEAD" && run_git(root, {"rev-parse", "--verify", "--quiet", "HEAD"}).code != 0) {
    // A repository without commits (a pre-commit hook's first commit): everything tracked is
    // new, so the base is the empty tree.
    const Process empty = run_git(root, {"hash-object", "-t", "tree", "/dev/null"});
    if (empty.code != 0 || empty.out.size() < 40) {
      error = "--diff: git hash-object failed: " + empty.err;
      return false;
    }
    out.base_commit = empty.out.substr(0, empty.out.find('\n'));
  } else {
    error = "--diff: unknown revision \"" + base + "\"";
    return false;
  }
  const Process diff = run_git(root, {"diff", "--no-ext-diff", "--no-textconv", "--no-color", "--relative", "--unified=0",
                                      "--src-prefix=a/", "--dst-prefix=b/", out.base_commit, "--", "."});
  if (diff.code != 0) {
    error = "--diff: git diff failed: " + diff.err;
    return false;
  }
  parse_unified_diff(diff.out, out);
  return true;
}

bool export_git_tree(const fs::path& root, const std::string& commit, const fs::path& dir, uintmax_t max_size,
                     std::string& error) {
  // Paths are relative to `root` (ls-tree lists the current directory's part of the tree).
  const Process tree = run_git(root, {"ls-tree", "-r", "-l", "-z", commit});
  if (tree.code != 0) {
    error = "--diff: git ls-tree failed: " + tree.err;
    return false;
  }
  struct Entry {
    std::string sha;
    std::string path;
  };
  std::vector<Entry> entries;
  size_t pos = 0;
  while (pos < tree.out.size()) {
    size_t end = tree.out.find('\0', pos);
    if (end == std::string::npos) end = tree.out.size();
    const std::string record = tree.out.substr(pos, end - pos);  // "<mode> <type> <sha> <size>\t<path>"
    pos = end + 1;
    const size_t tab = record.find('\t');
    if (tab == std::string::npos) continue;
    char mode[16] = {}, type[16] = {}, sha[80] = {}, size[32] = {};
    if (std::sscanf(record.substr(0, tab).c_str(), "%15s %15s %79s %31s", mode, type, sha, size) != 4) continue;
    const std::string path = record.substr(tab + 1);
    // Regular blobs only: no symbolic links (120000), no submodules (commit).
    if (std::string(type) != "blob" || (std::string(mode) != "100644" && std::string(mode) != "100755")) continue;
    if (std::strtoull(size, nullptr, 10) > max_size) continue;
    const fs::path rel(path);
    const bool safe = !path.empty() && rel.is_relative() &&
                      std::none_of(rel.begin(), rel.end(), [](const fs::path& c) { return c == ".." || c == "."; });
    if (safe) entries.push_back({sha, path});
  }
  if (entries.empty()) return true;
  char list_name[] = "/tmp/mpsready-git-XXXXXX";
  const int list_fd = mkstemp(list_name);
  if (list_fd < 0) {
    error = "--diff: cannot create a temporary file";
    return false;
  }
  {
    std::string input;
    for (const Entry& e : entries) input += e.sha + "\n";
    const bool ok = write(list_fd, input.data(), input.size()) == static_cast<ssize_t>(input.size());
    close(list_fd);
    if (!ok) {
      unlink(list_name);
      error = "--diff: cannot write a temporary file";
      return false;
    }
  }
  // "<sha> blob <size>\n<bytes>\n", once per requested object, in order; written out as it comes,
  // so the whole tree is never held in memory.
  size_t next = 0;           // the entry whose header comes next
  size_t remaining = 0;      // bytes of the current blob still to write
  bool in_blob = false, skip_newline = false;
  std::ofstream file;
  std::string pending;       // an incomplete header
  const auto sink = [&](std::string_view chunk) {
    while (!chunk.empty()) {
      if (skip_newline) {
        skip_newline = false;
        if (chunk.front() == '\n') chunk.remove_prefix(1);
        continue;
      }
      if (in_blob) {
        const size_t n = std::min(remaining, chunk.size());
        if (file) file.write(chunk.data(), static_cast<std::streamsize>(n));
        chunk.remove_prefix(n);
        remaining -= n;
        if (remaining == 0) {
          in_blob = false;
          skip_newline = true;
          file.close();
        }
        continue;
      }
      const size_t newline = chunk.find('\n');
      if (newline == std::string_view::npos) {
        pending.append(chunk);
        return;
      }
      pending.append(chunk.substr(0, newline));
      chunk.remove_prefix(newline + 1);
      const std::string header = std::move(pending);
      pending.clear();
      const size_t last_space = header.rfind(' ');
      if (next >= entries.size() || header.find(" blob ") == std::string::npos || last_space == std::string::npos) {
        ++next;  // "<sha> missing": no bytes follow
        continue;
      }
      const Entry& e = entries[next++];
      remaining = std::strtoull(header.c_str() + last_space + 1, nullptr, 10);
      const fs::path target = dir / e.path;
      std::error_code mk;
      fs::create_directories(target.parent_path(), mk);
      file = std::ofstream(target, std::ios::binary | std::ios::trunc);
      in_blob = true;
      if (remaining == 0) {
        in_blob = false;
        skip_newline = true;
        file.close();
      }
    }
  };
  const Process blobs = run_git(root, {"cat-file", "--batch"}, list_name, sink);
  unlink(list_name);
  if (blobs.code != 0) {
    error = "--diff: git cat-file failed: " + blobs.err;
    return false;
  }
  return true;
}

}  // namespace mpsready
