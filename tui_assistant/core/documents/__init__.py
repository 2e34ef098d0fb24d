"""Documents to passages: each format of document file (`formats`: Markdown,
reStructuredText, plain text, HTML, PDF, Python source) read into titled passages with
their ids and file lines (`split.split_document`)."""
