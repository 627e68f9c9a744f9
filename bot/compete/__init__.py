"""Competing: the daily, races and challenges (one group-event lifecycle), server days, standings, streaks,
stats and moderation, and the words that show them."""
