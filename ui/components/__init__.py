"""The page's own elements (custom components), each a Python wrapper with its JS and CSS."""
