#pragma once
// The experiment record of a smoke run (schema: docs/smoke-record.schema.json, described in
// docs/smoke-record.md), as JSON and as a short text summary.
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "report/confirmation.h"
#include "smoke/smoke_result.h"

namespace mpsready {

// 2: run, step, environment.distribution/libtorch_build, memory.peak_method; null timings.
constexpr int kSmokeRecordSchemaVersion = 2;

nlohmann::json smoke_record(const SmokeResult& result, const Confirmation& confirmation, const std::string& tool_version);
void write_smoke_text(std::ostream& out, const SmokeResult& result, const Confirmation& confirmation);

}  // namespace mpsready
