"""Competitions: server days, the daily deals, standings, streaks and stats, and the words that show them."""
