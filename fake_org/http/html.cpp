#include "http/html.h"

#include "util/text.h"

namespace fake_org::http {

std::string html_escape(std::string_view text) {
  return text::escape_markup(text, "&#39;");
}

}  // namespace fake_org::http
