#pragma once
// Reads one file of the scanned repository: never through a symbolic link (it may have been
// swapped in since the walk), never more than the size limit.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace mpsready {

struct ReadResult {
  std::optional<std::string> bytes;
  std::string error;  // set when bytes is empty
};

ReadResult read_repository_file(const std::filesystem::path& path, uintmax_t max_size);

// `relative` below `root`, no component of it a link (see open_beneath.h); the same checks.
ReadResult read_file_beneath(const std::filesystem::path& root, std::string_view relative, uintmax_t max_size);

// Reads an open descriptor (and closes it): a regular file within the size limit, or an error.
ReadResult read_open_file(int fd, uintmax_t max_size);

}  // namespace mpsready
