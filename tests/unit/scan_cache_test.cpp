// The scan cache: its binary form round-trips every field, rejects what it must not trust, and
// a pipeline scan with it reuses unchanged files and re-analyses changed ones.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>

#include "engine/build_identity.h"
#include "engine/content_hash.h"
#include "engine/content_identity.h"
#include "engine/outcome_codec.h"
#include "engine/scan_cache.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

FileOutcome sample_outcome(const std::string& path) {
  FileOutcome o;
  o.scanned = true;
  o.parsed = true;
  Finding f;
  f.rule = "py-tensor-dot-cuda";
  f.category = "portable";
  // The site as a front end records it, every field set (the impact is the assessment's).
  f.site.own = Impact::portable;
  f.site.guarded_own = Impact::info;
  f.site.guarded = true;
  f.site.cap = Impact::info;
  f.site.cap_note = "; a note";
  f.site.limit = Impact::portable;
  f.path = path;
  f.location = {3, 5, 3, 17, 2, 40, 7};
  f.message = "`x.cuda()` moves \xC3\xA9 to CUDA";
  f.fix = "use .to(device)";
  f.snippet = "    y = x.cuda()";
  f.guarded = true;
  f.mechanical = true;
  f.mode = "";
  f.start_byte = 40;
  f.end_byte = 52;
  o.findings.push_back(f);
  o.errors.push_back({path, "1 parse error"});
  o.skipped.push_back({path, "binary"});
  o.facts.imports.push_back({path, 1, 2, "flash_attn.bert_padding", true});
  o.facts.python_files.push_back(path);
  o.facts.dependencies.push_back({path, 4, 1, "dep-rule", "flash-attn", {"flash_attn", "fa"}, true});
  o.facts.extensions.push_back({path, 9, "pkg._C", true, {"csrc/a.cu", "csrc/b.cpp"}});
  o.facts.cpp_units.push_back({path, true, false});
  // Every kind of fact carries a value here, so equal bytes after a round trip mean every field
  // was written and read back.
  CppOpFact op;
  op.line = 12;
  op.name = "nms";
  op.function = "nms_cpu";
  op.key = "CPU";
  op.schema_only = true;
  op.cuda_only = true;
  op.lambda_cpu = false;
  o.facts.cpp_units[0].ops.push_back(op);
  o.facts.cpp_units[0].functions.push_back({"nms_cpu", false, "nms_impl", {"check_boxes", "nms_impl"}});
  o.facts.cpp_units[0].device_impls.push_back({14, "nms_impl", "MPS", "nms_mps", true});
  ModuleFact module;
  module.path = path;
  module.main_line = 30;
  module.main_end_line = 34;
  module.cuda_only_raises = {7, 19};
  o.facts.modules.push_back(module);
  o.facts.evidence.push_back({path, 3, 2, "selects-mps", "torch.backends.mps.is_available()"});
  o.facts.entry_points.push_back({path, 5, "pkg.cli", "tools/train.py"});
  o.facts.packages.push_back({path, 6, "package-dir", "pkg=lib/pkg"});
  o.facts.distributed.push_back({path, 8, "stub-table", "BACKENDS", "\"mps\": None"});
  return o;
}

std::string encoded(const FileOutcome& o) {
  std::string out;
  encode_outcome(o, out);
  return out;
}

}  // namespace

TEST(ContentHash, StableAndSensitiveToEveryByte) {
  EXPECT_EQ(content_hash("import torch\n"), content_hash("import torch\n"));
  std::string text(1000, 'a');
  const uint64_t base = content_hash(text);
  for (size_t i : {0u, 15u, 16u, 47u, 48u, 500u, 999u}) {
    std::string changed = text;
    changed[i] = 'b';
    EXPECT_NE(content_hash(changed), base) << i;
  }
  EXPECT_NE(content_hash(""), content_hash(std::string(1, '\0')));
}

