# project_catch_tests(TARGET PREFIX p TIMEOUT s [CASE_COST c]): the CTest tests of a Catch2
# executable. By default one CTest test per test case (catch_discover_tests),
# which is what a developer wants from `ctest -R`. With
# FAKE_ORG_TEST_BATCH=N (ci/test and ci/tsan set it), the cases are dealt
# round-robin into batches of about N, each run by one process: a sanitizer
# build spends about 0.35 s starting and leak-checking each test process,
# which over 1,100 cases was a sixth of CI's test phase (decision 210).
# CASE_COST, a case's usual seconds under ASan, orders the batches in CTest's
# queue (COST) so the long ones start first.
set(FAKE_ORG_TEST_BATCH 0 CACHE STRING
    "Run Catch2 test cases in batches of about this many per process (0: one CTest test per case)")

set(_CATCH_BATCH_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/catch_batches_add.cmake)
set(_CATCH_BATCH_RUNNER ${CMAKE_CURRENT_LIST_DIR}/catch_batch_run.sh)

function(project_catch_tests target)
  cmake_parse_arguments(ARG "" "PREFIX;TIMEOUT;CASE_COST" "" ${ARGN})
  if(NOT ARG_CASE_COST)
    set(ARG_CASE_COST 1)
  endif()
  fake_org_without_coverage(${target})
  if(NOT FAKE_ORG_TEST_BATCH OR FAKE_ORG_TEST_BATCH LESS_EQUAL 0)
    # -w NoTests: a test whose name CTest cannot hand back to Catch (a ';'
    # splits it) fails instead of passing without running.
    catch_discover_tests(${target} EXTRA_ARGS -w NoTests TEST_PREFIX "${ARG_PREFIX}"
                         PROPERTIES TIMEOUT ${ARG_TIMEOUT})
    return()
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_batches)
  set(ctest_file ${dir}/batches.cmake)
  add_custom_command(TARGET ${target} POST_BUILD BYPRODUCTS ${ctest_file}
    COMMAND ${CMAKE_COMMAND} -D EXECUTABLE=$<TARGET_FILE:${target}> -D DIR=${dir}
            "-DPREFIX=${ARG_PREFIX}" -D BATCH=${FAKE_ORG_TEST_BATCH} -D TIMEOUT=${ARG_TIMEOUT} -D CASE_COST=${ARG_CASE_COST}
            -D RUNNER=${_CATCH_BATCH_RUNNER} -D CTEST_FILE=${ctest_file}
            -P ${_CATCH_BATCH_SCRIPT}
    VERBATIM)
  # A build of some targets only (ci/tsan) has no batch file for the others:
  # they show as one NOT_BUILT test, as catch_discover_tests does.
  set(include_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_batches_include.cmake)
  file(WRITE ${include_file}
       "if(EXISTS [==[${ctest_file}]==])\n"
       "  include([==[${ctest_file}]==])\n"
       "else()\n"
       "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
