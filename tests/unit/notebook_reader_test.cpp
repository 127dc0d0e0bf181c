#include <gtest/gtest.h>

#include "python/notebook_reader.h"
#include "support/rule_builder.h"

namespace mpsready::testing {

TEST(NotebookReader, JoinsCodeCellsAndMapsLinesBack) {
  const auto nb = read_notebook(R"J({"cells": [
      {"cell_type": "markdown", "source": ["# Title\n", "uses .cuda()"]},
      {"cell_type": "code", "source": ["import torch\n", "!nvidia-smi\n", "%matplotlib inline\n", "x = 1"]},
      {"cell_type": "code", "source": "y = x.cuda()\n"}], "nbformat": 4})J");
  ASSERT_TRUE(nb.ok);
  EXPECT_EQ(nb.source.code_cells, 2);
  EXPECT_NE(nb.source.python.find("#nvidia-smi"), std::string::npos);
  EXPECT_NE(nb.source.python.find("#matplotlib inline"), std::string::npos);
  EXPECT_EQ(nb.source.python.find("Title"), std::string::npos);
  // "y = x.cuda()" is line 1 of cell 3 (the markdown cell counts as cell 1).
  const size_t line = static_cast<size_t>(std::count(nb.source.python.begin(),
                                                     nb.source.python.begin() + static_cast<long>(nb.source.python.find("y = x")), '\n'));
  EXPECT_EQ(nb.source.cell_of_line[line], 3);
  EXPECT_EQ(nb.source.line_in_cell[line], 1);
}

TEST(NotebookReader, EachLineKnowsWhereItStartsInTheIpynb) {
  // Line 1: `{"cells": [`; line 2: a cell whose source is an array (one string per line); line 3:
  // one string holding two lines; line 4: a line that starts with an escape.
  const std::string text =
      "{\"cells\": [\n"
      "  {\"cell_type\": \"code\", \"source\": [\"import torch\\n\", \"x = 1\"]},\n"
      "  {\"cell_type\": \"code\", \"source\": \"a = 1\\nb = x.cuda()\"},\n"
      "  {\"cell_type\": \"code\", \"source\": [\"\\u0063 = 2\"]}]}\n";
  const auto nb = read_notebook(text);
  ASSERT_TRUE(nb.ok);
  const auto at = [&](int cell, int line) {
    for (size_t k = 0; k < nb.source.cell_of_line.size(); ++k)
      if (nb.source.cell_of_line[k] == cell && nb.source.line_in_cell[k] == line)
        return std::make_pair(nb.source.file_line[k], nb.source.file_column[k]);
    return std::make_pair(-1, -1);
  };
  const auto column_of = [&](const std::string& needle) {
    const size_t at_byte = text.find(needle);
    return static_cast<int>(at_byte - text.rfind('\n', at_byte));
  };
  EXPECT_EQ(at(1, 1), std::make_pair(2, column_of("import torch")));
  EXPECT_EQ(at(1, 2), std::make_pair(2, column_of("x = 1")));
  EXPECT_EQ(at(2, 1), std::make_pair(3, column_of("a = 1")));
  EXPECT_EQ(at(2, 2), std::make_pair(3, column_of("b = x.cuda()")));
  EXPECT_EQ(at(3, 1), std::make_pair(4, column_of("\\u0063")));
  EXPECT_EQ(at(3, 2), std::make_pair(0, 0));  // the blank line that closes a cell is in no string
}

TEST(NotebookReader, ForeignCellMagicsAreNotPython) {
  const auto nb = read_notebook(R"J({"cells": [{"cell_type": "code", "source": ["%%bash\n", "x.cuda() && echo\n"]},
                                              {"cell_type": "code", "source": ["%%time\n", "m.cuda()\n"]}]})J");
  ASSERT_TRUE(nb.ok);
  EXPECT_EQ(nb.source.python.find("x.cuda()"), std::string::npos);
  EXPECT_NE(nb.source.python.find("m.cuda()"), std::string::npos);
}

TEST(NotebookReader, ExplainsMalformedNotebooks) {
  EXPECT_FALSE(read_notebook("{\"cells\": [").ok);
  const auto overflow = read_notebook(R"J({"cells": [], "metadata": {"x": 1e999999}})J");
  EXPECT_FALSE(overflow.ok);
  EXPECT_EQ(overflow.error, "not a valid notebook: a number in its JSON is out of range");
  const auto wrong = read_notebook(R"J({"worksheets": []})J");
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.error.find("cells"), std::string::npos);
  // Odd but valid JSON shapes are tolerated: non-object cells, non-string sources.
  const auto odd = read_notebook(R"J({"cells": [1, {"cell_type": "code", "source": [3, "x = 1"]}]})J");
  EXPECT_TRUE(odd.ok);
  EXPECT_NE(odd.source.python.find("x = 1"), std::string::npos);
  // ... but reported: the first odd cell is named.
  EXPECT_EQ(odd.problem, "cell 1 is not an object; it was not read whole");
  EXPECT_EQ(read_notebook(R"J({"cells": [{"cell_type": "code", "source": 42}]})J").problem,
            "cell 1 has a \"source\" that is neither a string nor an array of strings; it was not read whole");
}

TEST(NotebookReader, FindingsCarryCellAndLineInCell) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J");
  const RuleSet rules = RuleSet::load(dir.path() / "rules");
  const Pipeline pipeline(rules);
  dir.write("repo/nb.ipynb", R"J({"cells": [
      {"cell_type": "code", "source": ["import torch\n", "!nvidia-smi"]},
      {"cell_type": "markdown", "source": ["text"]},
      {"cell_type": "code", "source": ["a = 1\n", "  b = m.cuda()\n"]}]})J");
  const ScanResult result = pipeline.scan(dir.path() / "repo", ScanOptions{});
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].location.cell, 3);
  EXPECT_EQ(result.findings[0].location.line, 2);
  EXPECT_EQ(result.findings[0].location.column, 7);
  EXPECT_TRUE(result.errors.empty());
}

}  // namespace mpsready::testing
