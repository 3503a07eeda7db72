# cmake --install build --prefix P installs (docs/install.md):
#   P/bin                    augur, tspp
#   P/lib                    libaugur.so (the C API), libaugur_preload.so and libaugur_ompt.so (augur run),
#                            the engines' static libraries, cmake/augur/ (find_package) and pkgconfig/augur.pc
#   P/include/augur          the public headers (include/augur/ of the source tree, nothing from src/)
#   P/share/doc/augur        the guide
#   P/share/augur/examples   the examples' programs and inputs
# The installation is relocatable: the augur binary finds its libraries and headers relative to itself,
# the CMake package relative to its own folder, augur.pc relative to ${pcfiledir}.
include(CMakePackageConfigHelpers)

set(AUGUR_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/augur)

# The libraries a user may link, under the namespace augur::
#   augur::augur            libaugur, the C API of include/augur/augur.h (and coupling.h, augur_mpi.h)
#   augur::core             diagnostics, the expression language, statistics
#   augur::dpd              the Dynamic Periodicity Detector
#   augur::selfanalysis     the speedup engine and its report format
#   augur::tspp             task systems: the language and the predictor
#   augur::coupling         coupling values and predictors
#   augur::sim_engine       the discrete-event engine
#   augur::sim_task_system  the task-system simulator
set(AUGUR_EXPORTED_LIBRARIES augur_runtime augur_core augur_dpd augur_selfanalysis augur_tspp augur_coupling augur_sim_engine
  augur_sim_task_system)
set_target_properties(augur_runtime PROPERTIES EXPORT_NAME augur)
foreach(library IN LISTS AUGUR_EXPORTED_LIBRARIES)
  if(NOT library STREQUAL "augur_runtime")
    string(REGEX REPLACE "^augur_" "" export_name ${library})
    set_target_properties(${library} PROPERTIES EXPORT_NAME ${export_name})
  endif()
endforeach()

install(TARGETS ${AUGUR_EXPORTED_LIBRARIES} EXPORT augurTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS augur tspp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS augur_preload LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET augur_ompt)
  install(TARGETS augur_ompt LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/augur DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT augurTargets NAMESPACE augur:: DESTINATION ${AUGUR_INSTALL_CMAKEDIR} FILE augurTargets.cmake)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/augurConfig.cmake.in ${PROJECT_BINARY_DIR}/augurConfig.cmake
  INSTALL_DESTINATION ${AUGUR_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/augurConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/augurConfig.cmake ${PROJECT_BINARY_DIR}/augurConfigVersion.cmake
  DESTINATION ${AUGUR_INSTALL_CMAKEDIR})

# augur.pc finds its prefix from its own folder, so that a moved installation still works.
file(RELATIVE_PATH AUGUR_PKGCONFIG_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" AUGUR_PKGCONFIG_TO_PREFIX "${AUGUR_PKGCONFIG_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/augur.pc.in ${PROJECT_BINARY_DIR}/augur.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/augur.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/augur/examples
  PATTERN CMakeLists.txt EXCLUDE PATTERN Examples.cmake EXCLUDE)

# augur's man pages and completion scripts, generated from the command table when augur is linked
# (src/cli/CMakeLists.txt, docs/cli.md).
install(DIRECTORY ${AUGUR_GENERATED_HELP_DIR}/man/man1 DESTINATION ${CMAKE_INSTALL_MANDIR})
install(FILES ${AUGUR_GENERATED_HELP_DIR}/bash-completion/completions/augur
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${AUGUR_GENERATED_HELP_DIR}/zsh/site-functions/_augur DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
