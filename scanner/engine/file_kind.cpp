#include "engine/file_kind.h"

namespace mpsready {
namespace {
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
}  // namespace

std::optional<FileKind> classify_file(std::string_view filename) {
  if (ends_with(filename, ".py") || ends_with(filename, ".pyi")) return FileKind::python;
  if (ends_with(filename, ".ipynb")) return FileKind::notebook;
  return std::nullopt;
}

}  // namespace mpsready
