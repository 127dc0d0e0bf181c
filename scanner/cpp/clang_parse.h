#pragma once
// Clang LibTooling behind a plain interface (no Clang types leak out, so the rest of mpsready
// builds with RTTI while this part matches LLVM's -fno-rtti). One ClangParser per worker
// thread: its AST matchers and preprocessor hooks are built once and reused for every file.
#include <filesystem>
#include <memory>
#include <optional>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compile_flags.h"

namespace mpsready {

struct ClangSite {
  std::string name;    // kernel, callee, header or macro as written; the asm text for asm
  std::string detail;  // kernels: "global" / "device"; macros: the definition's body
  int line = 0;        // 1-based, in the file itself
  int byte_column = 0;  // 1-based, in bytes
  int end_line = 0;
  int end_byte_column = 0;
  bool templated = false;
};

enum class ClangStop { none, time_limit, macro_expansions };

// Macro expansions one file may cause. A few lines of `#define X1 X0 X0`, `#define X2 X1 X1`...
// expand to 2^N tokens inside a single declaration, where the deadline check between top-level
// declarations never comes: 4 million expansions took 38 s and 1 GB. Real files without their
// includes stay far below this; past it, and past the deadline, no macro expands twice more.
inline constexpr uint64_t kMaxMacroExpansions = 200'000;

// Largest header Clang may read from the root in compile-commands mode, and largest database.
inline constexpr uintmax_t kMaxHeaderBytes = 16u << 20;
inline constexpr uintmax_t kMaxDatabaseBytes = 256u << 20;

struct ClangParseResult {
  bool ran = false;  // Clang ran (false: it could not be set up; see `failure`)
  std::string failure;
  std::string mode;  // "tolerant" (no includes, built-in CUDA header) or "compile-commands"
  std::vector<ClangSite> kernels;     // __global__ and __device__ function definitions
  std::vector<ClangSite> launches;    // <<<...>>> launches, at the expansion site
  std::vector<ClangSite> calls;       // calls, with the callee's qualified name
  std::vector<ClangSite> asm_blocks;  // inline assembly
  std::vector<ClangSite> includes;    // #include directives
  std::vector<ClangSite> macro_uses;  // expansions of macros defined in the file
  int errors = 0;
  int first_error_line = 0;
  // The time limit or the macro-expansion budget stopped the parse: the AST matchers did not run
  // (kernels, launches, calls and asm stay empty); includes and macro uses hold what the
  // preprocessor saw before the stop.
  bool stopped = false;
  ClangStop stop_reason = ClangStop::none;
  std::vector<std::string> unresolved_includes;
};

class ClangParser {
 public:
  ClangParser();
  ~ClangParser();
  ClangParser(const ClangParser&) = delete;
  ClangParser& operator=(const ClangParser&) = delete;

  // `path` names the file in positions and decides the language (.cu/.cuh are CUDA; so is a
  // header that uses CUDA syntax). With `compile_args` (from compile_commands.json) the file is
  // parsed with its real flags and includes; otherwise in tolerant mode.
  // `absolute_path` lets relative #includes resolve in compile-commands mode.
  // `time_limit_s`: checked before each top-level declaration (Clang has no other way to be
  // interrupted); past it the parse stops and `stopped` is set. Negative: no limit.
  // `root`: the canonical scanned root, whose files (and only those) Clang may read in
  // compile-commands mode; `absolute_path` lies below it.
  ClangParseResult parse(const std::string& path, const std::string& absolute_path, std::string_view code,
                         bool cuda, const std::vector<std::string>* compile_args, double time_limit_s = -1,
                         const std::filesystem::path& root = {});

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The arguments for `path` from a compile_commands.json, or nullopt: only the flags that shape
// the parse, with paths kept inside `root` (see compile_flags.h); the others are listed in
// `dropped`. Loading failures return nullptr and set `error`.
class CompileCommands {
 public:
  // A database the user named (`--compile-commands`), read from where it is.
  static std::unique_ptr<CompileCommands> load(const std::string& json_path, const std::filesystem::path& root,
                                               std::string& error);
  // The repository's own database, `relative` below `root`, opened with no link on the way.
  static std::unique_ptr<CompileCommands> load_below_root(const std::filesystem::path& root,
                                                          const std::string& relative, std::string& error);
  ~CompileCommands();
  // Files are matched on the canonical root, so `scan .` and `scan /abs/repo` find the same
  // commands: `absolute(relative)` is the path to look up (and to parse the file under).
  std::string absolute(const std::string& relative) const;
  std::optional<CompileFlags> args_for(const std::string& absolute_path) const;
  const std::filesystem::path& root() const;
  static std::filesystem::path canonical_root(const std::filesystem::path& root);

 private:
  CompileCommands();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mpsready