// FIPS 180-2's test vectors, the digest of a large input, and pieces that are not concatenated.
TEST(Sha256, KnownDigestsAndPiecesWithTheirLengths) {
  EXPECT_EQ(hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex(sha256(std::string(1000000, 'a'))), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_EQ(hex(sha256("abc"), 4), "ba7816bf");
  Sha256Pieces ab_c, a_bc;
  EXPECT_NE(hex(ab_c.add("ab").add("c").finish()), hex(a_bc.add("a").add("bc").finish()));
  const ContentIdentity id = identify_content("import torch\n");
  EXPECT_EQ(id.size, 13u);
  EXPECT_EQ(id, identify_content("import torch\n"));
  EXPECT_FALSE(id == identify_content("import torch\r"));
}

// The cache key names the build: on Linux the linker's build ID of this very executable, read
// from its mapped notes, the same on every call and compared here with what readelf would print
// (the note's hex digits, 20 bytes for GNU ld's default sha1).
TEST(BuildIdentity, TheExecutableCarriesAGnuBuildId) {
#if defined(__linux__)
  const std::string id = executable_build_id();
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(id.size() % 2, 0u);
  EXPECT_GE(id.size(), 16u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  EXPECT_EQ(executable_build_id(), id);
  // What binutils reads from the file on disk (build-essential brings readelf).
  std::string notes;
  // /proc/self/exe read here, in this process: in the shell it would name readelf itself.
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  if (FILE* p = popen(("readelf -n '" + self + "' 2>/dev/null").c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) notes.append(buf, n);
    pclose(p);
  }
  ASSERT_NE(notes.find("Build ID"), std::string::npos) << "readelf printed no build ID";
  EXPECT_NE(notes.find("Build ID: " + id), std::string::npos) << notes;
#else
  GTEST_SKIP() << "no GNU build ID outside Linux";
#endif
}

TEST(OutcomeCodec, RoundTripsEveryField) {
  const FileOutcome o = sample_outcome("pkg/train.py");
  const auto back = decode_outcome(encoded(o), "pkg/train.py");
  ASSERT_TRUE(back);
  EXPECT_EQ(encoded(*back), encoded(o));  // the encoding covers every field, so equal bytes = equal outcomes
  const Finding& f = back->findings.at(0);
  EXPECT_EQ(f.message, o.findings[0].message);
  EXPECT_EQ(f.location.cell, 2);
  EXPECT_EQ(f.location.file_line, 40);
  EXPECT_EQ(f.location.file_column, 7);
  EXPECT_TRUE(f.guarded);
  EXPECT_EQ(f.end_byte, 52u);
  EXPECT_EQ(f.site.own, Impact::portable);
  EXPECT_EQ(f.site.guarded_own, Impact::info);
  EXPECT_EQ(f.site.cap, Impact::info);
  EXPECT_EQ(f.site.cap_note, "; a note");
  EXPECT_EQ(f.site.limit, Impact::portable);
  EXPECT_EQ(back->facts.extensions.at(0).sources.at(1), "csrc/b.cpp");
  EXPECT_EQ(back->facts.dependencies.at(0).modules.at(1), "fa");
  EXPECT_EQ(back->facts.cpp_units.at(0).ops.at(0).function, "nms_cpu");
  EXPECT_FALSE(back->facts.cpp_units.at(0).ops.at(0).lambda_cpu);
  EXPECT_FALSE(back->facts.cpp_units.at(0).functions.at(0).cpu);
  EXPECT_EQ(back->facts.cpp_units.at(0).functions.at(0).dispatches, "nms_impl");
  EXPECT_EQ(back->facts.cpp_units.at(0).functions.at(0).calls, (std::vector<std::string>{"check_boxes", "nms_impl"}));
  ASSERT_EQ(back->facts.cpp_units.at(0).device_impls.size(), 1u);
  EXPECT_EQ(back->facts.cpp_units.at(0).device_impls.at(0).line, 14);
  EXPECT_EQ(back->facts.cpp_units.at(0).device_impls.at(0).device, "MPS");
  EXPECT_EQ(back->facts.cpp_units.at(0).device_impls.at(0).function, "nms_mps");
  EXPECT_TRUE(back->facts.cpp_units.at(0).device_impls.at(0).cuda_only);
  EXPECT_EQ(back->facts.modules.at(0).cuda_only_raises, (std::vector<int>{7, 19}));
  EXPECT_EQ(back->facts.entry_points.at(0).script, "tools/train.py");
  EXPECT_EQ(back->facts.packages.at(0).text, "pkg=lib/pkg");
  EXPECT_EQ(back->facts.distributed.at(0).name, "BACKENDS");
}

TEST(OutcomeCodec, RejectsTruncatedForeignAndEscapingEntries) {
  const std::string bytes = encoded(sample_outcome("a.py"));
  for (size_t cut = 0; cut < bytes.size(); ++cut)
    EXPECT_FALSE(decode_outcome(std::string_view(bytes).substr(0, cut), "a.py")) << cut;
  EXPECT_FALSE(decode_outcome(bytes + "x", "a.py"));
  // An entry never speaks for another file.
  EXPECT_FALSE(decode_outcome(bytes, "b.py"));
  for (const char* source : {"/etc/passwd", "../outside.cu", "csrc/../../x.cu"}) {
    FileOutcome o = sample_outcome("a.py");
    o.facts.extensions[0].sources.push_back(source);
    EXPECT_FALSE(decode_outcome(encoded(o), "a.py")) << source;
    FileOutcome script = sample_outcome("a.py");
    script.facts.entry_points[0].script = source;  // a README command naming a file outside the root
    EXPECT_FALSE(decode_outcome(encoded(script), "a.py")) << source;
  }
}

TEST(ScanCache, SavesLoadsAndMatchesPathIdentityAndKey) {
  TempDir dir;
  const std::string path = "a.py";
  const FileOutcome o = sample_outcome(path);
  const ContentIdentity seven = identify_content("x = 7\n");
  {
    ScanCache cache(dir.path() / "cache", "key 1", dir.path());
    cache.load();
    EXPECT_FALSE(cache.lookup(path, seven));
    ASSERT_TRUE(cache.save({{&path, seven, &o}}));
    EXPECT_TRUE(cache.notes().empty());
  }
  ScanCache same(dir.path() / "cache", "key 1", dir.path());
  same.load();
  ASSERT_TRUE(same.lookup(path, seven));
  EXPECT_EQ(encoded(*same.lookup(path, seven)), encoded(o));
  EXPECT_FALSE(same.lookup(path, identify_content("x = 8\n")));  // the content changed
  EXPECT_FALSE(same.lookup("b.py", seven));                       // another file
  // The size and the digest must both match: one alone never stands for the bytes.
  ContentIdentity other_size = seven, other_digest = seven;
  ++other_size.size;
  other_digest.digest[31] ^= 1;
  EXPECT_FALSE(same.lookup(path, other_size));
  EXPECT_FALSE(same.lookup(path, other_digest));
  ASSERT_EQ(same.loaded().size(), 1u);
  EXPECT_EQ(same.loaded()[0].second, seven);
  ScanCache other_rules(dir.path() / "cache", "key 2", dir.path());
  other_rules.load();
  EXPECT_FALSE(other_rules.lookup(path, seven));
  // No temporary file is left behind.
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir.path() / "cache")) {
    ++files;
    EXPECT_EQ(e.path().extension(), ".mpsready-cache") << e.path();
  }
  EXPECT_EQ(files, 1u);
}

