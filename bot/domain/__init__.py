"""The rules of the game: pure, imports nothing from persistence or services."""
