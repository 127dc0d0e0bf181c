#include "util/zip_entries.h"

#include <cstdint>
#include <fstream>

namespace mpsready {

namespace {

uint32_t le32(const unsigned char* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
uint16_t le16(const unsigned char* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
uint64_t le64(const unsigned char* p) { return uint64_t(le32(p)) | uint64_t(le32(p + 4)) << 32; }

bool read_at(std::ifstream& in, uint64_t offset, unsigned char* out, size_t size) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(size));
  return static_cast<size_t>(in.gcount()) == size;
}

}  // namespace

ZipListing list_zip_entries(const std::string& path) {
  ZipListing result;
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    result.error = "cannot be opened";
    return result;
  }
  const uint64_t size = static_cast<uint64_t>(in.tellg());
  // The end-of-central-directory record is in the last 22 + 65535 (comment) bytes.
  const uint64_t tail_size = std::min<uint64_t>(size, 22 + 65535);
  std::vector<unsigned char> tail(tail_size);
  if (!read_at(in, size - tail_size, tail.data(), tail_size)) {
    result.error = "cannot be read";
    return result;
  }
  int64_t eocd = -1;
  for (int64_t i = static_cast<int64_t>(tail_size) - 22; i >= 0; --i) {
    if (le32(&tail[i]) == 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    result.error = "the zip archive has no end-of-central-directory record (the file is truncated or corrupt)";
    return result;
  }
  uint64_t entries = le16(&tail[eocd + 10]);
  uint64_t cd_size = le32(&tail[eocd + 12]);
  uint64_t cd_offset = le32(&tail[eocd + 16]);
  // ZIP64 (archives over 4 GiB, which large models produce): the locator sits just before.
  if ((cd_offset == 0xffffffffu || entries == 0xffff) && eocd >= 20 && le32(&tail[eocd - 20]) == 0x07064b50) {
    const uint64_t z64 = le64(&tail[eocd - 20 + 8]);
    unsigned char rec[56];
    if (!read_at(in, z64, rec, sizeof rec) || le32(rec) != 0x06064b50) {
      result.error = "the ZIP64 end-of-central-directory record is missing (the file is truncated or corrupt)";
      return result;
    }
    entries = le64(rec + 32);
    cd_size = le64(rec + 40);
    cd_offset = le64(rec + 48);
  }
  if (cd_offset > size || cd_size > size - cd_offset) {
    result.error = "the zip central directory lies beyond the end of the file (the file is truncated or corrupt)";
    return result;
  }
  std::vector<unsigned char> cd(cd_size);
  if (!read_at(in, cd_offset, cd.data(), cd_size)) {
    result.error = "the zip central directory cannot be read (the file is truncated)";
    return result;
  }
  size_t pos = 0;
  for (uint64_t i = 0; i < entries; ++i) {
    if (pos + 46 > cd.size() || le32(&cd[pos]) != 0x02014b50) {
      result.error = "the zip central directory is corrupt";
      return result;
    }
    const size_t name_len = le16(&cd[pos + 28]), extra_len = le16(&cd[pos + 30]), comment_len = le16(&cd[pos + 32]);
    if (pos + 46 + name_len > cd.size()) {
      result.error = "the zip central directory is corrupt";
      return result;
    }
    result.names.emplace_back(reinterpret_cast<const char*>(&cd[pos + 46]), name_len);
    pos += 46 + name_len + extra_len + comment_len;
  }
  result.ok = true;
  return result;
}

}  // namespace mpsready
