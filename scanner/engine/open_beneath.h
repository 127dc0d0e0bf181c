#pragma once
// Opens a path below the scanned root one component at a time, never through a symbolic link:
// each directory with openat(O_NOFOLLOW | O_DIRECTORY) from the one before, the last component
// with O_NOFOLLOW | O_NONBLOCK (a FIFO then opens without waiting for a writer, and its caller
// refuses it as not a regular file). A link anywhere on the way, `..`, or an absolute path fails.
#include <filesystem>
#include <string_view>

namespace mpsready {

// The open descriptor (the caller closes it), or -1 with `error` set to an errno value (ELOOP:
// a component is a symbolic link; EXDEV: the path would leave the root).
// `directory`: the last component must be a directory (else: anything but a link).
int open_beneath(const std::filesystem::path& root, std::string_view relative, bool directory, int& error);

}  // namespace mpsready
