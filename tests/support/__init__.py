"""What many test modules share: fakes, builders and pytest plugins (no test lives here)."""
