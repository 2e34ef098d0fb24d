"""Documents to passages: Markdown, reStructuredText and plain text read into titled
passages with their ids and file lines (`split.split_document`)."""
