"""The bot's runtime: the composition root (:mod:`bot.runtime.services`) that builds every service and closes them."""
