#include "binary/elf_dynamic.h"

#if MPSREADY_NO_LIBELF
namespace mpsready {
ElfDynamic read_elf_dynamic(int /*fd*/) {
  ElfDynamic out;
  out.error = "not read: this build of mpsready has no libelf (elfutils)";
  return out;
}
}  // namespace mpsready
#else
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace mpsready {
namespace {

// A header field as the file's byte order writes it (`bytes` wide, at `at`).
uint64_t field(const unsigned char* header, size_t at, size_t bytes, bool big_endian) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v = (v << 8) | header[at + (big_endian ? i : bytes - 1 - i)];
  return v;
}

// libelf sizes its tables by the counts the header claims (up to the file's size): the extended
// counts (e_phnum PN_XNUM, e_shnum 0 with section headers present) can claim millions, and no
// shared object Python loads needs them, so they are refused before libelf sees the file.
std::string extended_counts(int fd) {
  unsigned char h[64] = {};
  ssize_t n;
  do n = ::pread(fd, h, sizeof h, 0);
  while (n < 0 && errno == EINTR);
  if (n < 52) return "truncated ELF header";
  const bool wide = h[EI_CLASS] == ELFCLASS64, big = h[EI_DATA] == ELFDATA2MSB;
  if (wide && n < 64) return "truncated ELF header";
  const uint64_t phnum = field(h, wide ? 56 : 44, 2, big);
  const uint64_t shoff = field(h, wide ? 40 : 32, wide ? 8 : 4, big);
  const uint64_t shnum = field(h, wide ? 60 : 48, 2, big);
  if (phnum == PN_XNUM) return "more than 65,534 program headers (extended numbering); not read";
  if (shnum == 0 && shoff != 0) return "more than 65,535 sections (extended numbering); not read";
  return "";
}

struct ElfHandle {
  Elf* elf;
  ~ElfHandle() { elf_end(elf); }
};

std::string libelf_error(const char* what) {
  const char* message = elf_errmsg(-1);
  return std::string(what) + (message ? std::string(": ") + message : std::string());
}

}  // namespace

ElfDynamic read_elf_dynamic(int fd) {
  static std::once_flag version_once;
  std::call_once(version_once, [] { elf_version(EV_CURRENT); });
  ElfDynamic out;
  unsigned char magic[SELFMAG] = {};
  if (::pread(fd, magic, SELFMAG, 0) != SELFMAG || std::memcmp(magic, ELFMAG, SELFMAG) != 0) {
    out.error = "not an ELF file";
    return out;
  }
  out.elf = true;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    out.error = std::string("cannot be read: ") + std::strerror(errno);
    return out;
  }
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  if (std::string refused = extended_counts(fd); !refused.empty()) {
    out.error = "malformed ELF file (" + refused + ")";
    return out;
  }
  // ELF_C_READ: libelf reads what is asked for with pread, checked against the file's size.
  const ElfHandle handle{elf_begin(fd, ELF_C_READ, nullptr)};
  Elf* elf = handle.elf;
  if (!elf || elf_kind(elf) != ELF_K_ELF) {
    out.error = "malformed ELF file (" + libelf_error("not readable") + ")";
    return out;
  }
  size_t phnum = 0;
  if (elf_getphdrnum(elf, &phnum) != 0) {
    out.error = "malformed ELF file (" + libelf_error("program headers") + ")";
    return out;
  }
  std::vector<GElf_Phdr> loads;
  GElf_Phdr dynamic{};
  bool has_dynamic = false;
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(elf, static_cast<int>(i), &ph)) {
      out.error = "malformed ELF file (" + libelf_error("program header") + ")";
      return out;
    }
    if (ph.p_type == PT_LOAD) loads.push_back(ph);
    if (ph.p_type == PT_DYNAMIC && !has_dynamic) dynamic = ph, has_dynamic = true;
  }
  if (!has_dynamic) {
    out.error = "an ELF file without a dynamic section: nothing a Python import could load";
    return out;
  }
  const size_t entry_size = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
  if (entry_size == 0 || dynamic.p_offset > file_size) {
    out.error = "malformed ELF file (its dynamic section lies outside the file)";
    return out;
  }
  const uint64_t available = std::min<uint64_t>(dynamic.p_filesz, file_size - dynamic.p_offset);
  const size_t count = static_cast<size_t>(std::min<uint64_t>(available / entry_size, kMaxDynamicEntries));
  Elf_Data* data = elf_getdata_rawchunk(elf, static_cast<int64_t>(dynamic.p_offset), count * entry_size, ELF_T_DYN);
  if (!data) {
    out.error = "malformed ELF file (" + libelf_error("dynamic section") + ")";
    return out;
  }
  std::vector<uint64_t> needed;
  uint64_t strtab = 0, strsz = 0, soname = 0;
  bool has_strtab = false, has_soname = false;
  for (size_t i = 0; i < count; ++i) {
    GElf_Dyn dyn;
    if (!gelf_getdyn(data, static_cast<int>(i), &dyn) || dyn.d_tag == DT_NULL) break;
    if (dyn.d_tag == DT_NEEDED && needed.size() < kMaxNeededNames) needed.push_back(dyn.d_un.d_val);
    if (dyn.d_tag == DT_STRTAB) strtab = dyn.d_un.d_ptr, has_strtab = true;
    if (dyn.d_tag == DT_STRSZ) strsz = dyn.d_un.d_val;
    if (dyn.d_tag == DT_SONAME) soname = dyn.d_un.d_val, has_soname = true;
  }
  if (needed.empty() && !has_soname) return out;
  // DT_STRTAB is an address: the loadable segment that holds it gives its place in the file.
  uint64_t strtab_offset = 0;
  bool placed = false;
  for (const GElf_Phdr& load : loads)
    if (has_strtab && strtab >= load.p_vaddr && strtab - load.p_vaddr < load.p_filesz) {
      strtab_offset = load.p_offset + (strtab - load.p_vaddr);
      placed = true;
      break;
    }
  if (!placed) {
    out.error = "malformed ELF file (its string table lies in no loaded segment)";
    return out;
  }
  const auto name_at = [&](uint64_t offset, std::string& name) {
    if ((strsz && offset >= strsz) || strtab_offset > file_size || offset >= file_size - strtab_offset) return false;
    const uint64_t at = strtab_offset + offset;
    const uint64_t size = std::min<uint64_t>({kMaxLibraryNameBytes, file_size - at, strsz ? strsz - offset : UINT64_MAX});
    Elf_Data* bytes = elf_getdata_rawchunk(elf, static_cast<int64_t>(at), size, ELF_T_BYTE);
    if (!bytes || !bytes->d_buf) return false;
    const char* text = static_cast<const char*>(bytes->d_buf);
    const void* end = std::memchr(text, '\0', bytes->d_size);
    if (!end) return false;
    name.assign(text, static_cast<const char*>(end));
    return true;
  };
  for (uint64_t offset : needed) {
    std::string name;
    if (!name_at(offset, name)) {
      out.error = "malformed ELF file (a needed library's name lies outside its string table)";
      return out;
    }
    out.needed.push_back(std::move(name));
  }
  if (has_soname && !name_at(soname, out.soname)) out.soname.clear();
  return out;
}

}  // namespace mpsready
#endif  // MPSREADY_NO_LIBELF
