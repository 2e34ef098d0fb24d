"""The Textual app. Imported only for the full-screen command, never by the headless ones."""
