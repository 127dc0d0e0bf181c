#include "compile_flags.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/source_text.h"

namespace mpsready {
namespace {

namespace fs = std::filesystem;

// Flags that name a directory or file to read from, with Clang's spellings: the flag alone
// takes the next argument; "-I", "-isystem", … also take it joined (`-Iinclude`), and the
// "--x" forms take it after `=`.
struct PathFlag {
  std::string_view flag;
  bool joined;  // `-Ipath` (else only `--flag=path` or `-flag path`)
};
constexpr std::array kPathFlags = {
    PathFlag{"-isystem", true},  PathFlag{"-iquote", true},   PathFlag{"-idirafter", true},
    PathFlag{"-imacros", true},  PathFlag{"-include", true},  PathFlag{"-isysroot", true},
    PathFlag{"--sysroot", false}, PathFlag{"--cuda-path", false}, PathFlag{"-I", true},
};

// Flags with a value that never reaches a file.
constexpr std::array<std::string_view, 6> kValueFlags = {"-D", "-U", "-x", "-std", "-target", "--target"};

// `-f` flags that shape what is parsed (language dialect and limits), with or without `no-`.
constexpr std::array<std::string_view, 30> kLanguageF = {
    "exceptions",       "cxx-exceptions", "rtti",           "ms-extensions",      "ms-compatibility",
    "ms-compatibility-version=", "delayed-template-parsing", "openmp", "signed-char", "unsigned-char",
    "char8_t",          "coroutines-ts",  "gnu-keywords",   "blocks",             "builtin",
    "math-errno",       "fast-math",      "finite-math-only", "asm",              "trigraphs",
    "digraphs",         "declspec",       "dollars-in-identifiers", "sized-deallocation", "aligned-allocation",
    "template-depth=",  "constexpr-depth=", "constexpr-steps=", "bracket-depth=", "gnu89-inline"};

// `-f` flags that change code generation or diagnostics only, and name no file.
constexpr std::array<std::string_view, 21> kQuietF = {
    "syntax-only",
    "pic", "PIC", "pie", "PIE", "visibility", "diagnostics-", "color-diagnostics", "stack-protector",
    "function-sections", "data-sections", "omit-frame-pointer", "strict-aliasing", "common", "message-length=",
    "plt", "wrapv", "strict-overflow", "unroll-loops", "inline-functions", "vectorize"};

// Flags that take the next argument and are dropped with it.
constexpr std::array<std::string_view, 11> kDropWithValue = {
    "-MF", "-MT", "-MQ", "-MJ", "-mllvm", "-ivfsoverlay", "-include-pch", "-resource-dir", "-B", "--config",
    "-cxx-isystem"};

bool in_list(std::string_view name, const auto& list) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

bool language_f(std::string_view flag) {  // flag without "-f"
  if (flag.starts_with("no-")) flag.remove_prefix(3);
  if (flag.starts_with("cuda-") || flag.starts_with("gpu-") || flag == "openmp" || flag.starts_with("openmp="))
    return true;
  for (std::string_view f : kLanguageF)
    if (f.back() == '=' ? flag.starts_with(f) : flag == f) return true;
  return false;
}

bool quiet_f(std::string_view flag) {
  if (flag.starts_with("no-")) flag.remove_prefix(3);
  for (std::string_view f : kQuietF)
    if (flag.starts_with(f)) return true;
  return false;
}

class Filter {
 public:
  Filter(const std::string& directory, const fs::path& root) : root_(canonical_root(root)) {
    fs::path dir(directory);
    if (dir.is_relative()) dir = root_ / dir;
    directory_ = dir.lexically_normal();
  }

  CompileFlags run(const std::vector<std::string>& cmd, const std::string& file) {
    const fs::path source = resolve(file);
    for (size_t i = 1; i < cmd.size(); ++i) {
      const std::string& a = cmd[i];
      const auto next = [&]() -> const std::string* { return i + 1 < cmd.size() ? &cmd[++i] : nullptr; };
      if (a.empty()) continue;
      if (a[0] == '@') {  // a response file: more flags, read from a file the repository names
        drop(a);
        continue;
      }
      if (a[0] != '-' || a == "-") {
        if (a == file || resolve(a) == source) continue;
        drop(a, "an input");
        continue;
      }
      if (a == "-o" || (a.starts_with("-o") && a.size() > 2)) {
        const std::string* out = a == "-o" ? next() : nullptr;
        const std::string value = out ? *out : a.substr(2);
        if (!inside(resolve(value))) drop(a == "-o" ? "-o " + value : a, "outside the scanned root");
        continue;
      }
      if (in_list(a, kDropWithValue) || a.starts_with("-X")) {
        std::string shown = a;
        const bool joined = a.starts_with("-X") && a.find('=') != std::string::npos;
        if (!joined)
          if (const std::string* v = next()) shown += " " + *v;
        drop(shown);
        continue;
      }
      if (path_flag(a, cmd, i)) continue;
      if (value_flag(a, cmd, i)) continue;
      if (a == "-c" || a == "-w" || a == "-pipe" || a.starts_with("-O") || a.starts_with("-g") ||
          a.starts_with("-pedantic") || (a.starts_with("-W") && a.find(',') == std::string::npos))
        continue;  // code generation, debug info, warnings: nothing a parse reads or writes
      if (a == "-pthread" || a == "-nostdinc" || a == "-nostdinc++" || a == "-nostdlibinc" || a == "-nobuiltininc" ||
          a == "-undef" || a == "-ansi" || a == "-trigraphs" || a == "-nocudainc" || a == "-nocudalib" ||
          a == "-nogpuinc" || a == "-nogpulib" || a.starts_with("--offload-arch=") || a.starts_with("--cuda-gpu-arch=") ||
          ((a.starts_with("--cuda-") || a.starts_with("--no-cuda-")) && a.find('=') == std::string::npos &&
           a.find("path") == std::string::npos)) {
        keep(a);
        continue;
      }
      if (a.starts_with("-m") && a != "-mllvm" && !a.starts_with("-mllvm")) {
        keep(a);  // target features and ABI: they set predefined macros
        continue;
      }
      if (a.starts_with("-f")) {
        const std::string_view f = std::string_view(a).substr(2);
        if (language_f(f)) keep(a);
        else if (!quiet_f(f)) drop(a);
        continue;
      }
      drop(a);  // -MD, -save-temps, -Wp,…, --config=…, --driver-mode=… and anything unknown
    }
    return std::move(out_);
  }

