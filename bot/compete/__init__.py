"""Competing: the daily, races and challenges (one group-event lifecycle), their boards, stats and moderation."""
