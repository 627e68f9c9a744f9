"""The outbox: every public post and once-only delivery, stored, claimed once, retried, delivered by its own loop."""
