#pragma once
// The Python programs the root README tells users to run, from its code blocks and inline code:
// `python train.py`, `python3 tools/train.py --cfg x`, `python -m pkg.cli`, `torchrun
// --nproc_per_node 8 train.py`, `accelerate launch train.py`, `deepspeed train.py`. Each is an
// entry point of the repository wherever its file lives. Shell scripts (`bash scripts/x.sh`),
// `python setup.py ...`, `python -c` and commands in prose are not. Only the README at the root
// counts; nothing it links to is followed.
#include <string>
#include <string_view>
#include <vector>

#include "core/repo_facts.h"

namespace mpsready {

// Whether `path` is the root README (README, README.md, README.rst, README.txt; any case).
bool is_root_readme(std::string_view path);

// The commands of a root README, one fact per program and line: `script` for a file (relative to
// the root, `./` removed), `module` for `python -m`. Nothing for any other file.
std::vector<EntryPointFact> readme_commands(const std::string& path, std::string_view text);

}  // namespace mpsready
