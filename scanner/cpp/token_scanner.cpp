#include "token_scanner.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Basic/SourceLocation.h>
#include <clang/Lex/Lexer.h>

namespace mpsready {
namespace {

// CUDA's keywords, for an identifier split by a backslash-newline (`__glo\` + newline + `bal__`):
// the compiler reads the spliced name, so the token is spelled as that keyword (static storage).
constexpr std::string_view kSplicedKeywords[] = {"__global__", "__device__", "__host__", "__attribute__",
                                                 "__shared__", "__constant__", "__launch_bounds__"};

std::string_view spliced_keyword(std::string_view raw) {
  std::string clean;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\') {
      while (i + 1 < raw.size() && (raw[i + 1] == '\r' || raw[i + 1] == '\n')) ++i;
      continue;
    }
    clean += raw[i];
  }
  for (std::string_view keyword : kSplicedKeywords)
    if (clean == keyword) return keyword;
  return raw;
}

}  // namespace

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
    if (t.is_identifier && tok.needsCleaning()) t.spelling = spliced_keyword(t.spelling);
    t.is_string = clang::tok::isStringLiteral(tok.getKind());
    t.starts_directive = tok.is(clang::tok::hash) && (tok.isAtStartOfLine() || line_start);
    line_start = false;
    tokens.push_back(t);
  }
  return tokens;
}

}  // namespace mpsready
