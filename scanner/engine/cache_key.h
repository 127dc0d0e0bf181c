#pragma once
// Pieces of the scan cache's key: fingerprints of the inputs, besides a file's own bytes, that
// decide what its analysis yields. Fingerprints are SHA-256 (hex): a compile_commands.json comes
// from the scanned repository, so a fast hash would let it pass for another.
#include <filesystem>
#include <string>

namespace mpsready {

// Every regular file under `dir` (paths relative to it, and contents), in sorted order; links are
// not followed. Over-inclusive on purpose (a rule's docs and fixtures count too): a stale cache
// would be a wrong answer, a missed one only a slower scan.
std::string tree_fingerprint(const std::filesystem::path& dir);

// A regular file's contents, by SHA-256 ("" when there is none: absent, a link, unreadable).
std::string file_fingerprint(const std::filesystem::path& file);

// The same for `relative` below `root`, reached through no link (the way the C++ front end opens
// the repository's compile_commands.json).
std::string file_fingerprint_beneath(const std::filesystem::path& root, const std::string& relative);

}  // namespace mpsready
