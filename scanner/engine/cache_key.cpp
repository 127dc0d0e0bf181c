#include "engine/cache_key.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

#include "engine/file_reader.h"
#include "engine/sha256.h"

namespace mpsready {

namespace fs = std::filesystem;

std::string file_fingerprint(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(file, ec))) return "";
  std::ifstream in(file, std::ios::binary);
  if (!in) return "";
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return hex(sha256(bytes));
}

std::string file_fingerprint_beneath(const fs::path& root, const std::string& relative) {
  const ReadResult read = read_file_beneath(root, relative, uintmax_t{1} << 30);
  return read.bytes ? hex(sha256(*read.bytes)) : "";
}

std::string tree_fingerprint(const fs::path& dir) {
  std::vector<std::pair<std::string, fs::path>> files;
  std::error_code ec;
  // The iterator keeps its own stack of open directories; it does not enter linked ones.
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::error_code sec;
    if (it->is_regular_file(sec) && !it->is_symlink(sec))
      files.emplace_back(it->path().lexically_relative(dir).generic_string(), it->path());
  }
  std::sort(files.begin(), files.end());
  Sha256Pieces h;
  for (const auto& [relative, absolute] : files) h.add(relative).add(file_fingerprint(absolute));
  return hex(h.finish());
}

}  // namespace mpsready
