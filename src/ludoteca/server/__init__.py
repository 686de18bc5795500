"""The web app: FastAPI over one versioned WebSocket protocol, rooms and per-seat views."""

from ludoteca.server.app import create_app

__all__ = ["create_app"]