TEST(ScanCache, ACorruptFileIsIgnoredWithANote) {
  TempDir dir;
  const std::string path = "a.py";
  const FileOutcome o = sample_outcome(path);
  const ContentIdentity one = identify_content("1");
  ScanCache writer(dir.path(), "k", dir.path() / "repo");
  ASSERT_TRUE(writer.save({{&path, one, &o}}));
  const std::string good = read_text(writer.file());
  ASSERT_EQ(good.rfind(kCacheFormatLine, 0), 0u);
  std::string bytes = good;
  bytes[bytes.size() / 2] ^= 0x20;  // one flipped bit in the middle
  std::ofstream(writer.file(), std::ios::binary | std::ios::trunc) << bytes;
  ScanCache reader(dir.path(), "k", dir.path() / "repo");
  reader.load();
  EXPECT_FALSE(reader.lookup(path, one));
  EXPECT_TRUE(reader.loaded().empty());
  ASSERT_EQ(reader.notes().size(), 1u);
  EXPECT_NE(reader.notes()[0].find("checksum mismatch"), std::string::npos) << reader.notes()[0];

  // A torn file (cut anywhere) is never read.
  for (size_t cut : {good.size() - 1, good.size() - 8, good.size() / 2, kCacheFormatLine.size() + 3}) {
    std::ofstream(writer.file(), std::ios::binary | std::ios::trunc) << good.substr(0, cut);
    ScanCache torn(dir.path(), "k", dir.path() / "repo");
    torn.load();
    EXPECT_FALSE(torn.lookup(path, one)) << cut;
    EXPECT_EQ(torn.notes().size(), 1u) << cut;
  }

  std::ofstream(writer.file(), std::ios::binary | std::ios::trunc) << "not a cache";
  ScanCache garbage(dir.path(), "k", dir.path() / "repo");
  garbage.load();
  EXPECT_FALSE(garbage.lookup(path, one));
  EXPECT_EQ(garbage.notes().size(), 1u);
}

