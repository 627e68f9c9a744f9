"""Playing a game: sessions and their saves, clicks and pads, the deal bank, pictures, after the game."""
