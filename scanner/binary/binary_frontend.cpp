#include "binary/binary_frontend.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "binary/elf_dynamic.h"
#include "core/source_text.h"
#include "engine/repo_walker.h"
#include "model/extension_sources.h"
#include "rules/message_template.h"
#include "rules/param_reader.h"

namespace mpsready {
namespace {

constexpr std::string_view kNeeded = "needed ";

// A library name as one line of text: control bytes (a newline in a crafted name) become '?'.
std::string one_line(std::string_view name) {
  std::string out(name);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return out;
}

std::vector<CompiledBinaryRule> compile_rules(const RuleSet& rules) {
  std::vector<CompiledBinaryRule> out;
  for (const Rule& rule : rules.rules()) {
    if (rule.language != "binary") continue;
    CompiledBinaryRule compiled{&rule, {}};
    for (const MatcherSpec& spec : rule.matchers) {
      const ParamReader reader(spec.params, rule, spec.kind);
      if (spec.kind != "binary.needed") reader.fail("is not a matcher kind of language binary (binary.needed)");
      reader.allow_only({"libraries"});
      for (std::string& prefix : reader.strings("libraries")) compiled.library_prefixes.push_back(std::move(prefix));
      if (compiled.library_prefixes.empty()) reader.fail("\"libraries\" must name at least one library");
    }
    out.push_back(std::move(compiled));
  }
  return out;
}

class BinaryWorker final : public FrontendWorker {
 public:
  explicit BinaryWorker(const BinaryFrontend& frontend) : frontend_(frontend) {}

  void analyze(const WalkedFile& file, std::string_view bytes, FileOutcome& out) override {
    out.scanned = true;
    std::vector<std::string_view> needed;
    for (size_t at = 0; at < bytes.size();) {
      const size_t eol = std::min(bytes.find('\n', at), bytes.size());
      const std::string_view line = bytes.substr(at, eol - at);
      if (line.substr(0, kNeeded.size()) == kNeeded) needed.push_back(line.substr(kNeeded.size()));
      at = eol + 1;
    }
    const size_t slash = file.path.rfind('/');
    const std::string name = file.path.substr(slash == std::string::npos ? 0 : slash + 1);
    bool cuda = false;
    for (const CompiledBinaryRule& compiled : frontend_.rules()) {
      std::vector<std::string_view> matched;
      for (std::string_view lib : needed)
        for (const std::string& prefix : compiled.library_prefixes)
          if (lib.substr(0, prefix.size()) == prefix) {
            matched.push_back(lib);
            break;
          }
      if (matched.empty()) continue;
      cuda = true;
      std::string all;
      for (std::string_view lib : matched) all += (all.empty() ? "" : ", ") + std::string(lib);
      const Rule& rule = *compiled.rule;
      const std::map<std::string, std::string> vars = {
          {"file", name}, {"library", std::string(matched.front())}, {"libraries", all}};
      Finding f;
      f.rule = rule.id;
      f.category = rule.category;
      f.path = file.path;
      f.mechanical = rule.mechanical;
      f.mode = "binary";
      f.message = fill_template(rule.message, vars);
      f.fix = fill_template(rule.fix, vars);
      // A binary has no lines: the finding sits at its start, the snippet says what was read.
      f.location = {1, 1, 1, 1, 0};
      f.snippet = shorten_utf8("needs " + all, 240);
      out.findings.push_back(std::move(f));
    }
    if (!cuda) return;
    // The module Python imports from this file is an extension built with CUDA, from this file.
    ExtensionFact ext;
    ext.path = file.path;
    ext.line = 1;
    ext.name = extension_module_of_file(file.path);
    ext.cuda = true;
    ext.sources = {file.path};
    out.facts.extensions.push_back(std::move(ext));
  }

 private:
  const BinaryFrontend& frontend_;
};

}  // namespace

std::string describe_dynamic_section(int fd, std::string& error) {
  const ElfDynamic dynamic = read_elf_dynamic(fd);
  if (!dynamic.error.empty()) {
    error = dynamic.error;
    return {};
  }
  std::string text;
  for (const std::string& lib : dynamic.needed) text += std::string(kNeeded) + one_line(lib) + "\n";
  if (!dynamic.soname.empty()) text += "soname " + one_line(dynamic.soname) + "\n";
  return text;
}

BinaryFrontend::BinaryFrontend(const RuleSet& rules) : rules_(compile_rules(rules)) {}

bool BinaryFrontend::wants(std::string_view path) const {
  return !rules_.empty() && (path.ends_with(".so") || path.ends_with(".pyd"));
}

std::unique_ptr<FrontendWorker> BinaryFrontend::make_worker() const { return std::make_unique<BinaryWorker>(*this); }

ReadResult BinaryFrontend::read_part(const std::filesystem::path& absolute, uintmax_t max_size) const {
  ReadResult result;
  const int fd = ::open(absolute.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    result.error = errno == ELOOP ? "became a symbolic link during the scan; not followed"
                                  : std::string("cannot be read: ") + std::strerror(errno);
    return result;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    result.error = "not a regular file";
  } else if (static_cast<uintmax_t>(st.st_size) > max_size) {
    result.error = "grew beyond the size limit during the scan";
  } else {
    char magic[2] = {};
    if (::pread(fd, magic, 2, 0) == 2 && magic[0] == 'M' && magic[1] == 'Z') {
      result.error = "a Windows extension binary (PE): the DLLs it imports are not read";
    } else {
      std::string error;
      std::string text = describe_dynamic_section(fd, error);
      if (error.empty()) result.bytes = std::move(text);
      else result.error = std::move(error);
    }
  }
  ::close(fd);
  return result;
}

}  // namespace mpsready