// A cache written by an older mpsready (format 1: a 64-bit fast hash per file) is ignored with
// a note naming its format, whatever it holds.
TEST(ScanCache, AFileOfAnotherFormatIsIgnoredWithANote) {
  TempDir dir;
  const std::string path = "a.py";
  const FileOutcome o = sample_outcome(path);
  ScanCache writer(dir.path(), "k", dir.path() / "repo");
  ASSERT_TRUE(writer.save({{&path, identify_content("1"), &o}}));
  std::string bytes = read_text(writer.file());
  ASSERT_EQ(bytes.rfind(kCacheFormatLine, 0), 0u);
  bytes.replace(0, kCacheFormatLine.size(), "mpsready-cache 1\n");
  std::ofstream(writer.file(), std::ios::binary | std::ios::trunc) << bytes;
  ScanCache reader(dir.path(), "k", dir.path() / "repo");
  reader.load();
  EXPECT_FALSE(reader.lookup(path, identify_content("1")));
  EXPECT_TRUE(reader.loaded().empty());
  ASSERT_EQ(reader.notes().size(), 1u);
  EXPECT_NE(reader.notes()[0].find("(cache format 1, this version reads format 2)"), std::string::npos)
      << reader.notes()[0];
  // The next save replaces it with a file of the current format.
  ASSERT_TRUE(reader.save({{&path, identify_content("1"), &o}}));
  ScanCache again(dir.path(), "k", dir.path() / "repo");
  again.load();
  EXPECT_TRUE(again.notes().empty());
  EXPECT_TRUE(again.lookup(path, identify_content("1")));
}

TEST(ScanCache, TheDirectoryKeepsOnlyTheMostRecentCaches) {
  TempDir dir;
  const std::string path = "a.py";
  const FileOutcome o = sample_outcome(path);
  for (size_t i = 0; i < kMaxCacheFiles + 3; ++i) {
    ScanCache cache(dir.path(), "k", dir.path() / ("repo" + std::to_string(i)));
    ASSERT_TRUE(cache.save({{&path, identify_content("1"), &o}}));
  }
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, kMaxCacheFiles);
  // The one just written is among those kept.
  ScanCache last(dir.path(), "k", dir.path() / ("repo" + std::to_string(kMaxCacheFiles + 2)));
  last.load();
  EXPECT_TRUE(last.lookup(path, identify_content("1")));
}

