// The scan cache against the scanned repository's own content: a file crafted to collide with an
// earlier clean file under a fast 64-bit hash must not be read as that file. Before the cache
// identified files by size and SHA-256, a pull request whose second push replaced a clean file by
// a same-length one importing flash_attn (with one crafted comment block) failed `--diff
// --fail-on stay-on-linux` cold and passed with the cache restored from the first push.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "engine/content_hash.h"
#include "engine/content_identity.h"
#include "engine/scan_cache.h"
#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

// How the collision is built. content_hash (engine/content_hash.cpp) reads an input longer than
// 48 bytes in 48-byte stripes of six little-endian words w0..w5, through three lanes:
//   h  = mix(w0 ^ kP1, w1 ^ h),  h1 = mix(w2 ^ kP2, w3 ^ h1),  h2 = mix(w4 ^ kP3, w5 ^ h2)
// where mix(a, b) xors the two halves of the 128-bit product a * b. A stripe whose w0, w2 and w4
// are the public constants kP1, kP2 and kP3 multiplies every lane by zero: all three become 0,
// whatever was read before. The final value depends only on what follows and on the length, so
// two files of one length that differ only before such a stripe (at an offset that is a multiple
// of 48, with at least one byte after it) hash alike. The constants' bytes hold no NUL, CR or LF:
// the stripe sits inside a comment, legal in a Python file with a Latin-1 coding line.
constexpr uint64_t kP1 = 0xe7037ed1a0b428dbull;
constexpr uint64_t kP2 = 0x8ebc6af09c88c6e3ull;
constexpr uint64_t kP3 = 0x589965cc75374cc3ull;

std::string little_endian(uint64_t v) {
  std::string out;
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
  return out;
}

std::string zeroing_stripe() {
  // w1, w3 and w5 are free: plain letters.
  return little_endian(kP1) + "anything" + little_endian(kP2) + "whatever" + little_endian(kP3) + "you like";
}

// `head` (whole lines), then a comment that pads it to `length` (a multiple of 48), ending in "# "
// so that the stripe which follows is part of that comment.
std::string padded(const std::string& head, size_t length) {
  std::string out = head;
  const size_t filler = length - head.size() - 2;  // before the final "# "
  out += "#" + std::string(filler - 2, '-') + "\n# ";
  return out;
}

// Two Python files of one length, one clean, one importing flash_attn, that content_hash cannot
// tell apart.
std::pair<std::string, std::string> colliding_files() {
  const std::string clean_head = "# -*- coding: latin-1 -*-\nimport torch\n\nx = torch.ones(2)\n";
  const std::string poisoned_head = "# -*- coding: latin-1 -*-\nimport flash_attn\n";
  const size_t length = 48 * 2;
  const std::string tail = "\nprint('ready')\n";
  return {padded(clean_head, length) + zeroing_stripe() + tail, padded(poisoned_head, length) + zeroing_stripe() + tail};
}

int sh(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

bool git_commit_all(const TempDir& dir, const std::string& message) {
  const std::string git = "git -C " + quote(dir.path().string()) +
                          " -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false";
  if (!fs::exists(dir.path() / ".git") && sh(git + " init -q") != 0) return false;
  return sh(git + " add -A") == 0 && sh(git + " commit -q --no-verify -m " + quote(message)) == 0;
}

}  // namespace

// The premise: the two files differ, have one length, and collide under the fast hash.
TEST(CachePoisoning, TheCraftedFilesCollideUnderTheFastHashOnly) {
  const auto [clean, poisoned] = colliding_files();
  ASSERT_EQ(clean.size(), poisoned.size());
  ASSERT_NE(clean, poisoned);
  EXPECT_EQ(clean.find('\0'), std::string::npos);
  EXPECT_EQ(poisoned.find_first_of(std::string("\r\0", 2), 0), std::string::npos);
  EXPECT_EQ(content_hash(clean), content_hash(poisoned));
  EXPECT_NE(identify_content(clean), identify_content(poisoned));

  // The cache keeps the clean file's outcome apart from the poisoned file's bytes.
  TempDir dir;
  const std::string path = "model.py";
  FileOutcome clean_outcome;
  clean_outcome.scanned = true;
  {
    ScanCache cache(dir.path(), "k", dir.path() / "repo");
    ASSERT_TRUE(cache.save({{&path, identify_content(clean), &clean_outcome}}));
  }
  ScanCache cache(dir.path(), "k", dir.path() / "repo");
  cache.load();
  EXPECT_TRUE(cache.lookup(path, identify_content(clean)));
  EXPECT_FALSE(cache.lookup(path, identify_content(poisoned)));
}

// The case as CI meets it: a cache filled by the scan of the first push, restored for the second.
TEST(CachePoisoning, ACollidingFileIsNotReadFromTheCacheInDiffMode) {
  const auto [clean, poisoned] = colliding_files();
  TempDir repo, cache, cold_cache;
  repo.write("model.py", clean);
  repo.write("README.md", "A model.\n");
  ASSERT_TRUE(git_commit_all(repo, "first")) << "git is needed (scripts/bootstrap installs it)";
  const std::string root = quote(repo.path().string());
  const std::string with_cache = " --cache " + quote(cache.path().string());
  const CliRun first = mpsready("scan " + root + " --fail-on stay-on-linux" + with_cache, false);
  ASSERT_EQ(first.code, 0) << first.out;

  repo.write("model.py", poisoned);
  ASSERT_TRUE(git_commit_all(repo, "second"));
  const std::string diff = "scan " + root + " --format json --diff HEAD~1 --fail-on stay-on-linux";
  const CliRun cold = mpsready(diff + " --cache " + quote(cold_cache.path().string()), false);
  EXPECT_EQ(cold.code, 1) << cold.out;
  EXPECT_NE(cold.out.find("flash_attn"), std::string::npos) << cold.out;
  const CliRun warm = mpsready(diff + with_cache, false);
  EXPECT_EQ(warm.code, 1) << "the cache read the poisoned file as the clean one\n" << warm.out;
  EXPECT_EQ(warm.out, cold.out);
  // And once more, from the cache the last scan wrote.
  const CliRun again = mpsready(diff + with_cache, false);
  EXPECT_EQ(again.code, 1) << again.out;
  EXPECT_EQ(again.out, cold.out);
}

}  // namespace mpsready::testing
