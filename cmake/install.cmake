# Installing ossa like a C library: headers, static and shared libossa (and libossa-gl when the
# OpenGL layer is built), the ossa command, pkg-config files (ossa.pc, ossa-gl.pc, ossa-static.pc,
# ossa-gl-static.pc) and a CMake
# package (find_package(ossa) -> ossa::ossa, ossa::gl).
# Included at the end of the root CMakeLists.txt, once every target is defined.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# ossa_add_twin(LIB): the library of the other kind, built from the same sources and settings as
# LIB: with a static LIB (the default) this is LIB_shared, else LIB_static. Libraries LIB links
# that have a twin themselves are replaced by it (libossa-gl.so links libossa.so). Sets
# <LIB>_TWIN and <LIB>_TWIN_KIND.
function(ossa_add_twin lib)
    get_target_property(type ${lib} TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
        set(twin ${lib}_shared)
        set(kind SHARED)
    else()
        set(twin ${lib}_static)
        set(kind STATIC)
    endif()
    get_target_property(sources ${lib} SOURCES)
    add_library(${twin} ${kind} ${sources})
    foreach(prop INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES COMPILE_DEFINITIONS
            INTERFACE_COMPILE_DEFINITIONS COMPILE_OPTIONS LINK_OPTIONS)
        get_target_property(value ${lib} ${prop})
        if(value)
            set_property(TARGET ${twin} PROPERTY ${prop} "${value}")
        endif()
    endforeach()
    # What the twin links, and what its users link: LIB's public dependencies, plus (for a
    # static twin) its private ones, which a static library cannot carry.
    get_target_property(link ${lib} LINK_LIBRARIES)
    get_target_property(interface ${lib} INTERFACE_LINK_LIBRARIES)
    list(FILTER interface EXCLUDE REGEX "^\\$<LINK_ONLY:")
    set(twin_link "")
    set(twin_interface "")
    foreach(dep ${link})
        if(DEFINED ${dep}_TWIN)
            set(dep ${${dep}_TWIN})
        endif()
        list(APPEND twin_link ${dep})
    endforeach()
    foreach(dep ${interface})
        if(DEFINED ${dep}_TWIN)
            set(dep ${${dep}_TWIN})
        endif()
        list(APPEND twin_interface ${dep})
    endforeach()
    if(kind STREQUAL "STATIC")
        foreach(dep ${twin_link})
            if(NOT dep IN_LIST twin_interface)
                list(APPEND twin_interface "$<LINK_ONLY:${dep}>")
            endif()
        endforeach()
    endif()
    set_property(TARGET ${twin} PROPERTY LINK_LIBRARIES "${twin_link}")
    set_property(TARGET ${twin} PROPERTY INTERFACE_LINK_LIBRARIES "${twin_interface}")
    get_target_property(output ${lib} OUTPUT_NAME)
    get_target_property(export ${lib} EXPORT_NAME)
    if(NOT output)
        set(output ${lib})
    endif()
    if(NOT export)
        set(export ${lib})
    endif()
    string(TOLOWER "${kind}" suffix)
    set_target_properties(${twin} PROPERTIES OUTPUT_NAME ${output} EXPORT_NAME ${export}_${suffix})
    set(${lib}_TWIN ${twin} PARENT_SCOPE)
    set(${lib}_TWIN_KIND ${kind} PARENT_SCOPE)
endfunction()

# ossa_export_api(TARGET MAP HEADERS...): the shared library TARGET exports exactly the functions
# HEADERS declare (internal functions are named ossa_ too), through a generated version script.
# A declaration starts a line with its return type; the first "ossa_name(" is its name.
function(ossa_export_api target map)
    set(exports "")
    foreach(header ${ARGN})
        file(STRINGS ${header} declarations REGEX "^[A-Za-z_][A-Za-z0-9_ ]*[ *]ossa_[a-z0-9_]+\\(")
        foreach(line ${declarations})
            string(REGEX MATCH "ossa_[a-z0-9_]+\\(" name "${line}")
            string(REPLACE "(" ";" name "${name}")
            string(APPEND exports "        ${name}\n")
        endforeach()
    endforeach()
    set(OSSA_EXPORTS "${exports}")
    set(OSSA_LIBRARY_NAME "${map}")
    configure_file(${OSSA_CMAKE_SOURCE_DIR}/ossa.map.in ${CMAKE_BINARY_DIR}/${map}.map @ONLY)
    set_target_properties(${target} PROPERTIES LINK_DEPENDS ${CMAKE_BINARY_DIR}/${map}.map)
    target_link_options(${target} PRIVATE "LINKER:--version-script=${CMAKE_BINARY_DIR}/${map}.map"
        "LINKER:--no-undefined")
endfunction()
set(OSSA_CMAKE_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})

set(OSSA_LIBRARIES ossa)
if(TARGET ossa_gl)
    list(APPEND OSSA_LIBRARIES ossa_gl)
endif()
file(GLOB OSSA_API_HEADERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/include/ossa/*.h)
set(OSSA_CORE_HEADERS ${OSSA_API_HEADERS})
list(FILTER OSSA_CORE_HEADERS EXCLUDE REGEX "/gl\\.h$")
set(ossa_API_HEADERS ${OSSA_CORE_HEADERS})
set(ossa_gl_API_HEADERS ${CMAKE_SOURCE_DIR}/include/ossa/gl.h)

set(OSSA_INSTALL_TARGETS "")
foreach(lib ${OSSA_LIBRARIES})
    ossa_add_twin(${lib})
    list(APPEND OSSA_INSTALL_TARGETS ${lib} ${${lib}_TWIN})
    # Shared libraries get a versioned soname. The installed shared library exports the public
    # API only; when LIB itself is shared (BUILD_SHARED_LIBS) it keeps every symbol: the tests
    # and the command link it and use internal functions.
    foreach(target ${lib} ${${lib}_TWIN})
        get_target_property(kind ${target} TYPE)
        if(kind STREQUAL "SHARED_LIBRARY")
            set_target_properties(${target} PROPERTIES VERSION ${PROJECT_VERSION}
                SOVERSION ${PROJECT_VERSION_MAJOR})
        endif()
    endforeach()
    if(${lib}_TWIN_KIND STREQUAL "SHARED")
        get_target_property(output ${lib} OUTPUT_NAME)
        if(NOT output)
            set(output ${lib})
        endif()
        ossa_export_api(${${lib}_TWIN} ${output} ${${lib}_API_HEADERS})
    endif()
endforeach()

install(TARGETS ${OSSA_INSTALL_TARGETS} EXPORT ossaTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ossa_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET ossa_gl)
    set(OSSA_WITH_GL 1)
    install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/ossa DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
else()
    set(OSSA_WITH_GL 0)
    install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/ossa DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "gl.h" EXCLUDE)
endif()

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
# ossa and ossa-gl link the shared libraries; ossa-static and ossa-gl-static the archives.
set(OSSA_PC_FILES ossa ossa-static)
if(TARGET ossa_gl)
    list(APPEND OSSA_PC_FILES ossa-gl ossa-gl-static)
endif()
foreach(pc ${OSSA_PC_FILES})
    configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
    install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
