#pragma once
// Which files the deps front end reads (by name), and reading one of them with the right reader.
#include <filesystem>
#include <string_view>
#include <vector>

#include "deps/deps_file.h"

namespace mpsready {

class PythonParser;

class DepsReader {
 public:
  // The kind of a file by its relative path; `none` when the deps front end does not read it.
  static DepsFileKind classify(std::string_view path);
  // Reads `text` (the file at `path` under `root`); files reached through `-r`/`-c` follow the
  // first entry of the result. Never throws on bad input: problems are in each file's errors.
  static std::vector<DepsFile> read(std::string_view path, std::string_view text,
                                    const std::filesystem::path& root, PythonParser& parser);
};

}  // namespace mpsready
