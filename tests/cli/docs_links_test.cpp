// The project's own documentation stays true: every relative link of README.md and docs/*.md names
// a file (or a heading of the page) that exists, and every mpsready command in a fenced `sh` block
// of the README uses only options its command's --help lists.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

// GitHub's anchor of a heading: lower case, spaces to '-', punctuation other than '-' and '_' dropped.
std::string anchor_of(const std::string& heading) {
  std::string out;
  for (const char c : heading) {
    const auto u = static_cast<unsigned char>(c);
    if (c == ' ') out += '-';
    else if (std::isalnum(u) || c == '-' || c == '_' || u >= 0x80) out += static_cast<char>(std::tolower(u));
  }
  return out;
}

std::set<std::string> anchors(const std::string& text) {
  std::set<std::string> out;
  std::istringstream lines(text);
  bool fenced = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (fenced || line.empty() || line[0] != '#') continue;
    const size_t start = line.find_first_not_of('#');
    if (start == std::string::npos || line[start] != ' ') continue;
    out.insert(anchor_of(line.substr(start + 1)));
  }
  return out;
}

std::vector<fs::path> documents() {
  std::vector<fs::path> out{source_dir() / "README.md"};
  for (const auto& entry : fs::directory_iterator(source_dir() / "docs"))
    if (entry.path().extension() == ".md") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(Docs, EveryRelativeLinkResolves) {
  const std::regex link(R"(\]\(([^)\s]+)\))");
  size_t checked = 0;
  for (const fs::path& doc : documents()) {
    const std::string text = read_text(doc);
    const std::set<std::string> own = anchors(text);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
      const std::string target = (*it)[1];
      if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
      ++checked;
      const size_t hash = target.find('#');
      const std::string file = target.substr(0, hash);
      if (file.empty()) {
        EXPECT_TRUE(own.count(target.substr(hash + 1))) << doc.filename() << ": no heading for " << target;
        continue;
      }
      const fs::path resolved = doc.parent_path() / file;
      EXPECT_TRUE(fs::exists(resolved)) << doc.filename() << ": " << target << " does not exist";
      if (hash != std::string::npos && fs::exists(resolved) && resolved.extension() == ".md")
        EXPECT_TRUE(anchors(read_text(resolved)).count(target.substr(hash + 1))) << doc.filename() << ": " << target;
    }
  }
  EXPECT_GT(checked, 5u) << "the documents link to each other";
}

TEST(Docs, ReadmeShellCommandsUseRealOptions) {
  const std::string text = read_text(source_dir() / "README.md");
  std::istringstream lines(text);
  std::vector<std::string> commands;
  bool in_sh = false;
  std::string pending;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("```", 0) == 0) {
      in_sh = !in_sh && line == "```sh";
      continue;
    }
    if (!in_sh) continue;
    pending += line;
    if (!pending.empty() && pending.back() == '\\') {  // a continued line
      pending.pop_back();
      continue;
    }
    std::string command = pending;
    pending.clear();
    if (command.rfind("$ ", 0) == 0) command = command.substr(2);
    if (const size_t comment = command.find("  #"); comment != std::string::npos) command.resize(comment);
    if (command.rfind("build/mpsready ", 0) == 0) command = command.substr(6);
    if (command.rfind("mpsready ", 0) == 0) commands.push_back(command.substr(9));
  }
  ASSERT_GT(commands.size(), 10u);
  std::map<std::string, std::string> help;  // subcommand -> its --help
  const std::regex option(R"((^|\s)(--[a-z][a-z0-9-]*))");
  for (const std::string& command : commands) {
    std::istringstream words(command);
    std::string sub, second;
    words >> sub;
    if (sub.rfind("--", 0) == 0) continue;  // `mpsready --version`
    std::string key = sub;
    if (sub == "rules") {
      words >> second;
      key += " " + second;
    }
    if (!help.count(key)) {
      const CliRun run = mpsready(key + " --help");
      help[key] = run.code == 0 ? run.out : "";
    }
    // A command forwarded to the runtime binary, which this build may not have: not checked here.
    if (help[key].empty()) continue;
    for (auto it = std::sregex_iterator(command.begin(), command.end(), option); it != std::sregex_iterator(); ++it) {
      const std::string flag = (*it)[2];
      EXPECT_NE(help[key].find(flag), std::string::npos) << "README: `mpsready " << command << "`: " << flag
                                                         << " is not an option of `mpsready " << key << "`";
    }
  }
}

}  // namespace mpsready::testing
