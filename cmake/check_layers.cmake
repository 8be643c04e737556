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
# count as the layers that may speak HTTP, read YAML and write SQLite
# (cmake/include_direction.cmake reads includes so for the runner's rooms too).
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
include(${CMAKE_CURRENT_LIST_DIR}/include_direction.cmake)
check_include_direction(
  ROOT ${ROOT} SHOWN "fake_org/" WORD layer LAYERS ${LAYERS}
  BARE fixtures_embedded.h=fixtures_embedded
  ORDER "util <- domain <- auth, events, fixture <- http <- app" DOC docs/architecture.md
  HINT "Move the code to the lower layer, or give the lower layer an interface the upper one \
implements (as domain/events.h does for webhooks).")
if(STAMP)
  file(TOUCH ${STAMP})
endif()
