// Distributed set-up read from Python (scanner/python/distributed_facts.h): process groups a
// public entry always initialises, per-device backend tables and MPS accelerator classes whose
// MPS entry is a stub; a table that gives MPS a working backend is no stub.
#include <gtest/gtest.h>

#include <string>

#include "python/distributed_facts.h"

namespace mpsready::testing {
namespace {

size_t count_kind(const DistributedScan& scan, const std::string& kind) {
  size_t n = 0;
  for (const DistributedFact& f : scan.facts) n += f.kind == kind;
  return n;
}

}  // namespace

TEST(DistributedFacts, AStubTableAndAnAlwaysRunInitialisation) {
  const DistributedScan scan = scan_distributed(
      "fabric/engine.py",
      "import torch.distributed as dist\n"
      "BACKENDS = {\"cuda\": \"nccl\", \"cpu\": \"gloo\", \"mps\": None}\n"
      "\n"
      "def initialize(device):\n"
      "    backend = BACKENDS[device]\n"
      "    dist.init_process_group(backend=backend)\n"
      "\n"
      "def _private_setup():\n"
      "    dist.init_process_group(\"nccl\")\n");
  ASSERT_EQ(count_kind(scan, "mps-stub-table"), 1u);
  ASSERT_EQ(count_kind(scan, "init"), 1u) << "the private function is no public entry";
  for (const DistributedFact& f : scan.facts) {
    if (f.kind == "mps-stub-table") EXPECT_EQ(f.name, "BACKENDS");
    if (f.kind == "init") {
      EXPECT_EQ(f.name, "initialize");
      EXPECT_EQ(f.line, 6);
      EXPECT_NE(f.text.find("BACKENDS[device]"), std::string::npos) << f.text;
    }
  }
}

TEST(DistributedFacts, AWorkingMpsBackendIsNoStub) {
  const DistributedScan scan = scan_distributed(
      "fabric/engine.py",
      "import torch.distributed as dist\n"
      "BACKENDS = {\"cuda\": \"nccl\", \"cpu\": \"gloo\", \"mps\": \"gloo\"}\n"
      "\n"
      "def initialize(device):\n"
      "    dist.init_process_group(backend=BACKENDS[device])\n");
  EXPECT_EQ(count_kind(scan, "mps-stub-table"), 0u);
  EXPECT_TRUE(scan.evidence.empty());
}

TEST(DistributedFacts, AnMpsAcceleratorOfStubsIsNegativeEvidence) {
  const DistributedScan stub = scan_distributed(
      "fabric/accelerators.py",
      "class MPS_Accelerator:\n"
      "    def communication_backend_name(self):\n"
      "        return None\n"
      "    def synchronize(self):\n"
      "        raise NotImplementedError\n");
  EXPECT_EQ(count_kind(stub, "mps-stub-class"), 1u);
  ASSERT_EQ(stub.evidence.size(), 1u);
  EXPECT_EQ(stub.evidence[0].kind, "mps-stub");
  const DistributedScan working = scan_distributed(
      "fabric/accelerators.py",
      "import torch\n"
      "class MPS_Accelerator:\n"
      "    def communication_backend_name(self):\n"
      "        return \"gloo\"\n"
      "    def synchronize(self):\n"
      "        torch.mps.synchronize()\n");
  EXPECT_EQ(count_kind(working, "mps-stub-class"), 0u);
  EXPECT_TRUE(working.evidence.empty());
}

}  // namespace mpsready::testing
