# Script mode: fails when a source of runner/src includes a header of a room
# above its own (docs/architecture.md, "The runner's rooms"), lowest first:
#   json <- eval <- scenario <- net <- report <- targets <- steps <- run <- commands <- main
# A room may include its own headers and those of the rooms below it
# (main.cpp, the top, only the commands). Of the rest of the project: fake_org's
# util/ (every room), the org (domain, fixture, events, app) only in targets,
# which starts orgs and loads fixtures, domain and fixture (its provider-states
# file, for import-pact) in commands; the contract checker (checker/) from targets up; the usage errors (common/cli) in main.cpp;
# the YAML reader and yaml-cpp (yaml) and
# cpp-httplib (httplib) where listed. Tests (*_test.cpp) and the test kit
# (testing/) are exempt: they link the whole runner.
#
#   cmake -DROOT=<runner/src dir> [-DSTAMP=<file to touch on success>] -P check_runner_rooms.cmake
#
# No room may be named like a fake_org layer (util, domain, ...): "util/x.h"
# must keep naming fake_org's util.
cmake_minimum_required(VERSION 3.18)
set(ROOMS json eval scenario net report targets steps run commands testing)
set(ALLOWED_json json util yaml)
set(ALLOWED_eval json eval util)
set(ALLOWED_scenario json eval scenario util yaml)
set(ALLOWED_net json eval scenario net util httplib)
set(ALLOWED_report json eval scenario net report util)
set(ALLOWED_targets json eval scenario net report targets util domain fixture events app checker
    yaml)
set(ALLOWED_steps json eval scenario net report targets steps util checker)
set(ALLOWED_run json eval scenario net report targets steps run util checker)
set(ALLOWED_commands json eval scenario net report targets steps run commands util domain fixture checker
    yaml httplib project_version)
set(ALLOWED_main commands util cli)

if(NOT ROOT)
  message(FATAL_ERROR "check_runner_rooms.cmake: pass -DROOT=<the runner/src folder>")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/include_direction.cmake)
check_include_direction(
  ROOT ${ROOT} SHOWN "runner/src/" WORD room LAYERS ${ROOMS} TOP main
  BARE project_version.h=project_version
  ORDER "json <- eval <- scenario <- net <- report <- targets <- steps <- run <- commands <- main"
  DOC docs/architecture.md
  HINT "Move the code to the lower room (as the run's results moved to report/), or pass the \
lower room what it needs from above.")
if(STAMP)
  file(TOUCH ${STAMP})
endif()
