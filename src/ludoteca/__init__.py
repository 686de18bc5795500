"""ludoteca: seven games with faithful rules, exact solvers, bots, studies and a web app."""

__version__ = "0.1.0"
