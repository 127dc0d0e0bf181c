#pragma once
// Text helpers shared by the reporters.
#include <cstddef>
#include <string>
#include <string_view>

namespace mpsready {

// A relative path as a URI reference: '/' kept, every byte outside RFC 3986's unreserved and
// sub-delims characters percent-encoded (':' too, so "a:b.py" cannot read as a scheme; '(' and
// ')' too, so the result can sit inside a Markdown link).
std::string uri_path(std::string_view path);

// Repository text made inert in GitHub Markdown, for one line of prose or one table cell:
// Markdown punctuation backslash-escaped, '<' '>' '&' as entities (no HTML), '@' and URL schemes
// broken with a word joiner (no mention, no autolink), newlines as spaces, control characters
// as U+FFFD. The rendered text reads like the original.
std::string markdown_escape(std::string_view text);

// A message for Markdown prose: its `code spans` stay code spans (their text shown as written,
// which GitHub renders inert: no HTML, link or mention inside one), everything between them goes
// through markdown_escape. A text whose backticks do not pair as single ones (an odd count, a run
// of two or more, an empty span) is escaped whole.
std::string markdown_prose(std::string_view text);

// The scanned root as a shared report names it (JSON, SARIF, Markdown, HTML): a relative path as
// given, an absolute one by its last component (the scanning machine's directories are nobody's
// business in a report that is shared), "." as `name` when one is known.
std::string shared_root_label(const std::string& root, const std::string& name = "");

// "1 site", "3 sites": a count with the word that agrees with it.
std::string plural(size_t n, const std::string& one, const std::string& many);

}  // namespace mpsready