TEST(ScanCache, APipelineScanReusesUnchangedFilesOnly) {
  TempDir repo, cache_dir;
  repo.write("train.py", "import torch\nmodel = model.cuda()\n");
  repo.write("util.py", "import torch\nx = torch.zeros(3).cuda()\n");
  repo.write("k.cu", "__global__ void k(float* x) {}\nvoid go(float* x) { k<<<1, 1>>>(x); }\n");
  repo.write("requirements.txt", "torch\nflash-attn==2.5\n");
  const RuleSet& rules = bundled_rules();
  const Pipeline pipeline(rules);
  ScanOptions options;
  options.cache_dir = cache_dir.path();
  options.cache_key = "test";
  const ScanResult cold = pipeline.scan(repo.path(), options);
  EXPECT_EQ(cold.cache_hits, 0u);
  ASSERT_FALSE(cold.findings.empty());
  const ScanResult warm = pipeline.scan(repo.path(), options);
  EXPECT_EQ(warm.cache_hits, 4u);
  EXPECT_TRUE(warm.cache_notes.empty());
  ASSERT_EQ(warm.findings.size(), cold.findings.size());
  for (size_t i = 0; i < cold.findings.size(); ++i) {
    EXPECT_EQ(warm.findings[i].path, cold.findings[i].path);
    EXPECT_EQ(warm.findings[i].message, cold.findings[i].message);
  }
  repo.write("util.py", "import torch\n");
  const ScanResult changed = pipeline.scan(repo.path(), options);
  EXPECT_EQ(changed.cache_hits, 3u);
  for (const Finding& f : changed.findings) EXPECT_NE(f.path, "util.py");
}

// An unchanged rescan leaves the cache file alone; a rescan after a change writes a file whose
// bytes are those a cold scan of the changed tree writes (reused entries are copied verbatim).
TEST(ScanCache, AnUnchangedRescanDoesNotRewriteAndAChangedOneMatchesACold) {
  TempDir repo, cache_dir, fresh_dir;
  repo.write("train.py", "import torch\nmodel = model.cuda()\n");
  repo.write("util.py", "import torch\nx = torch.zeros(3).cuda()\n");
  repo.write("k.cu", "__global__ void k(float* x) {}\nvoid go(float* x) { k<<<1, 1>>>(x); }\n");
  const Pipeline pipeline(bundled_rules());
  ScanOptions options;
  options.cache_dir = cache_dir.path();
  options.cache_key = "test";
  pipeline.scan(repo.path(), options);
  const fs::path file = ScanCache(cache_dir.path(), "test", repo.path()).file();
  const std::string cold_bytes = read_text(file);
  struct stat before {};
  ASSERT_EQ(::stat(file.c_str(), &before), 0);

  EXPECT_EQ(pipeline.scan(repo.path(), options).cache_hits, 3u);
  struct stat after {};
  ASSERT_EQ(::stat(file.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);  // not replaced by a rename
  EXPECT_EQ(read_text(file), cold_bytes);

  repo.write("util.py", "import torch\ny = torch.ones(2).cuda()\n");
  EXPECT_EQ(pipeline.scan(repo.path(), options).cache_hits, 2u);
  ScanOptions fresh = options;
  fresh.cache_dir = fresh_dir.path();
  pipeline.scan(repo.path(), fresh);
  EXPECT_EQ(read_text(file), read_text(ScanCache(fresh_dir.path(), "test", repo.path()).file()));

  // A deleted file is dropped from the cache even though every remaining file was a hit.
  fs::remove(repo.path() / "k.cu");
  EXPECT_EQ(pipeline.scan(repo.path(), options).cache_hits, 2u);
  const std::string without_kernel = read_text(file);
  EXPECT_EQ(without_kernel.find("k.cu"), std::string::npos);
  EXPECT_EQ(pipeline.scan(repo.path(), options).cache_hits, 2u);
}

}  // namespace mpsready::testing
