# Experimental components; the package's __init__ imports one of them on its default path.
