# `cpack -G DEB` in the build directory: mpsready_<version>_<arch>.deb (the scanner, its rules
# and docs) and mpsready-runtime_<version>_<arch>.deb (the LibTorch commands, which depends on
# it). Dependencies come from dpkg-shlibdeps: the libraries each binary links, so the scanner's
# package never pulls in LibTorch. `-D CPACK_COMPONENTS_ALL=scanner` builds the first alone.
set(CPACK_PACKAGE_NAME mpsready)
set(CPACK_PACKAGE_VENDOR "mpsready")
set(CPACK_PACKAGE_CONTACT "mpsready maintainers <mpsready@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Tells whether a PyTorch repository can move from Linux/CUDA to Apple's MPS backend")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL scanner)
if(TARGET mpsready-runtime)
  list(APPEND CPACK_COMPONENTS_ALL runtime)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
set(CPACK_DEBIAN_SCANNER_PACKAGE_NAME mpsready)
# git: --diff and the pre-commit hook.
set(CPACK_DEBIAN_SCANNER_PACKAGE_DEPENDS "git")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME mpsready-runtime)
set(CPACK_COMPONENT_RUNTIME_DEPENDS scanner)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENT_SCANNER_DESCRIPTION "mpsready scan: the static scanner, its rules and documentation")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "mpsready smoke, audit and ops: the LibTorch runtime commands")
include(CPack)
