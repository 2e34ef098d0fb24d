"""Modal screens over the main screen: the help and the library report."""
