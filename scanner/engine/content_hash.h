#pragma once
// A fast non-cryptographic 64-bit hash (wyhash-style, 16 bytes per step folded through a
// 64x64->128-bit multiply). It is no defence against a chosen collision: with its public constants,
// one crafted 48-byte block zeroes its state, so two different files of one length can hash alike.
// Hence it is used only where nobody gains from a collision: the scan cache's trailing checksum,
// which catches a torn or damaged cache file (a file that anyone able to write the cache
// directory could rewrite whole anyway) and is computed over tens of MB on every warm scan.
// Anything that identifies content from the scanned repository uses SHA-256 (engine/sha256.h).
#include <cstdint>
#include <string_view>

namespace mpsready {

uint64_t content_hash(std::string_view bytes, uint64_t seed = 0);

}  // namespace mpsready
