#include "hostile/hostile_repo.h"

#include <sys/stat.h>

namespace mpsready::testing {

namespace {

std::string many_findings(int n) {
  std::string text = "import torch\n";
  for (int i = 0; i < n; ++i) text += "x" + std::to_string(i) + " = y.cuda()\n";
  return text;
}

}  // namespace

HostileRepo::HostileRepo() {
  const auto put = [&](const std::string& rel, const std::string& content) { return dir.write("repo/" + rel, content); };

  // Outside the root: what links and includes point at. A scan must never read these.
  dir.write("outside/secret.py", "import torch\n" + kOutsideMarker + " = m.cuda()\n");
  dir.write("outside/requirements-secret.txt", kOutsideMarker + "-pkg==1.0\nnvidia-cudnn-cu12\n");
  dir.write("outside/dir/inner.py", "import torch\n" + kOutsideMarker + " = 1\nz = z.cuda()\n");

  // A control file, so the scan demonstrably works.
  put("ok.py", "import torch\nm = m.cuda()\n");

  // Binary files with source extensions, and NUL bytes in otherwise plain text.
  put("binary.py", std::string("\x7f" "ELF\x02\x01\x01\0\0\0import torch\nx.cuda()\n", 32));
  put("kernel_blob.cu", std::string("__global__ void k() {}\0\xff\xfe", 25));
  put("requirements-bin.txt", std::string("torch\0nvidia-cudnn-cu12\n", 24));

  // Invalid UTF-8, Latin-1; findings in them are still reported.
  put("latin1.py", "# r\xE9sum\xE9 du mod\xE8le\nimport torch\nx = y.cuda()\n");
  put("invalid_utf8.py", "import torch\ns = '\xC3\x28 \xED\xA0\x80 \xF8\x88\x80\x80\x80'\nx = y.cuda()\n");

  // A UTF-8 BOM and CRLF line endings: lines and columns must not count either.
  put("bom_crlf.py", "\xEF\xBB\xBFimport torch\r\n\r\n# caf\xC3\xA9\r\n\xC3\xA9t\xC3\xA9 = model.cuda()\r\n");
  put("bom_first_line.py", "\xEF\xBB\xBFx = y.cuda()\r\nimport torch\r\n");
  put("bom_crlf.cu", "\xEF\xBB\xBF#include <cuda_runtime.h>\r\n\r\n__global__ void scale(float* x) { x[0] *= 2; }\r\n");

  // One line of more than 20 MB (read with a raised --max-file-size; skipped under the default).
  put("huge_line.py", "import torch; x = y.cuda()  # " + std::string(21u << 20, 'a') + "\n");

  // 100,000 levels of nesting in every syntax that nests.
  const std::string deep(100000, '[');
  put("deep.py", "import torch\nx = " + std::string(100000, '(') + "y.cuda()" + std::string(100000, ')') + "\n");
  put("deep.ipynb", "{\"cells\": " + deep + std::string(100000, ']') + "}");
  put("deep.cu", "__global__ void k() " + std::string(100000, '{') + std::string(100000, '}') + "\n");
  put("environment.yml", "dependencies: " + deep + "\n");
  put("pyproject.toml", "[project]\ndependencies = " + deep + "\n");
  put("setup.py", "from setuptools import setup\nsetup(install_requires=" + deep + ")\n");

  // Tens of thousands of findings in one file.
  put("many.py", many_findings(20000));

  // Truncated and wrongly shaped notebooks.
  put("nb/truncated.ipynb", "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"import torch\\n\", \"x.cu");
  put("nb/cells_not_array.ipynb", "{\"cells\": {\"0\": 1}, \"nbformat\": 4, \"nbformat_minor\": 5}");
  put("nb/source_number.ipynb", "{\"cells\": [{\"cell_type\": \"code\", \"source\": 42}], \"nbformat\": 4, \"nbformat_minor\": 5}");
  put("nb/top_level_array.ipynb", "[1, 2, 3]");
  put("nb/nbformat3.ipynb", "{\"worksheets\": [{\"cells\": []}], \"nbformat\": 3, \"nbformat_minor\": 0}");
  put("nb/empty.ipynb", "");

  // Garbage C++/CUDA that reaches Clang (it has the rules' needles).
  put("garbage.cu", "__global__ }}}{{{ <<<< >>> cudaMalloc(((( template<template<template< #if\n#endif #endif\n"
                    "kernel<<<1, 2>>>(; cudaMemcpy) \"unterminated\n#define X X X\nX\n__device__ __device__ int;\n");
  put("garbage.cpp", std::string(5000, '<') + " torch::kCUDA " + std::string(5000, '>') + "\n");

  // Macro bombs: 2^40 tokens from object-like macros, 3^40 from nested function-like uses, and
  // 250,000 plain expansions (under the size estimate, over the expansion budget).
  std::string object_bomb = "#define X0 x,\n";
  for (int i = 1; i <= 40; ++i)
    object_bomb += "#define X" + std::to_string(i) + " X" + std::to_string(i - 1) + " X" + std::to_string(i - 1) + "\n";
  put("macro_bomb.cu", object_bomb + "__global__ void k(float* p) { int a[] = { X40 0 }; }\n");
  std::string nested;
  for (int i = 0; i < 40; ++i) nested += "F(";
  nested += "1,";
  for (int i = 0; i < 40; ++i) nested += ")";
  put("macro_bomb_args.cu", "#define F(x) x x x\n__global__ void k(float* p) { int a[] = { " + nested + " 0 }; }\n");
  std::string many = "#define E\n__global__ void k(float* p) {}\nint a = 0 ";
  for (int i = 0; i < 250000; ++i) many += "E ";
  put("macro_many.cu", many + ";\n");

  // Links: a loop, a directory and a file outside the root, dangling ones.
  fs::create_directory_symlink(root(), root() / "loop");
  fs::create_directory_symlink(root() / "nb", root() / "nb/self");
  fs::create_directory_symlink(outside(), root() / "escape_dir");
  fs::create_symlink(outside() / "secret.py", root() / "escape.py");
  fs::create_symlink(outside() / "requirements-secret.txt", root() / "requirements-linked.txt");
  fs::create_symlink(root() / "does-not-exist.py", root() / "dangling.py");
  fs::create_directory_symlink(dir.path() / "nowhere", root() / "dangling_dir");

  // `-r` includes that point outside the root, absolutely, relatively and through a link.
  put("requirements.txt", "torch\n-r ../outside/requirements-secret.txt\n-r " + (outside() / "requirements-secret.txt").string() +
                              "\n-r requirements-linked.txt\n-c escape_dir/requirements-secret.txt\n"
                              "-r https://example.invalid/reqs.txt\n-r deps/a.in\n-r deps/big.in\n");
  // A .gitignore larger than the size limit is not read, and so leaves nothing out.
  put("bigignore/.gitignore", "kept.py\n" + std::string(17u << 20, '#') + "\n");
  put("bigignore/kept.py", "import torch\nx = torch.zeros(1).cuda()\n");
  // An include larger than the size limit is refused before a byte of it is read.
  put("deps/big.in", std::string(17u << 20, '#') + "\n");
  put("deps/a.in", "numpy\n-r b.in\n");
  put("deps/b.in", "scipy\n-r a.in\n");

  // A directory the scanner cannot list (when not running as root).
  put("locked/hidden.py", "import torch\nx = x.cuda()\n");
  unreadable_dir_created = ::chmod((root() / "locked").c_str(), 0) == 0;

  // Odd file names: spaces, a newline, bytes that are not UTF-8, leading dashes, markup.
  put("odd/with space.py", "import torch\na = a.cuda()\n");
  put("odd/new\nline.py", "import torch\nb = b.cuda()\n");
  put("odd/latin1-\xE9\xFF.py", "import torch\nc = c.cuda()\n");
  put("odd/-rf.py", "import torch\nd = d.cuda()\n");
  put("odd/--help.py", "import torch\ne = e.cuda()\n");
  put("odd/<img src=x onerror=alert(1)>.py", "import torch\nf = f.cuda()\n");

  // A FIFO named like source (opening it would block a naive reader).
  ::mkfifo((root() / "pipe.py").c_str(), 0600);
}

}  // namespace mpsready::testing
