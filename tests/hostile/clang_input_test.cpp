// Files that steer Clang: the crash pragmas of `#pragma clang __debug`, and the flags of a
// repository's own compile_commands.json. A marker directory outside the scanned root must not
// be read, written or loaded from (no strace: a header there that fails the parse when read, an
// output directory that must stay as planted, and a shared object that leaves a file when loaded).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

using Notes = std::map<std::string, std::string>;  // path -> reasons, joined by " | "

Notes notes_of(const nlohmann::json& doc) {
  Notes out;
  for (const auto& n : doc["errors"]) {
    std::string& reasons = out[n["path"].get<std::string>()];
    reasons += (reasons.empty() ? "" : " | ") + n["reason"].get<std::string>();
  }
  return out;
}

std::set<std::string> sites(const nlohmann::json& doc) {
  std::set<std::string> out;
  for (const auto& f : doc["findings"])
    out.insert(f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) + ":" +
               f["rule"].get<std::string>());
  return out;
}

nlohmann::json scan_json(const fs::path& root, const std::string& prefix = "", const std::string& extra = "") {
  const CliRun run = mpsready("scan " + quote(root.string()) + " --format json" + extra, false, prefix);
  EXPECT_EQ(run.code, 0) << run.out.substr(0, 2000);
  nlohmann::json doc = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << "not a complete JSON report:\n" << run.out.substr(0, 2000);
  return doc.is_discarded() ? nlohmann::json::object({{"errors", nlohmann::json::array()},
                                                      {"findings", nlohmann::json::array()}})
                            : doc;
}

std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) out.insert(fs::relative(e.path(), dir).string());
  return out;
}

}  // namespace

// The two-line file of issue 17 killed the scan with SIGILL; the pragmas that exist to crash or
// dump Clang are gone from the preprocessor in both modes, and the report is complete.
TEST(ClangInput, DebugPragmasCannotCrashTheScan) {
  const std::map<std::string, std::string> files = {
      {"crash.cu", "#pragma clang __debug crash\n__global__ void k(float* x) {}\n"},
      {"parser_crash.cu", "_Pragma(\"clang __debug parser_crash\")\n__global__ void k(float* x) {}\n"},
      {"fatal.cpp", "#pragma clang __debug llvm_fatal_error\n__global__ void k(float* x) {}\n"},
      {"unreachable.cpp", "#pragma clang __debug llvm_unreachable\n__global__ void k(float* x) {}\n"},
  };
  for (const bool with_database : {false, true}) {
    TempDir dir;
    std::string commands = "[";
    for (const auto& [name, text] : files) {
      dir.write(name, text);
      commands += std::string(commands.size() > 1 ? "," : "") + "{\"directory\": \"" + dir.path().string() +
                  "\", \"file\": \"" + name + "\", \"command\": \"clang++ -std=c++17 -c " + name + "\"}";
    }
    if (with_database) dir.write("compile_commands.json", commands + "]");
    dir.write("train.py", "import torch\nx = torch.zeros(1).cuda()\n");
    const nlohmann::json doc = scan_json(dir.path());
    const auto found = sites(doc);
    for (const auto& [name, text] : files)
      EXPECT_TRUE(found.count(name + ":2:cu-cuda-kernel")) << name << (with_database ? " (compile-commands)" : "");
    EXPECT_TRUE(found.count("train.py:2:py-tensor-dot-cuda"));
  }
}

