#pragma once
// Which front end reads a file, decided by its name.
#include <optional>
#include <string_view>

namespace mpsready {

enum class FileKind { python, notebook };

std::optional<FileKind> classify_file(std::string_view filename);

}  // namespace mpsready
