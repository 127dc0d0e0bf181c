#include "docs/readme_commands.h"

#include <cctype>
#include <optional>
#include <set>
#include <tuple>

namespace mpsready {
namespace {

std::string lowercase_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

size_t indent_of(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

// Shell words of one command line, split at blanks; `&&`, `;`, `|` and `\` end a word and are
// words of their own, so a launcher never reaches across them.
std::vector<std::string> words(std::string_view code) {
  std::vector<std::string> out;
  std::string word;
  const auto flush = [&] {
    if (!word.empty()) out.push_back(std::move(word));
    word.clear();
  };
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '`') {
      flush();
    } else if (c == ';' || c == '|' || c == '&' || c == '\\' || c == '(' || c == ')') {
      flush();
      out.emplace_back(1, ';');
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

bool is_python(std::string_view word) {
  // `python`, `python3`, `python3.10`, `/usr/bin/python3`
  if (const size_t slash = word.rfind('/'); slash != std::string_view::npos) word.remove_prefix(slash + 1);
  if (word.rfind("python", 0) != 0) return false;
  for (const char c : word.substr(6))
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return false;
  return true;
}

// Modules that launch a script given after their options (`python -m torch.distributed.run`).
bool is_launcher_module(std::string_view module) {
  return module == "torch.distributed.launch" || module == "torch.distributed.run" ||
         module == "accelerate.commands.launch" || module == "deepspeed";
}

bool is_dotted_name(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  for (const char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return false;
  return true;
}

// A `.py` file inside the repository, as written after the launcher (`./train.py`, `tools/x.py`).
std::string script_path(std::string_view word) {
  while (word.substr(0, 2) == "./") word.remove_prefix(2);
  if (!word.ends_with(".py") || word.empty() || word.front() == '/' || word.front() == '-' || word.front() == '~' ||
      word.find('$') != std::string_view::npos || word.find("..") != std::string_view::npos ||
      word.find('=') != std::string_view::npos)
    return "";
  const size_t slash = word.rfind('/');
  if (lowercase_ascii(word.substr(slash == std::string_view::npos ? 0 : slash + 1)) == "setup.py") return "";
  return std::string(word);
}

// The folder a `cd` names, inside the repository (`examples/cifar/` is `examples/cifar`); nullopt
// for one that cannot be followed (`cd ..`, `cd $DIR`, `cd /opt/x`, `cd ~`).
std::optional<std::string> cd_folder(std::string_view word) {
  while (word.substr(0, 2) == "./") word.remove_prefix(2);
  while (!word.empty() && word.back() == '/') word.remove_suffix(1);
  if (word.empty() || word == ".") return std::string();
  if (word.front() == '/' || word.front() == '~' || word.front() == '-' || word.find('$') != std::string_view::npos ||
      word.find("..") != std::string_view::npos)
    return std::nullopt;
  return std::string(word);
}

// The programs of one piece of code (a line of a block, or an inline span).
void scan_code(const std::string& path, int line, std::string_view code, std::vector<EntryPointFact>& out) {
  const std::vector<std::string> w = words(code);
  // `cd examples/cifar && python train.py`: the scripts after it are in that folder; after a
  // `cd` that cannot be followed, they are no file of ours to name.
  std::string cwd;
  bool lost = false;
  const auto add_script = [&](std::string script) {
    if (lost) return;
    out.push_back({path, line, "", cwd.empty() ? std::move(script) : cwd + "/" + script});
  };
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "cd" && i + 1 < w.size() && w[i + 1] != ";") {
      const auto folder = cd_folder(w[i + 1]);
      if (!folder) lost = true;
      else if (!folder->empty()) cwd = cwd.empty() ? *folder : cwd + "/" + *folder;
      ++i;
      continue;
    }
    bool takes_script = false;
    size_t j = i + 1;
    if (is_python(w[i])) {
      // Interpreter options come first; `-m` names a module, `-c` runs inline code.
      for (; j < w.size() && w[j].size() > 1 && w[j][0] == '-'; ++j) {
        if (w[j] == "-c") break;
        if (w[j] == "-m" && j + 1 < w.size()) {
          const std::string& module = w[j + 1];
          if (is_launcher_module(module)) {
            j += 2;
            takes_script = true;
          } else if (is_dotted_name(module)) {
            out.push_back({path, line, module, ""});
          }
          break;
        }
      }
      if (!takes_script) {
        if (j < w.size() && w[j] != "-c" && w[j] != "-m")
          if (std::string s = script_path(w[j]); !s.empty()) add_script(std::move(s));
        continue;
      }
    } else if (w[i] == "torchrun" || w[i] == "deepspeed") {
      takes_script = true;
    } else if (w[i] == "accelerate" && j < w.size() && w[j] == "launch") {
      ++j;
      takes_script = true;
    }
    if (!takes_script) continue;
    // A launcher's options may take values (`--nproc_per_node 8`): its script is the first
    // `.py` word before the command ends.
    for (; j < w.size() && w[j] != ";"; ++j)
      if (std::string s = script_path(w[j]); !s.empty()) {
        add_script(std::move(s));
        break;
      }
  }
}

}  // namespace

bool is_root_readme(std::string_view path) {
  if (path.find('/') != std::string_view::npos) return false;
  const std::string name = lowercase_ascii(path);
  return name == "readme" || name == "readme.md" || name == "readme.rst" || name == "readme.txt";
}

std::vector<EntryPointFact> readme_commands(const std::string& path, std::string_view text) {
  std::vector<EntryPointFact> out;
  if (!is_root_readme(path)) return out;
  bool fenced = false;       // inside a ``` or ~~~ block
  std::string fence;
  bool rst_block = false;    // inside the indented block after `::`
  size_t rst_indent = 0;
  bool rst_opens = false;    // the last text line ended with `::`
  int number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++number;
    start = end + 1;
    const size_t indent = indent_of(line);
    const std::string_view body = line.substr(indent);
    if (fenced) {
      if (body.rfind(fence, 0) == 0) fenced = false;
      else scan_code(path, number, body, out);
      continue;
    }
    if (body.rfind("```", 0) == 0 || body.rfind("~~~", 0) == 0) {
      fenced = true;
      fence = std::string(body.substr(0, 3));
      continue;
    }
    if (body.empty()) continue;
    if (rst_block && indent > rst_indent) {
      scan_code(path, number, body, out);
      continue;
    }
    rst_block = false;
    if (rst_opens && indent > rst_indent) {
      rst_block = true;
      scan_code(path, number, body, out);
      continue;
    }
    // `Usage::`, `.. code-block:: shell`, `.. code:: bash`: an indented literal block follows.
    rst_opens = body.ends_with("::") || body.rfind(".. code", 0) == 0 || body.rfind(".. sourcecode", 0) == 0;
    rst_indent = indent;
    // A Markdown block indented by four spaces after a blank line reads the same way.
    if (indent >= 4 && line[0] == ' ' && !rst_opens) {
      scan_code(path, number, body, out);
      continue;
    }
    // Inline code: `...` or ``...``.
    for (size_t at = body.find('`'); at != std::string_view::npos;) {
      size_t ticks = 0;
      while (at + ticks < body.size() && body[at + ticks] == '`') ++ticks;
      const size_t close = body.find(std::string(ticks, '`'), at + ticks);
      if (close == std::string_view::npos) break;
      scan_code(path, number, body.substr(at + ticks, close - at - ticks), out);
      at = body.find('`', close + ticks);
    }
  }
  // One fact per program and line.
  std::set<std::tuple<int, std::string, std::string>> seen;
  std::erase_if(out, [&](const EntryPointFact& e) { return !seen.insert({e.line, e.module, e.script}).second; });
  return out;
}

}  // namespace mpsready
