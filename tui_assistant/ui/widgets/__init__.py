"""The widgets the screens compose; each posts messages and keeps its own look."""
