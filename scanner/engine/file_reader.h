#pragma once
// Reads one file of the scanned repository: never through a symbolic link (it may have been
// swapped in since the walk), never more than the size limit.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace mpsready {

struct ReadResult {
  std::optional<std::string> bytes;
  std::string error;  // set when bytes is empty
};

ReadResult read_repository_file(const std::filesystem::path& path, uintmax_t max_size);

}  // namespace mpsready
