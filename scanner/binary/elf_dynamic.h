#pragma once
// The libraries an ELF shared object asks the dynamic loader for (DT_NEEDED in its dynamic
// section), read with elfutils' libelf from an open file: only the ELF header, the program headers,
// the dynamic segment and the needed names' bytes are read (pread through libelf, nothing mapped),
// every offset checked against the file's size. A malformed file is an error for that file alone.
#include <string>
#include <vector>

namespace mpsready {

struct ElfDynamic {
  bool elf = false;                 // the file starts with the ELF magic
  std::vector<std::string> needed;  // DT_NEEDED names, in the order of the dynamic section
  std::string soname;               // DT_SONAME, if any
  std::string error;                // why the dynamic section could not be read ("" when it was)
};

// Caps: a real shared object needs a few dozen entries and short names.
inline constexpr size_t kMaxDynamicEntries = 1 << 16;
inline constexpr size_t kMaxNeededNames = 1024;
inline constexpr size_t kMaxLibraryNameBytes = 4096;

// `fd`: a regular file open for reading (not closed here).
ElfDynamic read_elf_dynamic(int fd);

}  // namespace mpsready
