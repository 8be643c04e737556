# Script mode: fails when a source of fake_org/ includes a header of a layer
# above its own (docs/architecture: util <- domain <- auth, events, fixture
# <- http <- app). Tests (*_test.cpp and the test kit in testing/) are exempt:
# they link the whole org.
#
#   cmake -DROOT=<fake_org dir> [-DSTAMP=<file to touch on success>] -P check_layers.cmake
#
# A quoted include "x/y.h" names layer x when x is a layer folder, "checker/"
# the contract checker, "yaml/" the YAML reader (common/yaml), a bare "y.h"
# the including file's own folder; <httplib.h>, <yaml-cpp/...> and <sqlite3.h>
# count as the layers that may speak HTTP, read YAML and write SQLite.
cmake_minimum_required(VERSION 3.18)
set(LAYERS util domain auth events fixture durable http app testing)
set(ALLOWED_util util)
set(ALLOWED_domain util domain)
set(ALLOWED_auth util domain auth)
set(ALLOWED_events util domain events checker httplib)
set(ALLOWED_fixture util domain fixture yaml fixtures_embedded)
set(ALLOWED_durable util domain durable sqlite)
set(ALLOWED_http util domain auth events fixture http checker httplib)
set(ALLOWED_app util domain auth events fixture durable http app checker httplib yaml)

if(NOT ROOT)
  message(FATAL_ERROR "check_layers.cmake: pass -DROOT=<the fake_org folder>")
endif()
set(violations "")
foreach(layer ${LAYERS})
  if(layer STREQUAL "testing")
    continue()
  endif()
  file(GLOB_RECURSE files ${ROOT}/${layer}/*.cpp ${ROOT}/${layer}/*.h)
  foreach(file ${files})
    get_filename_component(name ${file} NAME)
    if(name MATCHES "_test\\.cpp$")
      continue()
    endif()
    file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line ${lines})
      set(target "")
      if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
        set(inc ${CMAKE_MATCH_1})
        if(inc MATCHES "^([A-Za-z_]+)/")
          set(target ${CMAKE_MATCH_1})
        elseif(inc STREQUAL "fixtures_embedded.h")
          set(target fixtures_embedded)
        else()
          set(target ${layer})
        endif()
      elseif(line MATCHES "#[ \t]*include[ \t]*<httplib\\.h>")
        set(target httplib)
      elseif(line MATCHES "#[ \t]*include[ \t]*<yaml-cpp/")
        set(target yaml)
      elseif(line MATCHES "#[ \t]*include[ \t]*<sqlite3\\.h>")
        set(target sqlite)
      endif()
      if(target STREQUAL "")
        continue()
      endif()
      if(NOT target IN_LIST ALLOWED_${layer})
        string(REPLACE ";" ", " allowed "${ALLOWED_${layer}}")
        file(RELATIVE_PATH rel ${ROOT} ${file})
        string(STRIP "${line}" shown)
        string(APPEND violations
               "  fake_org/${rel}: ${shown} (layer '${layer}' may use: ${allowed})\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(NOT violations STREQUAL "")
  message(FATAL_ERROR
          "An include against the layers' direction (util <- domain <- auth, events, fixture "
          "<- http <- app; docs/architecture.md):\n${violations}"
          "Move the code to the lower layer, or give the lower layer an interface the upper "
          "one implements (as domain/events.h does for webhooks).")
endif()
if(STAMP)
  file(TOUCH ${STAMP})
endif()
