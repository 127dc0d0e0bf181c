#include "ops/answering_tables.h"

#include "ops/native_functions_discovery.h"

namespace mpsready {

AnsweringTables load_answering_tables(const OpCoverageSettings& settings) {
  AnsweringTables result;
  DiscoveryRequest request;
  request.explicit_files = settings.native_functions;
  request.tables_dir = settings.tables_dir;
  const DiscoveryResult found = discover_native_functions(request);
  if (!found.errors.empty()) {
    result.error = found.errors.front();
    return result;
  }
  std::string error;
  const auto target = pick_native_functions(found.files, settings.torch_version, error);
  if (!target) {
    result.error = error;
    return result;
  }
  try {
    for (const auto& file : found.files) {
      if (file.path == target->path) result.target = result.tables.size();
      result.tables.push_back(std::make_unique<NativeFunctions>(NativeFunctions::load(file.path, file.version)));
      result.views.push_back(result.tables.back().get());
    }
  } catch (const NativeFunctionsError& e) {
    result.tables.clear();
    result.views.clear();
    result.error = e.what();
  }
  return result;
}

}  // namespace mpsready
