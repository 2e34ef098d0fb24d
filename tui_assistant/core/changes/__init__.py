"""What changed between two versions of one library: the package's own changelog
entries for the range (`changelog.py`), then its documentation's sections added,
removed, changed and moved (`diff.py`). Pure: passages in, changes out."""
