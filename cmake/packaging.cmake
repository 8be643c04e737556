# Installing without a clone: `cmake --install` lays out the two binaries,
# their man pages (help2man, from --help) and bash completions, and the
# fixtures, contracts, scenarios and docs (GNUInstallDirs); CPack turns that
# into fake-crm-org_<version>_<arch>.deb with its runtime dependencies read
# from the binaries (dpkg-shlibdeps). ci/package builds and checks it.
set(CMAKE_INSTALL_DOCDIR share/doc/fake-crm-org CACHE PATH "Documentation (DOCDIR)")
# Installing (and cpack) needs only what is installed, not every test and fuzz
# target: ci/package builds fake-org, scenario-runner and man_pages first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
include(GNUInstallDirs)
set(FAKE_ORG_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/fake-crm-org)

install(TARGETS fake-org scenario-runner RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/fixtures/ DESTINATION ${FAKE_ORG_SHARE_DIR}/fixtures)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scenarios/ DESTINATION ${FAKE_ORG_SHARE_DIR}/scenarios)
install(FILES ${CMAKE_SOURCE_DIR}/contracts/README.md ${CMAKE_SOURCE_DIR}/contracts/openapi.yaml
              ${CMAKE_SOURCE_DIR}/contracts/routes.yaml
        DESTINATION ${FAKE_ORG_SHARE_DIR}/contracts)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/contracts/schemas ${CMAKE_SOURCE_DIR}/contracts/examples
        DESTINATION ${FAKE_ORG_SHARE_DIR}/contracts)
# The README and docs/ keep the checkout's layout, so the relative links
# between them and the folders' READMEs work where they are installed: docs/
# beside the README; fixtures/, scenarios/ and contracts/ beside them as links
# to the installed folders, and docs beside those as a link back (ci/package
# checks every link there with ci/docs_links.py).
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
# fake_org_install_link(DIR NAME TARGET): DIR/NAME, relative to the prefix, a
# symbolic link to TARGET, relative to the prefix too.
function(fake_org_install_link dir name target)
  file(RELATIVE_PATH relative /${dir} /${target})
  install(CODE "
    set(dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${dir}\")
    file(MAKE_DIRECTORY \"\${dir}\")
    message(STATUS \"Installing: \${dir}/${name} -> ${relative}\")
    file(CREATE_LINK ${relative} \"\${dir}/${name}\" SYMBOLIC)")
endfunction()
foreach(folder fixtures scenarios contracts)
  fake_org_install_link(${CMAKE_INSTALL_DOCDIR} ${folder} ${FAKE_ORG_SHARE_DIR}/${folder})
endforeach()
fake_org_install_link(${FAKE_ORG_SHARE_DIR} docs ${CMAKE_INSTALL_DOCDIR}/docs)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/bash-completion/fake-org
              ${CMAKE_SOURCE_DIR}/packaging/bash-completion/scenario-runner
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

# Man pages from each binary's --help and --version, so they cannot drift
# from the options; compressed as Debian ships them.
find_program(HELP2MAN_EXECUTABLE help2man)
if(HELP2MAN_EXECUTABLE)
  set(man_pages)
  foreach(tool fake-org scenario-runner)
    if(tool STREQUAL "fake-org")
      set(what "an offline fake CRM org serving the Payment Intent Service API v2")
    else()
      set(what "replay YAML scenarios against a fake or real org and check the contracts")
    endif()
    set(page ${CMAKE_BINARY_DIR}/man/${tool}.1.gz)
    add_custom_command(
      OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
      # (a sanitized build's leak check has no business in a man page)
      COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 bash -c
              "set -o pipefail; \"$0\" --no-info --no-discard-stderr --name \"$1\" \"$2\" | gzip -9n > \"$3\""
              ${HELP2MAN_EXECUTABLE} ${what} $<TARGET_FILE:${tool}> ${page}
      DEPENDS ${tool}
      COMMENT "Writing the man page of ${tool} (help2man)"
      VERBATIM)
    list(APPEND man_pages ${page})
  endforeach()
  add_custom_target(man_pages ALL DEPENDS ${man_pages})
  install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man pages (ci/bootstrap installs it)")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fake-crm-org)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "fake-crm-org")
set(CPACK_PACKAGE_CONTACT "fake-crm-org maintainers <fake-crm-org@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Offline fake CRM org for the Payment Intent Service API v2, and a scenario runner")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "fake-org serves an in-memory CRM org (the Payment Intent Service API v2, OAuth,\n identity, the REST data API, a simulated PSP and webhooks) with a dashboard at\n /__admin/ui; scenario-runner replays YAML scenarios against it or a real\n sandbox and checks every response against the JSON contracts.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # fake-crm-org_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends: dpkg-shlibdeps on the binaries, run by cpack (cmake/cpack_depends.cmake.in
# says why not CPACK_DEBIAN_PACKAGE_SHLIBDEPS).
configure_file(${CMAKE_SOURCE_DIR}/cmake/cpack_depends.cmake.in
               ${CMAKE_BINARY_DIR}/CPackDepends.cmake @ONLY)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/CPackDepends.cmake)
set(CPACK_STRIP_FILES ON)
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR}/package)
include(CPack)
