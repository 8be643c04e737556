# Script mode: fails when a source of fake_org/ includes a header of a layer
# above its own (docs/architecture.md: util <- net; util <- domain <- auth,
# events, fixture, durable <- http <- app; domain, fixture <- admin <- http), or when a source of the domain
# includes a header of a room above its own (core <- store <- config <- org
# <- payers, banking <- payments; soql <- data <- bulk beside payments; the files at
# domain/'s top, which wire the rooms, above them all), or a header in
# another room's internal/ folder. Tests (*_test.cpp and the test kit in
# testing/) are exempt: they link the whole org.
#
#   cmake -DROOT=<fake_org dir> [-DSTAMP=<file to touch on success>] -P check_layers.cmake
#
# A quoted include "x/y.h" names layer x when x is a layer folder, "checker/"
# the contract checker, "yaml/" the YAML reader (common/yaml), "cli/" the
# command lines' usage errors (common/cli, for main.cpp alone), a bare "y.h"
# the including file's own folder; "domain/r/..." names the domain's room r;
# <httplib.h>, <yaml-cpp/...> and <sqlite3.h> count as the layers that may
# speak HTTP, read YAML and write SQLite. (The runner's rooms have a simpler
# check of the same kind: cmake/check_runner_rooms.cmake.)
cmake_minimum_required(VERSION 3.18)
set(LAYERS util net domain auth events fixture durable admin http app testing)
set(ALLOWED_util util)
set(ALLOWED_net util net httplib)
set(ALLOWED_domain util domain)
set(ALLOWED_auth util domain auth)
set(ALLOWED_events util domain events checker httplib)
set(ALLOWED_fixture util domain fixture yaml fixtures_embedded)
set(ALLOWED_durable util domain durable sqlite)
set(ALLOWED_admin util domain fixture admin)
set(ALLOWED_http util net domain auth events fixture admin http checker httplib)
set(ALLOWED_app util net domain auth events fixture durable admin http app checker httplib yaml cli)

set(ROOMS core store config org payers banking payments soql data bulk)
set(ROOM_core core)
set(ROOM_store core store)
set(ROOM_config core store config)
set(ROOM_org core store config org)
set(ROOM_payers core store config org payers)
set(ROOM_banking core store config org banking)
set(ROOM_payments core store config org payers banking payments)
set(ROOM_soql core store config org soql)
set(ROOM_data core store config org soql data)
set(ROOM_bulk core store config org soql data bulk)
set(ROOM_top ${ROOMS} top)

include(${CMAKE_CURRENT_LIST_DIR}/include_direction.cmake)  # what an include names

if(NOT ROOT)
  message(FATAL_ERROR "check_layers.cmake: pass -DROOT=<the fake_org folder>")
endif()
set(violations "")
set(room_violations "")
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
    file(RELATIVE_PATH rel ${ROOT} ${file})
    # The domain room of this file: domain/<room>/..., or "top" for a file
    # directly in domain/.
    set(room "")
    if(layer STREQUAL "domain")
      if(rel MATCHES "^domain/([A-Za-z_]+)/")
        set(room ${CMAKE_MATCH_1})
        if(NOT room IN_LIST ROOMS)
          string(APPEND room_violations
                 "  fake_org/${rel}: '${room}' is not a room of the domain (${ROOMS})\n")
          continue()
        endif()
      else()
        set(room top)
      endif()
    endif()
    file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line ${lines})
      set(target_room "")
      string(STRIP "${line}" shown)
      _include_direction_target("${line}" ${layer} "fixtures_embedded.h=fixtures_embedded" target)
      if(line MATCHES "#[ \t]*include[ \t]*\"domain/([A-Za-z_]+)/")
        set(target_room ${CMAKE_MATCH_1})
        if(line MATCHES "\"domain/[A-Za-z_]+/internal/" AND NOT room STREQUAL target_room)
          string(APPEND room_violations
                 "  fake_org/${rel}: ${shown} (internal to the room '${target_room}')\n")
        endif()
      endif()
      if(target STREQUAL "")
        continue()
      endif()
      if(NOT target IN_LIST ALLOWED_${layer})
        string(REPLACE ";" ", " allowed "${ALLOWED_${layer}}")
        string(APPEND violations
               "  fake_org/${rel}: ${shown} (layer '${layer}' may use: ${allowed})\n")
      elseif(NOT room STREQUAL "" AND NOT target_room STREQUAL ""
             AND NOT target_room IN_LIST ROOM_${room})
        string(REPLACE ";" ", " allowed "${ROOM_${room}}")
        string(APPEND room_violations
               "  fake_org/${rel}: ${shown} (room '${room}' may use: ${allowed})\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(NOT violations STREQUAL "")
  message(FATAL_ERROR
          "An include against the layers' direction (util <- net; util <- domain <- auth, "
          "events, fixture, durable <- http <- app; domain, fixture <- admin <- http; "
          "docs/architecture.md):\n${violations}"
          "Move the code to the lower layer, or give the lower layer an interface the upper "
          "one implements (as domain/core/events.h does for webhooks).")
endif()
if(NOT room_violations STREQUAL "")
  message(FATAL_ERROR
          "An include against the direction of the domain's rooms (core <- store <- config "
          "<- org <- payers, banking <- payments; org <- soql <- data <- bulk; the top of domain/ "
          "wires them; docs/architecture.md):\n${room_violations}"
          "Move the code to the lower room, let the lower room declare what the upper one "
          "registers (as domain/org/org_modules.h does), or keep a room's internal/ headers "
          "to that room.")
endif()
if(STAMP)
  file(TOUCH ${STAMP})
endif()
