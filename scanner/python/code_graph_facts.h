#pragma once
// The function facts of one Python file for the call graph (model/call_graph.h): its functions
// and classes, every call and every use of a function as a value with the conditions of its
// site, the names its imports bind, and the defaults of its options. One iterative walk over the
// tree the analyzer already has.
#include <string>

#include "core/repo_facts.h"

namespace mpsready {

class PythonFile;

CodeGraphFact scan_code_graph(const PythonFile& file, const std::string& path);

}  // namespace mpsready
