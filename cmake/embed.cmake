# embed_files(target NAMESPACE ns FILES a b ...): compiles text files into the
# target as `std::string_view ns::<sanitised file name>()` plus a lookup by
# relative name, so binaries carry their default fixture and schemas.
function(embed_files target)
  cmake_parse_arguments(E "" "NAMESPACE;BASE" "FILES" ${ARGN})
  set(gen_dir ${CMAKE_CURRENT_BINARY_DIR}/embedded_${target})
  # One target may embed several sets, each in its own namespace ("a::b" -> a_b_embedded.h).
  string(REPLACE "::" "_" stem "${E_NAMESPACE}")
  set(cpp ${gen_dir}/${target}_${stem}_embedded.cpp)
  set(hdr ${gen_dir}/${stem}_embedded.h)
  file(MAKE_DIRECTORY ${gen_dir})
  # A list cannot cross the command line intact; "|" never appears in our paths.
  string(REPLACE ";" "|" files_arg "${E_FILES}")
  add_custom_command(
    OUTPUT ${cpp} ${hdr}
    COMMAND ${CMAKE_COMMAND} -DOUT_CPP=${cpp} -DOUT_HDR=${hdr} -DNS=${E_NAMESPACE}
            -DBASE=${E_BASE} "-DFILES=${files_arg}" -P ${CMAKE_SOURCE_DIR}/cmake/embed_gen.cmake
    DEPENDS ${E_FILES} ${CMAKE_SOURCE_DIR}/cmake/embed_gen.cmake
    COMMENT "Embedding files into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE ${cpp})
  target_include_directories(${target} PUBLIC ${gen_dir})
endfunction()
