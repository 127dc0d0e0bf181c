#pragma once
// The only file system Clang is given: the files below the scanned root, read on demand through
// the project's own reader (see engine/open_beneath.h): regular files within a size limit, no
// component a symbolic link. Nothing else exists for Clang: no host header, no device, no FIFO,
// nothing outside the root, however an #include or a flag names it. Built without RTTI, like
// Clang (only clang_parse.cpp includes this header).
#include <cstdint>
#include <filesystem>

#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace mpsready {

// `root`: absolute and canonical (paths Clang asks for are compared with it lexically, after
// removing `.` and `..`). Directories below it can be looked up but not listed.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> make_root_file_system(const std::filesystem::path& root,
                                                                      uintmax_t max_file_size);

}  // namespace mpsready
