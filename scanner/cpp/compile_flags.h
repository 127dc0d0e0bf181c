#pragma once
// The flags of a repository's compile_commands.json that may reach Clang. The repository chose
// them, so only flags that shape the parse pass: include paths (`-I -isystem -iquote -idirafter`,
// `-include`, `-imacros`, `--sysroot`, `--cuda-path`) resolved against the command's directory
// and kept only inside the scanned root, macros (`-D -U`), the language and standard (`-x`,
// `-std`), target and CUDA options (`--target`, `-m…`, `--cuda-…`) and a list of language `-f`
// flags. Everything that loads code or reads or writes a file by name (`-fplugin`,
// `-Xclang -load`, `-mllvm`, `@file`, `--config`, `-MD`/`-MF`, `-save-temps`, `-fprofile-…`,
// `-ftime-trace`, `-ivfsoverlay`, …), and any flag not known to be harmless, is dropped and named.
// Flags that change nothing a parse reads or writes (`-c`, `-O2`, `-g`, `-Wall`, `-fPIC`, an
// `-o` inside the root) are dropped without a word.
#include <filesystem>
#include <string>
#include <vector>

namespace mpsready {

struct CompileFlags {
  std::vector<std::string> args;     // for Clang, without the compiler and the source file
  std::vector<std::string> dropped;  // as written, with why where it helps: "-I /x (outside the scanned root)"
};

// `command`: the whole command line (argv[0] is the compiler); `directory`: its working
// directory; `file`: the source file as the command names it; `root`: the scanned root.
CompileFlags filter_compile_flags(const std::vector<std::string>& command, const std::string& directory,
                                  const std::string& file, const std::filesystem::path& root);

// "compile_commands.json flags not used (…): -fplugin=x.so, -I /y (outside the scanned root)".
std::string describe_dropped_flags(const std::vector<std::string>& dropped);

}  // namespace mpsready