// Only flags that shape the parse reach Clang; every flag that loads code or names a file outside
// the root is dropped and named in the file's errors entry, and the outside stays untouched.
TEST(ClangInput, CompileCommandsCannotReachOutsideTheRoot) {
  TempDir base;
  const fs::path out = base.path() / "outside", root = base.path() / "repo";
  const std::string o = out.string();
  fs::create_directories(out);
  fs::create_directories(root);
  // Read: the parse fails if this header is ever included.
  base.write("outside/marker.h", "#error the marker outside the root was read\n");
  base.write("outside/flags.rsp", "-include " + o + "/marker.h\n");
  base.write("outside/flags.cfg", "-include " + o + "/marker.h\n");
  // Loaded: the shared object writes a file when loaded.
  fs::copy_file(MPSREADY_MARKER_PLUGIN, out / "plugin.so");
  const fs::path loaded = base.path() / "plugin-was-loaded";
  fs::create_directory_symlink(out, root / "linked");

  const std::vector<std::pair<std::string, std::string>> cases = {
      {"i_dir", "-I " + o},
      {"i_joined", "-I" + o},
      {"i_link", "-I linked"},
      {"i_system", "-isystem " + o},
      {"i_quote", "-iquote " + o},
      {"include", "-include " + o + "/marker.h"},
      {"imacros", "-imacros " + o + "/marker.h"},
      {"response", "@" + o + "/flags.rsp"},
      {"config", "--config " + o + "/flags.cfg"},
      {"plugin", "-fplugin=" + o + "/plugin.so"},
      {"pass_plugin", "-fpass-plugin=" + o + "/plugin.so"},
      {"xclang_load", "-Xclang -load -Xclang " + o + "/plugin.so"},
      {"mllvm_load", "-mllvm -load=" + o + "/plugin.so"},
      {"output", "-o " + o + "/out.o"},
      {"depfile", "-MD -MF " + o + "/dep.d"},
      {"wp_depfile", "-Wp,-MD," + o + "/dep2.d"},
      {"xclang_depfile", "-Xclang -dependency-file -Xclang " + o + "/dep3.d"},
      {"save_temps", "-save-temps=obj -o " + o + "/st.o"},
      {"crash_dir", "-fcrash-diagnostics-dir=" + o + "/crash"},
      {"profile", "-fprofile-instr-generate=" + o + "/prof.profraw"},
      {"time_trace", "-ftime-trace -o " + o + "/tt.o"},
  };
  std::string commands = "[";
  for (const auto& [name, flags] : cases) {
    base.write("repo/" + name + ".cpp", "#include \"marker.h\"\nint cuda_devices = 0;\n");
    commands += std::string(commands.size() > 1 ? ",\n" : "") + "{\"directory\": \"" + root.string() +
                "\", \"file\": \"" + name + ".cpp\", \"command\": \"clang++ -std=c++17 " + flags + " -c " + name +
                ".cpp\"}";
  }
  // Inside the root, a relative include path is resolved against the command's directory.
  base.write("repo/include/inside.h", "int cudaMalloc(void** p, unsigned long n);\n");
  base.write("repo/src/alloc.cpp", "#include \"inside.h\"\nvoid f() { void* p; cudaMalloc(&p, 16); }\n");
  commands += ",\n{\"directory\": \"" + root.string() + "/src\", \"file\": \"alloc.cpp\", \"command\": "
              "\"clang++ -std=c++17 -I../include -DUSE_CUDA=1 -O2 -Wall -fPIC -c alloc.cpp -o alloc.o\"}";
  base.write("repo/compile_commands.json", commands + "]");
  const std::set<std::string> planted = listing(out);

  const nlohmann::json doc = scan_json(root, "MPSREADY_PLUGIN_MARKER=" + quote(loaded.string()) + " ");
  const Notes notes = notes_of(doc);
  for (const auto& [name, flags] : cases) {
    const auto it = notes.find(name + ".cpp");
    if (it == notes.end()) {
      ADD_FAILURE() << name << ": no errors entry";
      continue;
    }
    EXPECT_NE(it->second.find("not passed to Clang"), std::string::npos) << name << ": " << it->second;
    // Each dropped flag is named as written (the first word of a multi-word case suffices).
    EXPECT_NE(it->second.find(flags.substr(0, flags.find(' ') == std::string::npos ? flags.size() : flags.find(' '))),
              std::string::npos)
        << name << ": " << it->second;
    EXPECT_EQ(it->second.find("parse error"), std::string::npos) << name << " read the marker: " << it->second;
  }
  const auto note = [&](const std::string& path) { return notes.count(path) ? notes.at(path) : std::string(); };
  EXPECT_NE(note("i_dir.cpp").find("-I " + o + " (outside the scanned root)"), std::string::npos);
  EXPECT_NE(note("depfile.cpp").find("-MF " + o + "/dep.d"), std::string::npos);
  EXPECT_NE(note("xclang_load.cpp").find(o + "/plugin.so"), std::string::npos);
  EXPECT_EQ(note("src/alloc.cpp"), "");
  const auto found = sites(doc);
  EXPECT_TRUE(found.count("src/alloc.cpp:2:cu-cuda-runtime-api"));
  for (const auto& f : doc["findings"])
    if (f["path"] == "src/alloc.cpp") EXPECT_EQ(f["mode"], "compile-commands");

  EXPECT_EQ(listing(out), planted) << "a file was written outside the root";
  EXPECT_FALSE(fs::exists(loaded)) << "the planted shared object was loaded";
}

