# The tree-sitter-python grammar mpsready is built and tested against.
# The tarball is the package as published on the npm registry; its hash is checked before use.
set(TREE_SITTER_PYTHON_VERSION "0.23.6")
set(TREE_SITTER_PYTHON_NPM_SPEC "tree-sitter-python@${TREE_SITTER_PYTHON_VERSION}")
set(TREE_SITTER_PYTHON_TARBALL_NAME "tree-sitter-python-${TREE_SITTER_PYTHON_VERSION}.tgz")
set(TREE_SITTER_PYTHON_SHA256 "aab5b860d93dbf84b37fed532f7dacc0468ede5387d0c74911d68f964287662a")
