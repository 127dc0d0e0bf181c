#include "engine/test_point.h"

#include <atomic>

namespace mpsready {
namespace {
std::atomic<TestPointHook> installed{nullptr};
}

void set_test_point_hook(TestPointHook hook) { installed.store(hook); }

void test_point(std::string_view frontend, std::string_view bytes) {
  if (TestPointHook hook = installed.load(std::memory_order_relaxed)) hook(frontend, bytes);
}

}  // namespace mpsready
