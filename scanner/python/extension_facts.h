#pragma once
// Finds the compiled extensions a Python file declares (setup.py, JIT loads), for the
// extension linkage pass.
#include <string>
#include <vector>

#include "core/repo_facts.h"
#include "core/source_text.h"

namespace mpsready {

class PythonFile;

std::vector<ExtensionFact> find_extensions(const PythonFile& file, const SourceText& text, const std::string& path);

}  // namespace mpsready
