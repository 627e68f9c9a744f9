"""The bot runtime: settings, storage, sessions, clocks."""
