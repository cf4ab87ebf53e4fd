# Installation and packaging: shmpirun, the shmpicc/shmpicxx wrappers, mpi.h,
# libshmpi, a CMake package (find_package(shmpi CONFIG) -> shmpi::mpi) and
# shmpi.pc. Every installed file finds the others relative to itself, so an
# installed tree can be moved (tests/install checks this). Included at the end
# of the top-level CMakeLists.txt, after every target is defined; each rule is
# guarded because the targets arrive from several engineers independently.
include(CMakePackageConfigHelpers)

set(SHMPI_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/shmpi"
    CACHE STRING "where to install shmpi's CMake package, relative to the prefix")
mark_as_advanced(SHMPI_INSTALL_CMAKEDIR)

# ---- Targets -----------------------------------------------------------------

set(_shmpi_exported FALSE)
if(TARGET shmpi)
  install(TARGETS shmpi EXPORT shmpiTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set(_shmpi_exported TRUE)
endif()
if(TARGET shmpirun)
  # Exported too, as shmpi::shmpirun, so that consumers can run their tests.
  install(TARGETS shmpirun EXPORT shmpiTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set(_shmpi_exported TRUE)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

# ---- CMake package -----------------------------------------------------------

if(_shmpi_exported)
  install(EXPORT shmpiTargets NAMESPACE shmpi:: DESTINATION ${SHMPI_INSTALL_CMAKEDIR})
  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/shmpiConfig.cmake.in
    ${PROJECT_BINARY_DIR}/cmake/shmpiConfig.cmake
    INSTALL_DESTINATION ${SHMPI_INSTALL_CMAKEDIR})
  write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/cmake/shmpiConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/cmake/shmpiConfig.cmake
                ${PROJECT_BINARY_DIR}/cmake/shmpiConfigVersion.cmake
          DESTINATION ${SHMPI_INSTALL_CMAKEDIR})
endif()

# ---- pkg-config --------------------------------------------------------------

# shmpi.pc locates the prefix from its own directory (${pcfiledir}).
function(_shmpi_relative_to_prefix out_var dir)
  if(IS_ABSOLUTE "${dir}")
    message(FATAL_ERROR "shmpi: ${dir} must be relative to the prefix for a relocatable install")
  endif()
  file(RELATIVE_PATH rel "/prefix/${dir}" "/prefix")
  string(REGEX REPLACE "/$" "" rel "${rel}")
  if(rel STREQUAL "")
    set(rel ".")
  endif()
  set(${out_var} "${rel}" PARENT_SCOPE)
endfunction()

if(TARGET shmpi)
  _shmpi_relative_to_prefix(SHMPI_PC_TO_PREFIX "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/shmpi.pc.in ${PROJECT_BINARY_DIR}/shmpi.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/shmpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

# ---- Compiler wrappers -------------------------------------------------------

# shmpi_configure_wrapper(<name> <C|CXX> <incdir> <libdir> <bin-to-prefix> <output>)
# incdir/libdir are shell words: "$prefix/include" for the installed copy,
# absolute paths for the build-tree copy.
function(shmpi_configure_wrapper name lang incdir libdir bin_to_prefix output)
  set(SHMPI_WRAPPER_NAME ${name})
  set(SHMPI_WRAPPER_LANG ${lang})
  if(lang STREQUAL "C")
    set(SHMPI_WRAPPER_ENV SHMPI_CC)
    set(SHMPI_WRAPPER_COMPILER ${CMAKE_C_COMPILER})
  else()
    set(SHMPI_WRAPPER_ENV SHMPI_CXX)
    set(SHMPI_WRAPPER_COMPILER ${CMAKE_CXX_COMPILER})
  endif()
  set(SHMPI_WRAPPER_INCDIR "${incdir}")
  set(SHMPI_WRAPPER_LIBDIR "${libdir}")
  set(SHMPI_WRAPPER_BIN_TO_PREFIX "${bin_to_prefix}")
  string(MD5 tag "${output}")
  set(configured ${PROJECT_BINARY_DIR}/CMakeFiles/shmpi_wrappers/${tag}/${name})
  configure_file(${PROJECT_SOURCE_DIR}/tools/shmpicc.in ${configured} @ONLY)
  # file(GENERATE) resolves generator expressions ($<TARGET_FILE_DIR:shmpi>)
  # at generation time and sets the mode.
  file(GENERATE OUTPUT ${output} INPUT ${configured}
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                        WORLD_READ WORLD_EXECUTE)
endfunction()

if(TARGET shmpi)
  foreach(wrapper shmpicc:C shmpicxx:CXX)
    string(REPLACE ":" ";" wrapper "${wrapper}")
    list(GET wrapper 0 name)
    list(GET wrapper 1 lang)

    # Build tree: <build>/bin/<name>, for tests and benchmarks before install.
    shmpi_configure_wrapper(${name} ${lang} "${PROJECT_SOURCE_DIR}/include"
                            "$<TARGET_FILE_DIR:shmpi>" ".."
                            ${PROJECT_BINARY_DIR}/bin/${name})

    # Installed: every path relative to the wrapper's own directory.
    _shmpi_relative_to_prefix(bin_to_prefix "${CMAKE_INSTALL_BINDIR}")
    _shmpi_relative_to_prefix(check_relative "${CMAKE_INSTALL_INCLUDEDIR}")
    shmpi_configure_wrapper(${name} ${lang} "\$prefix/${CMAKE_INSTALL_INCLUDEDIR}"
                            "\$prefix/${CMAKE_INSTALL_LIBDIR}" "${bin_to_prefix}"
                            ${PROJECT_BINARY_DIR}/CMakeFiles/shmpi_wrappers/install/${name})
    install(PROGRAMS ${PROJECT_BINARY_DIR}/CMakeFiles/shmpi_wrappers/install/${name}
            DESTINATION ${CMAKE_INSTALL_BINDIR})
  endforeach()
endif()
