# One place for the version: project() at the top of CMakeLists.txt, plus the
# git commit built, in a generated header (project_version.h) that both
# binaries' --version print. The commit is read at build time, not at
# configure time, so a commit after configuring still shows; the header is
# rewritten only when its text changes, so nothing recompiles otherwise.
set(PROJECT_VERSION_DIR ${CMAKE_BINARY_DIR}/generated)
add_custom_target(
  project_version
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
          -DOUT=${PROJECT_VERSION_DIR}/project_version.h -DVERSION=${PROJECT_VERSION} -P
          ${CMAKE_SOURCE_DIR}/cmake/write_version.cmake
  BYPRODUCTS ${PROJECT_VERSION_DIR}/project_version.h
  COMMENT "Reading the git commit for --version"
  VERBATIM)
add_library(project_version_info INTERFACE)
target_include_directories(project_version_info INTERFACE ${PROJECT_VERSION_DIR})
