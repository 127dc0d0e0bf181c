#include "ops/op_coverage_source.h"

#include "ops/native_functions_discovery.h"

namespace mpsready {

OpCoverageSource& OpCoverageSource::shared() {
  static OpCoverageSource source;
  return source;
}

void OpCoverageSource::configure(OpCoverageSettings settings) {
  std::lock_guard lock(mutex_);
  settings_ = std::move(settings);
  loaded_ = false;
  table_.reset();
  note_.clear();
}

const NativeFunctions* OpCoverageSource::table(const std::filesystem::path& rules_dir) {
  std::lock_guard lock(mutex_);
  if (loaded_) return table_.get();
  loaded_ = true;
  DiscoveryRequest request;
  request.explicit_files = settings_.native_functions;
  if (!settings_.tables_dir.empty()) request.tables_dir = settings_.tables_dir;
  else if (!rules_dir.empty()) request.tables_dir = op_tables_dir(rules_dir);
  const DiscoveryResult found = discover_native_functions(request);
  std::string error;
  const auto file = pick_native_functions(found.files, settings_.torch_version, error);
  if (!file) {
    note_ = "op-coverage: " + error;
    for (const auto& e : found.errors) note_ += "; " + e;
    note_ += "; op-coverage rules reported nothing";
    return nullptr;
  }
  try {
    table_ = std::make_unique<NativeFunctions>(NativeFunctions::load(file->path, file->version));
  } catch (const NativeFunctionsError& e) {
    note_ = std::string("op-coverage: ") + e.what() + "; op-coverage rules reported nothing";
  }
  return table_.get();
}

bool OpCoverageSource::requested() const {
  std::lock_guard lock(mutex_);
  return loaded_;
}

std::string OpCoverageSource::note() const {
  std::lock_guard lock(mutex_);
  return note_;
}

}  // namespace mpsready