 private:
  static fs::path canonical_root(const fs::path& root) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::absolute(root, ec), ec);
    return ec ? fs::absolute(root).lexically_normal() : c;
  }

  fs::path resolve(const std::string& value) const {
    fs::path p(value);
    if (p.is_relative()) p = directory_ / p;
    std::error_code ec;
    fs::path c = fs::weakly_canonical(p, ec);  // links resolved: a link inside that leads out is out
    return ec ? p.lexically_normal() : c;
  }

  bool inside(const fs::path& p) const {
    auto r = root_.begin(), q = p.begin();
    for (; r != root_.end(); ++r, ++q) {
      if (r->empty() && std::next(r) == root_.end()) break;  // a trailing separator
      if (q == p.end() || *q != *r) return false;
    }
    return true;
  }

  bool path_flag(const std::string& a, const std::vector<std::string>& cmd, size_t& i) {
    for (const PathFlag& pf : kPathFlags) {
      std::string value;
      bool separate = false;
      if (a == pf.flag) {
        if (i + 1 >= cmd.size()) return drop(a), true;
        value = cmd[++i];
        separate = true;
      } else if (a.starts_with(std::string(pf.flag) + "=")) {
        value = a.substr(pf.flag.size() + 1);
      } else if (pf.joined && a.starts_with(pf.flag) && a.size() > pf.flag.size()) {
        value = a.substr(pf.flag.size());
      } else {
        continue;
      }
      const std::string shown = separate ? a + " " + value : a;
      const fs::path resolved = resolve(value);
      if (!inside(resolved)) {
        drop(shown, "outside the scanned root");
        return true;
      }
      if (pf.flag.substr(0, 2) == "--") keep(std::string(pf.flag) + "=" + resolved.string());
      else {
        keep(std::string(pf.flag));
        keep(resolved.string());
      }
      return true;
    }
    return false;
  }

  bool value_flag(const std::string& a, const std::vector<std::string>& cmd, size_t& i) {
    for (std::string_view f : kValueFlags) {
      if (a == f) {
        keep(a);
        if (i + 1 < cmd.size()) keep(cmd[++i]);
        return true;
      }
      if (a.starts_with(f) && (f.size() <= 2 || a[f.size()] == '=')) {
        if (f == "-std" || f == "--target" || f == "-target") {
          if (a.size() > f.size() && a[f.size()] == '=') return keep(a), true;
          continue;
        }
        keep(a);  // -DX=1, -UX, -xc++
        return true;
      }
    }
    if (a.starts_with("--std=")) return keep(a), true;
    return false;
  }

  void keep(const std::string& a) { out_.args.push_back(a); }
  void drop(const std::string& shown, const char* why = nullptr) {
    out_.dropped.push_back(why ? shown + " (" + why + ")" : shown);
  }

  fs::path root_;
  fs::path directory_;
  CompileFlags out_;
};

}  // namespace

CompileFlags filter_compile_flags(const std::vector<std::string>& command, const std::string& directory,
                                  const std::string& file, const std::filesystem::path& root) {
  return Filter(directory, root).run(command, file);
}

std::string describe_dropped_flags(const std::vector<std::string>& dropped) {
  constexpr size_t kShown = 8, kWidth = 120;
  std::string text =
      "compile_commands.json flags not passed to Clang (they load code, read or write files by name, or are not "
      "known to shape the parse):";
  for (size_t i = 0; i < dropped.size() && i < kShown; ++i) {
    std::string flag = dropped[i];
    if (flag.size() > kWidth) flag = shorten_utf8(flag, kWidth);
    text += (i ? ", " : " ") + flag;
  }
  if (dropped.size() > kShown) text += " and " + std::to_string(dropped.size() - kShown) + " more";
  return text;
}

}  // namespace mpsready
