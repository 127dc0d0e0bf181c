#pragma once
// The batch-size sweep as a CSV table and a small self-contained SVG plot (throughput and median
// step time against batch size), with no plotting dependency.
#include <string>
#include <vector>

#include "smoke/smoke_result.h"

namespace mpsready {

std::string sweep_csv(const std::vector<SweepRow>& rows);
std::string sweep_svg(const std::vector<SweepRow>& rows, const std::string& title);

}  // namespace mpsready
