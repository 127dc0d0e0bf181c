#pragma once
// What the deps readers produce for one file: the Python/conda packages it declares and its
// line-level directives (a Dockerfile instruction, a CMake command, an #SBATCH option, a shell
// command), each with byte offsets into the file's text.
#include <memory>
#include <string>
#include <vector>

#include "core/finding.h"
#include "core/source_text.h"

namespace mpsready {

// The kinds of file the deps front end reads.
enum class DepsFileKind { none, requirements, setup_py, setup_cfg, pyproject, pipfile, conda, dockerfile, compose, cmake, make, shell, config };

const char* to_string(DepsFileKind kind);

// A declared package (`flash-attn==2.5.6; sys_platform == "linux"`).
struct DependencyRecord {
  std::string name;        // as written
  std::string normalized;  // PEP 503: lower case, runs of `-_.` as one `-`
  std::string version;     // the specifier or pin as written (`==2.2.1+cu121`, `>=2`)
  std::string marker;      // the environment marker, without `;`
  std::string group;       // the extra / optional group / `build-system`; empty when required
  bool optional = false;   // only installed on request (an extra, an optional group, a constraint)
  bool conda = false;      // a conda package rather than a pip one
  std::string text;        // the requirement as written
  uint32_t start = 0, end = 0;  // byte span in the file
};

// One span of a directive's text that comes from one place of the file (continuation lines are
// joined, so a directive may have several).
struct DirectiveSegment {
  uint32_t text_offset = 0;  // where the piece starts in Directive::text
  uint32_t file_offset = 0;  // where it starts in the file
};

struct Directive {
  std::string kind;  // `FROM`/`RUN`/... (Dockerfile), `sbatch`/`command` (shell), the command
                     // name (CMake), `line` (Makefile), `option`/`url` (requirements),
                     // `index-url`, `channel`, `conda-dependency`, `image`, `runtime`,
                     // `device-driver`, `device-capability`, `gpus`, `ext-module`, `device` (a run configuration)
  std::string text;
  std::vector<DirectiveSegment> segments;  // at least one
  uint32_t file_offset(uint32_t text_offset) const;
};

struct DepsFile {
  std::string path;  // relative to the root
  DepsFileKind kind = DepsFileKind::none;
  std::shared_ptr<const SourceText> text;
  std::vector<DependencyRecord> records;
  std::vector<Directive> directives;
  std::vector<FileNote> errors;

  void add_directive(std::string kind, std::string text, uint32_t file_offset);
  // 1-based line and code-point column of a byte offset.
  LineColumn position(uint32_t offset) const { return text->position(offset); }
  // Byte offset of a 1-based line and code-point column (TOML and YAML parsers report those).
  uint32_t offset_of(int line, int column) const;
};

// PEP 503 normalisation of a package name.
std::string normalize_package_name(std::string_view name);

}  // namespace mpsready
