# Fuzz targets (docs/fuzzing.md). With FAKE_ORG_FUZZ (clang only) every
# target of the project gets libFuzzer's coverage instrumentation and each
# fuzz target links libFuzzer; ci/fuzz runs them. Without it a fuzz target is
# linked with cmake/fuzz_replay_main.cpp instead. Either way CTest replays
# each target's kept regression inputs and seeds (fuzz.<name>.replay), so an
# input that once crashed is tried again by every ci/test.
#
# FAKE_ORG_FUZZ_COVERAGE says how much: `full` is libFuzzer's own choice
# (-fsanitize=fuzzer-no-link: edges, indirect calls, stack depth and a call
# per comparison, which guides mutations towards the values compared);
# `edges` counts edges only. ci/test's build, which every test also runs
# on, takes `edges` (docs/fuzzing.md has the figures).
option(FAKE_ORG_FUZZ "Build the fuzz targets with libFuzzer (clang only; ci/fuzz)" OFF)
set(FAKE_ORG_FUZZ_COVERAGE full CACHE STRING "libFuzzer's instrumentation with FAKE_ORG_FUZZ: full or edges")
set_property(CACHE FAKE_ORG_FUZZ_COVERAGE PROPERTY STRINGS full edges)
if(FAKE_ORG_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "FAKE_ORG_FUZZ needs clang (libFuzzer); configure with CMAKE_CXX_COMPILER=clang++")
  endif()
  if(FAKE_ORG_FUZZ_COVERAGE STREQUAL "full")
    target_compile_options(project_options INTERFACE -fsanitize=fuzzer-no-link)
  elseif(FAKE_ORG_FUZZ_COVERAGE STREQUAL "edges")
    target_compile_options(project_options INTERFACE -fsanitize-coverage=inline-8bit-counters,pc-table)
  else()
    message(FATAL_ERROR "FAKE_ORG_FUZZ_COVERAGE is full or edges, not '${FAKE_ORG_FUZZ_COVERAGE}'")
  endif()
endif()

# A test executable's own code is never fuzzed, so it needs no counters
# (the library code it links keeps them): a unity file of fake_org_tests
# compiles in 15.4 s of CPU without them against 16.8 s with edges.
function(fake_org_without_coverage target)
  if(NOT FAKE_ORG_FUZZ)
    return()
  endif()
  if(FAKE_ORG_FUZZ_COVERAGE STREQUAL "full")
    target_compile_options(${target} PRIVATE -fno-sanitize=fuzzer-no-link)
  else()
    target_compile_options(${target} PRIVATE -fno-sanitize-coverage=inline-8bit-counters,pc-table)
  endif()
endfunction()

# add_fuzz_target(<name> SOURCES <files> LIBS <libraries> REPLAY <files or folders>)
function(add_fuzz_target name)
  cmake_parse_arguments(F "" "" "SOURCES;LIBS;REPLAY" ${ARGN})
  add_executable(fuzz_${name} ${F_SOURCES})
  target_link_libraries(fuzz_${name} PRIVATE project_options ${F_LIBS})
  if(FAKE_ORG_FUZZ)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  else()
    target_sources(fuzz_${name} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/fuzz_replay_main.cpp)
  endif()
  if(FAKE_ORG_TESTS)
    add_test(NAME fuzz.${name}.replay COMMAND fuzz_${name} -runs=0 ${F_REPLAY})
    set_tests_properties(fuzz.${name}.replay PROPERTIES TIMEOUT 600 LABELS fuzz)
  endif()
endfunction()
