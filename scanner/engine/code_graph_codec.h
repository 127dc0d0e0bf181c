#pragma once
// The cache form of a file's call-graph facts (core/repo_facts.h CodeGraphFact), written after
// the other facts of its outcome (outcome_codec.h).
#include <string>
#include <vector>

#include "core/repo_facts.h"
#include "engine/outcome_codec.h"

namespace mpsready {

void put_code_graphs(std::string& out, const std::vector<CodeGraphFact>& facts);
// false for a malformed entry, or one about any file other than `path`, or indices that point
// outside their lists.
bool get_code_graphs(ByteReader& in, std::vector<CodeGraphFact>& facts, const std::string& path, size_t total);

}  // namespace mpsready
