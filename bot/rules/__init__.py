"""The rules of competing, pure (no IO, no Discord): what each kind of game allows (modes) and when its scores are
public, server days and time zones, the ranking order, streaks and stats, the daily's deals. Storage builds these
values from its rows and the services apply them; the one package that may compare a mode's name."""
