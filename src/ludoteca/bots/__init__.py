"""Bots for the multiplayer games: random, greedy and search-based."""
