"""The versioned JSON protocol spoken over the WebSocket (see docs/web.md).

Every message either way is a JSON object with a ``type`` and the ``protocol`` version.
Requests are checked here, field by field, before anything touches a game: a malformed
request becomes a :class:`ProtocolError`, which the server answers with an ``error`` event.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ludoteca.core.errors import shown

PROTOCOL = 1
HUMAN = "human"
"""The seat kind of a person; any other seat kind names a bot."""

REQUESTS: dict[str, dict[str, tuple[type, ...]]] = {
    # type: {field: accepted JSON types}; fields not listed here are refused.
    "new": {
        "game": (str,),
        "variant": (str, type(None)),
        "params": (dict, type(None)),
        "seed": (int, str, type(None)),  # str: the digits (JavaScript rounds past 2**53)
        "seats": (list, type(None)),
        "player": (str, type(None)),
    },
    "again": {},
    # token: the seat's; with invite (its invitation's code), the token the claimer chose
    # for it, which the claim makes the seat's (see check_claim_token). player: the name
    # the seat's results count for (a claimer's; a seat with none yet takes it).
    "join": {
        "room": (str,),
        "seat": (int,),
        "token": (str,),
        "invite": (str, type(None)),
        "player": (str, type(None)),
    },
    "move": {"move": (str,), "ply": (int, type(None))},
    "undo": {},
    "redo": {},
    "hint": {},
    "restart": {},
    "abandon": {},
    "view": {"seat": (int,)},
    "ping": {},
}
REQUIRED = {
    "new": {"game"},
    "join": {"room", "seat", "token"},
    "move": {"move"},
    "view": {"seat"},
}
CLAIM_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""A token a claimer chose: a secret (16 random bytes in base64url are 22 characters)."""
MAX_TEXT = 200
MAX_ERROR = 300
"""The longest error message sent (the rules' own refusals are shorter)."""
JS_SAFE = 2**53 - 1
"""The largest whole number a JavaScript number holds exactly."""


def deal_number(seed: int | None) -> int | str | None:
    """A deal number as the server sends it: a number, or its digits past 2**53, which a
    page's JavaScript would round (deal 2**63 - 1 was shown as ...6000, a deal that does not
    exist). The same convention as the ``seed`` of ``new``."""
    return str(seed) if seed is not None and seed > JS_SAFE else seed


class ProtocolError(Exception):
    """A request the server refuses; ``code`` is stable for programs, the text for people."""

    def __init__(self, code: str, message: str) -> None:
        # One line, of a readable length, whatever text of the client's it quotes (an
        # unknown type of 15,000 characters came back whole, a room id with a newline
        # made two lines).
        message = shown(message, MAX_ERROR)
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Request:
    type: str
    fields: dict[str, Any]

    def get(self, name: str) -> Any:
        return self.fields.get(name)


def parse_request(raw: Any) -> Request:
    """Check one decoded message; raise :class:`ProtocolError` saying what is wrong."""
    if not isinstance(raw, dict):
        raise ProtocolError("malformed", "a message must be a JSON object")
    version = raw.get("protocol")
    if version != PROTOCOL:
        raise ProtocolError(
            "protocol", f"this server speaks protocol {PROTOCOL}, the message says {version!r}"
        )
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        known = ", ".join(sorted(REQUESTS))
        named = repr(shown(kind)) if isinstance(kind, str) else "missing or not text"
        raise ProtocolError("malformed", f"unknown message type {named} (types: {known})")
    allowed = REQUESTS[kind]
    fields = {k: v for k, v in raw.items() if k not in ("type", "protocol")}
    for name, value in fields.items():
        if name not in allowed:
            raise ProtocolError("malformed", f"'{kind}' has no field '{shown(name)}'")
        # bool is an int in Python; JSON true is never a number here.
        if isinstance(value, bool) or not isinstance(value, allowed[name]):
            raise ProtocolError("malformed", f"'{kind}': field '{name}' has the wrong type")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ProtocolError("malformed", f"'{kind}': field '{name}' is too long")
    missing = REQUIRED.get(kind, set()) - {k for k, v in fields.items() if v is not None}
    if missing:
        raise ProtocolError("malformed", f"'{kind}' needs {', '.join(sorted(missing))}")
    if kind == "join" and fields.get("invite") is not None:
        check_claim_token(fields["token"])
    return Request(kind, fields)


def check_claim_token(token: str) -> None:
    """Refuse a ``token`` that may not become a seat's token. The claimer of an invitation
    chooses it, and keeps it before claiming, so that a claim whose answer is lost still
    opens the seat; a guessable one would open it to anyone."""
    if CLAIM_TOKEN.fullmatch(token) is None:
        raise ProtocolError(
            "malformed", "'join': a claim's token is 16 to 64 letters, digits, '-' or '_'"
        )


def event(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "protocol": PROTOCOL, **fields}


def error_event(code: str, message: str, request: str | None = None) -> dict[str, Any]:
    return event("error", code=code, message=message, request=request)
