"""Competing: the services of the daily, races, challenges, their boards and stats, and moderating their results."""
