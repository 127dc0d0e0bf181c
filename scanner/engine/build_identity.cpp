#include "engine/build_identity.h"

#include <cstdint>
#include <cstring>

#if defined(__linux__)
#include <elf.h>
#include <link.h>
#endif

namespace mpsready {

#if defined(__linux__)
namespace {

// Reads the notes of the first object dl_iterate_phdr reports, which is the executable itself,
// from memory the loader already mapped: nothing is opened or read from disk.
int find_build_id(struct dl_phdr_info* info, size_t, void* out) {
  auto* id = static_cast<std::string*>(out);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
    size_t left = ph.p_memsz;
    while (left >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) note;
      std::memcpy(&note, p, sizeof note);
      const size_t name_size = (note.n_namesz + 3u) & ~size_t{3};
      const size_t desc_size = (note.n_descsz + 3u) & ~size_t{3};
      const size_t whole = sizeof note + name_size + desc_size;
      if (whole > left) break;
      const unsigned char* name = p + sizeof note;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        static const char digits[] = "0123456789abcdef";
        const unsigned char* desc = name + name_size;
        for (size_t b = 0; b < note.n_descsz; ++b) {
          id->push_back(digits[desc[b] >> 4]);
          id->push_back(digits[desc[b] & 15]);
        }
        return 1;
      }
      p += whole;
      left -= whole;
    }
  }
  return 1;  // only the executable is of interest, found or not
}

}  // namespace

std::string executable_build_id() {
  static const std::string id = [] {
    std::string found;
    dl_iterate_phdr(find_build_id, &found);
    return found;
  }();
  return id;
}
#else
std::string executable_build_id() { return {}; }
#endif

}  // namespace mpsready
