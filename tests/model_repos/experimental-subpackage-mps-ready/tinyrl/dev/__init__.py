# Experimental components: not part of the package's public API.
