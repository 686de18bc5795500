"""Terminal boards: one renderer module per game, drawn from a player's observation only."""
