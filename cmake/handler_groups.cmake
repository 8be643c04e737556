# Script mode: writes the list of the HTTP layer's handler groups, every
# FAKE_ORG_HANDLERS(name) that starts a line of a source in DIR (tests
# aside), as a C++ file that declares each group's function and lists it for
# all_handlers() (fake_org/http/routes.h).
#
#   cmake -DDIR=<fake_org/http> -DOUT=<generated .cpp> -P handler_groups.cmake
#
# The list names every group's function, so the linker keeps each handler
# file however little else refers to it (a static registrar would be dropped
# from the static library unseen). Fails on a group name used twice, a
# malformed one, or no group at all. OUT is rewritten only when the list
# changes, so an edit elsewhere in a handler file recompiles nothing else.
cmake_minimum_required(VERSION 3.18)
if(NOT DIR OR NOT OUT)
  message(FATAL_ERROR "handler_groups.cmake: pass -DDIR=<the http folder> -DOUT=<file to write>")
endif()
file(GLOB files RELATIVE ${DIR} ${DIR}/*.cpp)
list(FILTER files EXCLUDE REGEX "_test\\.cpp$")
list(SORT files)
set(names "")
set(problems "")
set(declarations "")
set(entries "")
foreach(file ${files})
  file(STRINGS ${DIR}/${file} lines REGEX "^FAKE_ORG_HANDLERS")
  foreach(line ${lines})
    if(NOT line MATCHES "^FAKE_ORG_HANDLERS\\(([a-z][a-z0-9_]*)\\)")
      string(APPEND problems "  http/${file}: ${line} (a group's name is lower case: [a-z][a-z0-9_]*)\n")
      continue()
    endif()
    set(name ${CMAKE_MATCH_1})
    if(DEFINED where_${name})
      string(APPEND problems "  http/${file}: group '${name}' is also defined in http/${where_${name}}\n")
      continue()
    endif()
    set(where_${name} ${file})
    list(APPEND names ${name})
    string(APPEND declarations "void handler_group_${name}(Handlers&, const HandlerContext&);\n")
    string(APPEND entries "      {\"${name}\", \"http/${file}\", &handler_group_${name}},\n")
  endforeach()
endforeach()
if(NOT problems STREQUAL "")
  message(FATAL_ERROR "Handler groups (FAKE_ORG_HANDLERS, fake_org/http/routes.h):\n${problems}")
endif()
if(names STREQUAL "")
  message(FATAL_ERROR "No FAKE_ORG_HANDLERS(name) starts a line of ${DIR}/*.cpp: the server "
                      "would mount no handler")
endif()
set(text "// Written by cmake/handler_groups.cmake from fake_org/http/*.cpp: every
// FAKE_ORG_HANDLERS group, for all_handlers() (http/routes.h).
#include \"http/routes.h\"

namespace fake_org::http {

${declarations}
const std::vector<HandlerGroup>& handler_groups() {
  static const std::vector<HandlerGroup> groups = {
${entries}  };
  return groups;
}

}  // namespace fake_org::http
")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
