"""One pure module per game. Each registers its GameSpec when imported (see core.registry)."""
