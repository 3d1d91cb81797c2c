# Installing ossa like a C library: headers, static and shared libossa, the ossa command, a
# pkg-config file (ossa.pc) and a CMake package (find_package(ossa) -> ossa::ossa).
# Included at the end of the root CMakeLists.txt, once every target is defined.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The library of the other kind, built from the same sources and settings as `ossa`: with the
# default static `ossa` this is `ossa_shared` (libossa.so), else `ossa_static` (libossa.a).
get_target_property(_ossa_type ossa TYPE)
if(_ossa_type STREQUAL "STATIC_LIBRARY")
    set(OSSA_TWIN ossa_shared)
    set(_ossa_twin_kind SHARED)
else()
    set(OSSA_TWIN ossa_static)
    set(_ossa_twin_kind STATIC)
endif()
get_target_property(_ossa_sources ossa SOURCES)
add_library(${OSSA_TWIN} ${_ossa_twin_kind} ${_ossa_sources})
add_library(ossa::${OSSA_TWIN} ALIAS ${OSSA_TWIN})
foreach(_prop INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES COMPILE_DEFINITIONS
        INTERFACE_COMPILE_DEFINITIONS COMPILE_OPTIONS LINK_OPTIONS LINK_LIBRARIES)
    get_target_property(_value ossa ${_prop})
    if(_value)
        set_property(TARGET ${OSSA_TWIN} PROPERTY ${_prop} "${_value}")
    endif()
endforeach()
# What users of the twin link: ossa's public dependencies, plus (for a static twin) its
# private ones, which a static library cannot carry.
get_target_property(_ossa_link ossa LINK_LIBRARIES)
get_target_property(_ossa_interface ossa INTERFACE_LINK_LIBRARIES)
list(FILTER _ossa_interface EXCLUDE REGEX "^\\$<LINK_ONLY:")
if(_ossa_twin_kind STREQUAL "STATIC")
    foreach(_dep ${_ossa_link})
        if(NOT _dep IN_LIST _ossa_interface)
            list(APPEND _ossa_interface "$<LINK_ONLY:${_dep}>")
        endif()
    endforeach()
endif()
set_property(TARGET ${OSSA_TWIN} PROPERTY INTERFACE_LINK_LIBRARIES "${_ossa_interface}")
set_target_properties(${OSSA_TWIN} PROPERTIES OUTPUT_NAME ossa EXPORT_NAME ${OSSA_TWIN})

# The installed shared library exports the public API only (the functions the installed headers
# declare; internal functions are named ossa_ too), with a versioned soname. When `ossa` itself
# is shared (BUILD_SHARED_LIBS), it keeps every symbol: the tests and the command link it and
# use internal functions.
foreach(_lib ossa ${OSSA_TWIN})
    get_target_property(_kind ${_lib} TYPE)
    if(_kind STREQUAL "SHARED_LIBRARY")
        set_target_properties(${_lib} PROPERTIES VERSION ${PROJECT_VERSION}
            SOVERSION ${PROJECT_VERSION_MAJOR})
    endif()
endforeach()
if(_ossa_twin_kind STREQUAL "SHARED")
    # A declaration starts a line with its return type; the first "ossa_name(" is its name.
    file(GLOB _ossa_api_headers CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/include/ossa/*.h)
    list(FILTER _ossa_api_headers EXCLUDE REGEX "/gl\\.h$") # libossa_gpu is not installed
    set(_ossa_exports "")
    foreach(_header ${_ossa_api_headers})
        file(STRINGS ${_header} _declarations REGEX "^[A-Za-z_][A-Za-z0-9_ ]*[ *]ossa_[a-z0-9_]+\\(")
        foreach(_line ${_declarations})
            string(REGEX MATCH "ossa_[a-z0-9_]+\\(" _name "${_line}")
            string(REPLACE "(" ";" _name "${_name}")
            string(APPEND _ossa_exports "        ${_name}\n")
        endforeach()
    endforeach()
    set(OSSA_EXPORTS "${_ossa_exports}")
    configure_file(${CMAKE_CURRENT_LIST_DIR}/ossa.map.in ${CMAKE_BINARY_DIR}/ossa.map @ONLY)
    set_target_properties(${OSSA_TWIN} PROPERTIES LINK_DEPENDS ${CMAKE_BINARY_DIR}/ossa.map)
    target_link_options(${OSSA_TWIN} PRIVATE "LINKER:--version-script=${CMAKE_BINARY_DIR}/ossa.map")
endif()

install(TARGETS ossa ${OSSA_TWIN} EXPORT ossaTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ossa_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The OpenGL layer (gl.h, ossa_gpu) is not part of the installed package yet.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/ossa DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.h" PATTERN "gl.h" EXCLUDE)

set(OSSA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ossa)
install(EXPORT ossaTargets NAMESPACE ossa:: DESTINATION ${OSSA_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ossaConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/ossaConfig.cmake INSTALL_DESTINATION ${OSSA_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ossaConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ossaConfig.cmake
    ${CMAKE_CURRENT_BINARY_DIR}/ossaConfigVersion.cmake DESTINATION ${OSSA_CMAKE_DIR})

# pkg-config: the prefix is found relative to the .pc file, so the tree can be moved.
string(REGEX REPLACE "[^/]+" ".." OSSA_PC_UP "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(${CMAKE_CURRENT_LIST_DIR}/ossa.pc.in ${CMAKE_CURRENT_BINARY_DIR}/ossa.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ossa.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
