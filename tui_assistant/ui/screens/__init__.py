"""The app's screens: where the work of a question happens."""
