"""Competitions: group events (races and challenges), and per mode what says a game's competition is over."""
