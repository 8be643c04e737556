# The include-direction check that cmake/check_runner_rooms.cmake (the
# runner's rooms) runs in script mode; cmake/check_layers.cmake (fake_org's
# layers and the domain's nested rooms) shares what an include names:
#
#   check_include_direction(ROOT <folder> SHOWN <prefix> WORD <layer|room>
#                           ORDER <text> DOC <file> HINT <text> LAYERS <folder>...
#                           [TOP <layer>] [BARE <header>=<name>...])
#
# Each LAYERS folder of ROOT is a layer; ALLOWED_<layer> (set by the caller)
# names what its sources may include. An include names:
#   "x/y.h"          x (a layer folder, "checker/" the contract checker, "yaml/"
#                    the YAML reader, or a layer of another part: fake_org's
#                    "util/" for the runner);
#   "y.h"            the including file's own layer, unless BARE maps the name;
#   <httplib.h>      httplib; <yaml-cpp/...> yaml; <sqlite3.h> sqlite.
# Other <...> includes (the standard library, JSON, OpenSSL) are not checked.
# TOP names the layer of the files directly in ROOT (the runner's main.cpp).
# Tests (*_test.cpp) and the test kit (a layer named testing) are exempt: they
# link everything. Fails with one line per include against the direction,
# naming the file (SHOWN + its path under ROOT) and the include.

function(_include_direction_target line layer bare out)
  set(target "")
  if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
    set(inc ${CMAKE_MATCH_1})
    if(inc MATCHES "^([A-Za-z_]+)/")
      set(target ${CMAKE_MATCH_1})
    else()
      set(target ${layer})
      foreach(pair ${bare})
        if(pair MATCHES "^([^=]+)=(.+)$" AND inc STREQUAL CMAKE_MATCH_1)
          set(target ${CMAKE_MATCH_2})
        endif()
      endforeach()
    endif()
  elseif(line MATCHES "#[ \t]*include[ \t]*<httplib\\.h>")
    set(target httplib)
  elseif(line MATCHES "#[ \t]*include[ \t]*<yaml-cpp/")
    set(target yaml)
  elseif(line MATCHES "#[ \t]*include[ \t]*<sqlite3\\.h>")
    set(target sqlite)
  endif()
  set(${out} "${target}" PARENT_SCOPE)
endfunction()

function(check_include_direction)
  cmake_parse_arguments(C "" "ROOT;SHOWN;WORD;ORDER;DOC;HINT;TOP" "LAYERS;BARE" ${ARGN})
  if(NOT C_ROOT)
    message(FATAL_ERROR "check_include_direction: pass ROOT <folder>")
  endif()
  set(groups "")
  foreach(layer ${C_LAYERS})
    if(NOT layer STREQUAL "testing")
      list(APPEND groups ${layer})
    endif()
  endforeach()
  if(C_TOP)
    list(APPEND groups ${C_TOP})
  endif()
  set(violations "")
  foreach(layer ${groups})
    if(layer STREQUAL C_TOP)
      file(GLOB files ${C_ROOT}/*.cpp ${C_ROOT}/*.h)
    else()
      file(GLOB_RECURSE files ${C_ROOT}/${layer}/*.cpp ${C_ROOT}/${layer}/*.h)
    endif()
    foreach(file ${files})
      get_filename_component(name ${file} NAME)
      if(name MATCHES "_test\\.cpp$")
        continue()
      endif()
      file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
      foreach(line ${lines})
        _include_direction_target("${line}" ${layer} "${C_BARE}" target)
        if(target STREQUAL "" OR target IN_LIST ALLOWED_${layer})
          continue()
        endif()
        string(REPLACE ";" ", " allowed "${ALLOWED_${layer}}")
        file(RELATIVE_PATH rel ${C_ROOT} ${file})
        string(STRIP "${line}" shown)
        string(APPEND violations
               "  ${C_SHOWN}${rel}: ${shown} (${C_WORD} '${layer}' may use: ${allowed})\n")
      endforeach()
    endforeach()
  endforeach()
  if(NOT violations STREQUAL "")
    message(FATAL_ERROR "An include against the ${C_WORD}s' direction (${C_ORDER}; ${C_DOC}):\n"
                        "${violations}${C_HINT}")
  endif()
endfunction()
