// The estimate of how far a file's own macros expand, which keeps macro bombs away from Clang.
#include <gtest/gtest.h>

#include <string>

#include "macro_growth.h"
#include "token_scanner.h"

namespace mpsready::testing {
namespace {

uint64_t estimate(const std::string& text) { return estimated_expansion(lex_cpp(text, true), text); }

std::string chain(int levels, bool reversed) {
  std::string defs;
  for (int n = 0; n <= levels; ++n) {
    const int i = reversed ? levels - n : n;
    defs += i == 0 ? "#define X0 x,\n"
                   : "#define X" + std::to_string(i) + " X" + std::to_string(i - 1) + " X" + std::to_string(i - 1) + "\n";
  }
  return defs;
}

}  // namespace

TEST(MacroGrowth, WithoutMacrosItIsTheTokenCount) {
  EXPECT_EQ(estimate("int a = 1;\n"), 5u);
  EXPECT_EQ(estimate("#include <x.h>\n#pragma once\nint a;\n"), 3u);
}

TEST(MacroGrowth, ObjectLikeChainsDoubleInAnyDefinitionOrder) {
  EXPECT_EQ(estimate(chain(10, false) + "int a[] = { X10 };\n"), 2048u + 8u);
  EXPECT_EQ(estimate(chain(10, true) + "int a[] = { X10 };\n"), 2048u + 8u);
  EXPECT_GT(estimate(chain(40, true) + "X40\n"), kMaxEstimatedExpansion);
  // A continued line is one directive.
  EXPECT_EQ(estimate("#define TWO a \\\n b\nTWO TWO\n"), 4u);
}

TEST(MacroGrowth, NestedFunctionLikeUsesMultiply) {
  // F(F(1)) is nine copies of 1; the estimate may count a little more, never less.
  const uint64_t two = estimate("#define F(x) x x x\nF(F(1))\n");
  EXPECT_GE(two, 9u);
  EXPECT_LE(two, 16u);
  std::string deep = "#define F(x) x x x\n";
  for (int i = 0; i < 30; ++i) deep += "F(";
  deep += "1";
  for (int i = 0; i < 30; ++i) deep += ")";
  EXPECT_GT(estimate(deep + "\n"), kMaxEstimatedExpansion);
  // A macro that nests another in its body: G(x) is F(F(x)), nine copies.
  EXPECT_GE(estimate("#define F(x) x x x\n#define G(x) F(F(x))\nG(1)\n"), 9u);
  // `F (x)` with a space is an object-like macro named F.
  EXPECT_LE(estimate("#define F (x) x x x\nF F\n"), 20u);
}

TEST(MacroGrowth, SelfReferenceAndCyclesStayFinite) {
  EXPECT_EQ(estimate("#define A A A\nA\n"), 2u);
  EXPECT_LT(estimate("#define A B B\n#define B A A\nA B\n"), 100u);
  // Ordinary kernels with a few helper macros are far from the bound.
  EXPECT_LT(estimate("#define CHECK(x) if (!(x)) { printf(#x); return; }\n"
                     "#define IDX(i, j) ((i) * n + (j))\n"
                     "__global__ void k(float* a, int n) { CHECK(n > 0); a[IDX(1, 2)] = a[IDX(2, 1)]; }\n"),
            200u);
}

}  // namespace mpsready::testing