// Issue 26, item 7: Clang opened every #include target in tolerant mode, and read them with a
// compilation database. Now it sees only the root's regular files: an include of /etc/passwd, of a
// header beside the root (which fails the parse when read) or of a FIFO (which blocks whoever opens
// it until the file's time limit) is neither opened nor felt, and the scan finishes at once.
TEST(ClangInput, IncludesOutsideTheRootAreNeverOpened) {
  TempDir base;
  const fs::path root = base.path() / "repo";
  fs::create_directories(root);
  base.write("outside.h", "#error the header outside the root was read\n");
  ASSERT_EQ(::mkfifo((base.path() / "fifo.h").c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo((root / "inner_fifo.h").c_str(), 0644), 0);
  const std::string includes = "#include \"/etc/passwd\"\n#include \"../outside.h\"\n#include \"../fifo.h\"\n"
                               "#include \"" + (base.path() / "fifo.h").string() + "\"\n#include \"inner_fifo.h\"\n";
  base.write("repo/kernel.cu", includes + "__global__ void k(float* x) {}\n");
  base.write("repo/alloc.cpp", includes + "int cudaMalloc(void** p, unsigned long n);\n"
                                          "void f() { void* p; cudaMalloc(&p, 16); }\n");
  for (const bool with_database : {false, true}) {
    SCOPED_TRACE(with_database ? "compile-commands mode" : "tolerant mode");
    if (with_database)
      base.write("repo/compile_commands.json", "[{\"directory\": \"" + root.string() +
                                                   "\", \"file\": \"alloc.cpp\", \"command\": \"clang++ -std=c++17 -c alloc.cpp\"}]");
    const auto start = std::chrono::steady_clock::now();
    // A blocked open would hold the file until this limit, and the file's findings would be lost.
    const nlohmann::json doc = scan_json(root, "", " --file-time-limit 30");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 20.0);
    const auto found = sites(doc);
    EXPECT_TRUE(found.count("kernel.cu:6:cu-cuda-kernel")) << doc["findings"].dump() << doc["errors"].dump();
    EXPECT_TRUE(found.count("alloc.cpp:7:cu-cuda-runtime-api")) << doc["findings"].dump() << doc["errors"].dump();
    const Notes notes = notes_of(doc);
    for (const char* file : {"kernel.cu", "alloc.cpp"}) {
      const std::string note = notes.count(file) ? notes.at(file) : "";
      EXPECT_EQ(note.find("parse error"), std::string::npos) << file << ": " << note;
      EXPECT_EQ(note.find("did not finish"), std::string::npos) << file << ": " << note;
    }
    for (const auto& f : doc["findings"])
      if (f["path"] == "alloc.cpp") EXPECT_EQ(f["mode"], with_database ? "compile-commands" : "tolerant");
  }
}

// A `build -> /outside` link made the scanner read build/compile_commands.json through it, and its
// flags took effect: the database is opened component by component with O_NOFOLLOW.
TEST(ClangInput, LinkedBuildDirectoryDatabaseIsNotUsed) {
  TempDir base;
  const fs::path root = base.path() / "repo", out = base.path() / "outside";
  base.write("outside/compile_commands.json", "[{\"directory\": \"" + root.string() +
                                                  "\", \"file\": \"alloc.cpp\", \"command\": \"clang++ -DFROM_OUTSIDE=1 -c alloc.cpp\"}]");
  base.write("repo/alloc.cpp", "int cudaMalloc(void** p, unsigned long n);\nvoid f() { void* p; cudaMalloc(&p, 16); }\n");
  fs::create_directory_symlink(out, root / "build");
  const nlohmann::json doc = scan_json(root);
  bool found = false;
  for (const auto& f : doc["findings"])
    if (f["path"] == "alloc.cpp" && f["rule"] == "cu-cuda-runtime-api") {
      found = true;
      EXPECT_EQ(f["mode"], "tolerant") << "the linked database was used";
    }
  EXPECT_TRUE(found) << doc["findings"].dump();
  const Notes notes = notes_of(doc);
  ASSERT_TRUE(notes.count("build/compile_commands.json")) << doc["errors"].dump();
  EXPECT_NE(notes.at("build/compile_commands.json").find("symbolic link"), std::string::npos);
}

// The database matched `scan /abs/repo` but not `scan .`: files are now looked up on the
// canonical root, however the root was named.
TEST(ClangInput, DatabaseMatchesWhateverTheRootIsCalled) {
  TempDir dir;
  dir.write("src/alloc.cpp", "int cudaMalloc(void** p, unsigned long n);\nvoid f() { void* p; cudaMalloc(&p, 16); }\n");
  dir.write("compile_commands.json", "[{\"directory\": \"" + dir.path().string() +
                                         "/src\", \"file\": \"alloc.cpp\", \"command\": \"clang++ -std=c++17 -c alloc.cpp\"}]");
  const std::string cd = "cd " + quote(dir.path().string()) + " && ";
  for (const auto& [prefix, root] : std::vector<std::pair<std::string, std::string>>{
           {"", dir.path().string()}, {cd, "."}, {cd, "./src/.."}, {"cd / && ", dir.path().string().substr(1)}}) {
    SCOPED_TRACE("scan " + root);
    const nlohmann::json doc = scan_json(root, prefix);
    bool found = false;
    for (const auto& f : doc["findings"])
      if (f["path"] == "src/alloc.cpp" && f["rule"] == "cu-cuda-runtime-api") {
        found = true;
        EXPECT_EQ(f["mode"], "compile-commands");
      }
    EXPECT_TRUE(found) << doc["findings"].dump();
  }
}

}  // namespace mpsready::testing
