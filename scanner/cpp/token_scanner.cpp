#include "token_scanner.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Basic/SourceLocation.h>
#include <clang/Lex/Lexer.h>

namespace mpsready {

std::vector<CppToken> lex_cpp(std::string_view text, bool cuda) {
  clang::LangOptions opts;
  opts.CPlusPlus = opts.CPlusPlus11 = opts.CPlusPlus14 = opts.CPlusPlus17 = true;
  opts.CUDA = cuda;  // so `<<<` and `>>>` are single tokens
  opts.LineComment = true;
  // Raw lexing needs a start location only to measure offsets from.
  const clang::SourceLocation start = clang::SourceLocation::getFromRawEncoding(1);
  clang::Lexer lexer(start, opts, text.data(), text.data(), text.data() + text.size());
  lexer.SetCommentRetentionState(false);
  std::vector<CppToken> tokens;
  clang::Token tok;
  bool line_start = true;
  for (;;) {
    lexer.LexFromRawLexer(tok);
    if (tok.is(clang::tok::eof)) break;
    CppToken t;
    t.offset = tok.getLocation().getRawEncoding() - start.getRawEncoding();
    if (t.offset + tok.getLength() > text.size()) break;
    t.spelling = text.substr(t.offset, tok.getLength());
    t.is_identifier = tok.is(clang::tok::raw_identifier);
    t.is_string = clang::tok::isStringLiteral(tok.getKind());
    t.starts_directive = tok.is(clang::tok::hash) && (tok.isAtStartOfLine() || line_start);
    line_start = false;
    tokens.push_back(t);
  }
  return tokens;
}

}  // namespace mpsready
