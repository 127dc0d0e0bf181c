#pragma once
// A minimal ELF64 shared object written byte by byte: one PT_LOAD segment over the whole file,
// one PT_DYNAMIC segment, a string table and the dynamic entries (DT_NEEDED per library,
// DT_STRTAB, DT_STRSZ, DT_NULL); no section headers, which a loader does not need. Enough for a
// reader of the dynamic section, built at test time so that no binary is committed and no CUDA
// or compiler is needed.
#include <cstdint>
#include <string>
#include <vector>

namespace mpsready::testing {

namespace minimal_elf_detail {
inline void put(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFF);
}
}  // namespace minimal_elf_detail

inline std::string minimal_shared_object(const std::vector<std::string>& needed) {
  using minimal_elf_detail::put;
  constexpr uint64_t kEhdr = 64, kPhdr = 56, kPhnum = 2;
  std::string strtab(1, '\0');
  std::vector<uint64_t> name_offsets;
  for (const std::string& lib : needed) {
    name_offsets.push_back(strtab.size());
    strtab += lib;
    strtab += '\0';
  }
  const uint64_t strtab_off = kEhdr + kPhdr * kPhnum;
  uint64_t dynamic_off = strtab_off + strtab.size();
  dynamic_off = (dynamic_off + 7) & ~uint64_t{7};
  const uint64_t dynamic_size = 16 * (needed.size() + 3);
  const uint64_t file_size = dynamic_off + dynamic_size;

  std::string out;
  out += std::string("\x7f" "ELF", 4);
  out += '\x02';  // ELFCLASS64
  out += '\x01';  // little endian
  out += '\x01';  // EV_CURRENT
  out += std::string(9, '\0');
  put(out, 3, 2);     // ET_DYN
  put(out, 62, 2);    // EM_X86_64
  put(out, 1, 4);     // e_version
  put(out, 0, 8);     // e_entry
  put(out, kEhdr, 8);  // e_phoff
  put(out, 0, 8);     // e_shoff
  put(out, 0, 4);     // e_flags
  put(out, kEhdr, 2);
  put(out, kPhdr, 2);
  put(out, kPhnum, 2);
  put(out, 64, 2);  // e_shentsize
  put(out, 0, 2);   // e_shnum
  put(out, 0, 2);   // e_shstrndx
  // PT_LOAD: the whole file at address 0 (so an address is its offset).
  put(out, 1, 4);
  put(out, 4, 4);  // PF_R
  put(out, 0, 8);
  put(out, 0, 8);
  put(out, 0, 8);
  put(out, file_size, 8);
  put(out, file_size, 8);
  put(out, 0x1000, 8);
  // PT_DYNAMIC
  put(out, 2, 4);
  put(out, 6, 4);  // PF_R | PF_W
  put(out, dynamic_off, 8);
  put(out, dynamic_off, 8);
  put(out, dynamic_off, 8);
  put(out, dynamic_size, 8);
  put(out, dynamic_size, 8);
  put(out, 8, 8);
  out += strtab;
  out.resize(dynamic_off, '\0');
  for (uint64_t offset : name_offsets) {
    put(out, 1, 8);  // DT_NEEDED
    put(out, offset, 8);
  }
  put(out, 5, 8);  // DT_STRTAB
  put(out, strtab_off, 8);
  put(out, 10, 8);  // DT_STRSZ
  put(out, strtab.size(), 8);
  put(out, 0, 8);  // DT_NULL
  put(out, 0, 8);
  return out;
}

}  // namespace mpsready::testing
