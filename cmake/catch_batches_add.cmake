cmake_policy(SET CMP0007 NEW)
# Run after a Catch2 test executable is linked (project_catch_tests): lists
# its cases, deals them round-robin into batch files (cases declared side by
# side, often the slow ones of one file, land in different batches) and
# writes the CTest file that runs one process per batch.
execute_process(COMMAND ${EXECUTABLE} --list-test-names-only
                OUTPUT_VARIABLE output RESULT_VARIABLE result)
if(result LESS 0)
  message(FATAL_ERROR "listing the tests of ${EXECUTABLE} failed: ${result}")
endif()
# A ';' in a name would split CMake's list; such a case would not run.
string(REPLACE ";" "\\;" output "${output}")
string(REPLACE "\n" ";" names "${output}")
list(FILTER names EXCLUDE REGEX "^$")
list(LENGTH names count)
math(EXPR batches "(${count} + ${BATCH} - 1) / ${BATCH}")
if(batches EQUAL 0)
  set(batches 1)
endif()
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(index 0)
foreach(name IN LISTS names)
  math(EXPR b "${index} % ${batches} + 1")
  # Catch reads each line as a test spec inside quotes: escape what a spec
  # treats specially, so the line names exactly one case.
  string(REPLACE "\\" "\\\\" spec "${name}")
  foreach(char "\"" "," "[" "]")
    string(REPLACE "${char}" "\\${char}" spec "${spec}")
  endforeach()
  file(APPEND ${DIR}/${b}.txt "${spec}\n")
  math(EXPR index "${index} + 1")
endforeach()
set(script "")
foreach(b RANGE 1 ${batches})
  string(STRIP "${PREFIX}" prefix)
  set(test "${prefix} batch ${b} of ${batches}")
  file(STRINGS ${DIR}/${b}.txt lines)
  list(LENGTH lines n)
  math(EXPR timeout "${TIMEOUT} * 3 + ${n} * 10")
  math(EXPR cost "${n} * ${CASE_COST}")
  string(APPEND script
    "add_test([==[${test}]==] bash [==[${RUNNER}]==] [==[${EXECUTABLE}]==] [==[${DIR}/${b}.txt]==] ${n})\n"
    "set_tests_properties([==[${test}]==] PROPERTIES TIMEOUT ${timeout} COST ${cost})\n")
endforeach()
file(WRITE ${CTEST_FILE} "${script}")
