#include "steps/captures.h"

#include <regex>

#include "eval/json_path.h"

namespace runner {

std::vector<Failure> apply_captures(const std::vector<Capture>& captures, const CaptureSource& from,
                                    Variables& vars) {
  std::vector<Failure> out;
  for (const auto& c : captures) {
    std::optional<nlohmann::json> value;
    std::string where;
    switch (c.from) {
      case Capture::From::kBody:
        where = "path " + c.path;
        if (from.body)
          if (const auto* v = find_path(*from.body, c.path)) value = *v;
        break;
      case Capture::From::kHeader:
        where = "header " + c.header;
        if (from.headers)
          for (const auto& [k, v] : *from.headers)
            if (iequals(k, c.header)) {
              value = v;
              break;
            }
        break;
      case Capture::From::kStatus:
        where = "status";
        value = from.status;
        break;
    }
    if (value && !c.regex.empty()) {
      std::smatch m;
      const std::string text = to_text(*value);
      if (std::regex_search(text, m, std::regex(c.regex))) {
        value = m.size() > 1 ? m[1].str() : m[0].str();
      } else {
        out.push_back({"capture",
                       "capture '" + c.var + "' (" + c.pos.str() + "): /" + c.regex +
                           "/ does not match " + nlohmann::json(text).dump(),
                       {},
                       ""});
        continue;
      }
    }
    if (!value) {
      std::string body = from.body ? from.body->dump() : "(no JSON body)";
      if (body.size() > 400) body = body.substr(0, 400) + "...";
      out.push_back(
          {"capture",
           "capture '" + c.var + "' (" + c.pos.str() + "): " + where + " finds nothing in " + body,
           {},
           ""});
      continue;
    }
    vars[c.var] = *value;
  }
  return out;
}

}  // namespace runner
