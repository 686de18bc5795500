"""Invitations to a table's other people (docs/web.md, Multiplayer): whoever starts a table
gets their own seat's token and, for each other person's seat, an invitation claimed once,
so that a creator who opens a friend's seat to read its hand is found out. The claimer
chooses the seat's token, and keeps it before claiming: a claim whose answer is lost still
opens the seat."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludoteca.server.rooms import Room

USED = (
    "this seat's invitation was used already: if you opened it before, go on in that browser;"
    " if not, tell whoever sent it to you"
)
MINE = "friend-chose-this-token"
"""A token a claimer chose (a page makes 16 random bytes in base64url)."""


def joining(sockets: ExitStack, client: TestClient, seated: Any, **fields: Any) -> Any:
    """A new connection's join, closed with ``sockets``: the connection and its first
    answer (joined or error)."""
    other = seated(sockets.enter_context(client.websocket_connect("/ws")))
    return other, other.ask("join", **fields)


@pytest.fixture
def join(seated: Any) -> Iterator[Callable[..., tuple[Any, dict[str, Any]]]]:
    """join(client, **fields): :func:`joining`, the connections closed at the test's end."""
    with ExitStack() as sockets:
        yield lambda client, **fields: joining(sockets, client, seated, **fields)


def test_the_creator_gets_invitations_not_the_other_seats_tokens(
    client: TestClient, player: Any, join: Any
) -> None:
    """The creator was sent every person's token: opening another seat's link, at any
    time, showed that seat's hand, and its player could not tell."""
    joined, _ = player.start("scalafrutta", seats=["human", "human", "greedy", "human"])
    assert set(joined["tokens"]) == {"0"}
    assert set(joined["invites"]) == {"1", "3"}
    room: Room = client.app.state.rooms.get(joined["room"])  # type: ignore[attr-defined]
    assert room.saved.tokens == [joined["tokens"]["0"], None, None, None]
    # A seat not claimed yet opens with no token at all, and a bot's with no invitation.
    _, refused = join(client, room=joined["room"], seat=1, token="")
    assert refused["code"] == "forbidden"
    assert refused["message"] == "player 2's seat is not taken yet: its invitation opens it"
    _, bot = join(client, room=joined["room"], seat=2, invite=joined["invites"]["1"], token=MINE)
    assert bot["code"] == "forbidden" and bot["message"] == "player 3 is a bot"


def test_an_invitation_gives_its_seat_once_with_the_token_its_claimer_chose(
    client: TestClient, player: Any, join: Any
) -> None:
    joined, _ = player.start("domino", seats=["human", "human"])
    room, code = joined["room"], joined["invites"]["1"]
    friend, claimed = join(client, room=room, seat=1, invite=code, token=MINE)
    assert claimed["type"] == "joined" and claimed["seat"] == 1
    assert claimed["tokens"] == {} and claimed["invites"] == {}  # (it has its token)
    state = friend.receive()
    assert state["type"] == "state" and state["seat"] == 1
    # The creator, who is at the same table, never hears it.
    player.send("ping")
    player.until("pong")
    assert MINE not in json.dumps(player.seen)
    # The creator (or anyone) opening the link now is refused, with the reason.
    for token in ("creator-chose-this-token", "creator-chose-another-one"):
        _, again = join(client, room=room, seat=1, invite=code, token=token)
        assert again["type"] == "error" and again["code"] == "forbidden"
        assert again["message"] == USED
    _, wrong = join(client, room=room, seat=1, invite="guess", token=MINE)
    assert wrong["message"] == "wrong invitation for player 2"
    _, own = join(client, room=room, seat=0, invite=code, token=MINE)
    assert own["message"] == "player 1's seat has no invitation: it opens with its token"
    _, nowhere = join(client, room=room, seat=2, invite=code, token=MINE)
    assert nowhere["code"] == "bad-seat"
    # The chosen token reconnects, as any seat's token does.
    back, rejoined = join(client, room=room, seat=1, token=MINE)
    assert rejoined["type"] == "joined" and rejoined["seat"] == 1 and rejoined["tokens"] == {}
    assert back.receive()["observation"] == state["observation"]


def test_a_claim_whose_answer_was_lost_opens_with_the_token_its_claimer_kept(
    client: TestClient, player: Any, join: Any, seated: Any
) -> None:
    """The server made the seat's token at the claim and sent it in `joined` only: a
    connection lost in between left the seat to no one, and its invitation used."""
    joined, _ = player.start("domino", seats=["human", "human"])
    room, code = joined["room"], joined["invites"]["1"]
    # The claim never reached the server: the kept token does not open the seat yet, and
    # the invitation, which the claimer kept too, still does.
    _, early = join(client, room=room, seat=1, token=MINE)
    assert early["message"] == "player 2's seat is not taken yet: its invitation opens it"
    with client.websocket_connect("/ws") as lost:  # the claim is sent, its answer never read
        seated(lost).send("join", room=room, seat=1, invite=code, token=MINE)
    back, rejoined = join(client, room=room, seat=1, token=MINE)
    assert rejoined["type"] == "joined" and rejoined["seat"] == 1
    assert back.receive()["seat"] == 1


def test_a_claim_repeated_with_its_token_is_its_claimer_trying_again(
    client: TestClient, player: Any, join: Any
) -> None:
    """A claimer who does not know whether its claim arrived claims again: with the token
    it chose, it gets its seat; with another, the invitation is used."""
    joined, _ = player.start("domino", seats=["human", "human"])
    room, code = joined["room"], joined["invites"]["1"]
    for _ in range(2):
        friend, claimed = join(client, room=room, seat=1, invite=code, token=MINE)
        assert claimed["type"] == "joined" and claimed["seat"] == 1
        assert friend.receive()["seat"] == 1
    _, other = join(client, room=room, seat=1, invite=code, token="someone-elses-token")
    assert other["message"] == USED
    _, kept = join(client, room=room, seat=1, token=MINE)
    assert kept["type"] == "joined"


def test_a_join_needs_a_token(player: Any) -> None:
    for fields in ({}, {"invite": "code"}):
        refused = player.ask("join", room="r", seat=0, **fields)
        assert refused["code"] == "malformed" and refused["message"] == "'join' needs token"


@pytest.mark.parametrize(
    "token", ["", "too-short-token", "x" * 65, "has a space 1234567", "slash/and+plus=12", "é" * 20]
)
def test_a_claim_needs_a_token_that_is_a_secret(
    client: TestClient, player: Any, join: Any, token: str
) -> None:
    """The claimer's token becomes the seat's: a short one could be guessed."""
    joined, _ = player.start("domino", seats=["human", "human"])
    room, code = joined["room"], joined["invites"]["1"]
    _, refused = join(client, room=room, seat=1, invite=code, token=token)
    assert refused["code"] == "malformed"
    assert refused["message"] == "'join': a claim's token is 16 to 64 letters, digits, '-' or '_'"
    _, claimed = join(client, room=room, seat=1, invite=code, token="x" * 16)
    assert claimed["type"] == "joined"  # (the invitation was not used by the refusal)


def test_every_seat_sees_which_seats_are_taken(client: TestClient, player: Any, join: Any) -> None:
    """A seat is taken once a person holds it (the creator's from the start); a bot's
    never is. Codes and tokens stay out of the view."""
    joined, state = player.start("scalafrutta", seats=["human", "human", "greedy", "human"])
    assert [s["taken"] for s in state["seats"]] == [True, False, False, False]
    friend, claimed = join(
        client, room=joined["room"], seat=3, invite=joined["invites"]["3"], token=MINE
    )
    assert claimed["type"] == "joined"
    mine = friend.receive()
    assert [s["taken"] for s in mine["seats"]] == [True, False, False, True]
    assert_no_secret_in_states(joined, player, friend)


def test_every_seat_sees_which_seats_an_invitation_opens(
    client: TestClient, player: Any, join: Any
) -> None:
    """A page opened by a seat's token cannot tell a token its browser chose from one
    handed over by someone who keeps it (the creator, who claimed the invitation): the
    view says which seats invitations open, claimed or not, never their codes."""
    joined, state = player.start("scalafrutta", seats=["human", "human", "greedy", "human"])
    assert [s["invited"] for s in state["seats"]] == [False, True, False, True]
    friend, claimed = join(
        client, room=joined["room"], seat=3, invite=joined["invites"]["3"], token=MINE
    )
    assert claimed["type"] == "joined"
    assert [s["invited"] for s in friend.receive()["seats"]] == [False, True, False, True]
    assert_no_secret_in_states(joined, player, friend)


def test_no_seat_of_a_table_started_before_invitations_is_invited(
    db: Path, seated: Any, app_on: Any
) -> None:
    """Its seats open with the tokens their creator holds, by design: nothing to warn of."""
    with TestClient(app_on(db)) as server, server.websocket_connect("/ws") as socket:
        joined, _ = seated(socket).start("domino", seats=["human", "human"])
    with sqlite3.connect(db) as old:  # the database and the row as they were stored before
        old.execute("DROP TABLE web_invites")
        old.execute(
            "UPDATE web_games SET tokens = ? WHERE id = ?",
            (json.dumps(["zero", "one"]), joined["room"]),
        )
    with TestClient(app_on(db)) as server, ExitStack() as sockets:
        second, _ = joining(sockets, server, seated, room=joined["room"], seat=1, token="one")
        assert [s["invited"] for s in second.receive()["seats"]] == [False, False]


def test_a_claim_tells_the_table_its_seat_is_taken(
    client: TestClient, player: Any, join: Any
) -> None:
    """The creator's page offered an invitation after its friend had claimed it: nothing
    told it. (No bot here: a bot's move would tell it too.)"""
    joined, state = player.start("domino", seats=["human", "human", "human"])
    _, claimed = join(
        client, room=joined["room"], seat=2, invite=joined["invites"]["2"], token=MINE
    )
    assert claimed["type"] == "joined"
    player.send("ping")  # (answered after the claim's broadcast, if any)
    player.until("pong")
    heard = [e for e in player.seen[player.seen.index(state) + 1 :] if e["type"] == "state"]
    assert len(heard) == 1 and heard[0]["seat"] == 0 and heard[0]["ply"] == state["ply"]
    assert [s["taken"] for s in heard[0]["seats"]] == [True, False, True]


def test_invitations_are_kept_across_a_restart_and_a_used_one_stays_used(
    db: Path, seated: Any, app_on: Any
) -> None:
    with TestClient(app_on(db)) as server, server.websocket_connect("/ws") as socket:
        joined, _ = seated(socket).start("domino", seats=["human", "human", "human"])
    room, invites = joined["room"], joined["invites"]
    with TestClient(app_on(db)) as server, ExitStack() as sockets:
        claim = {"room": room, "seat": 1, "invite": invites["1"]}
        _, claimed = joining(sockets, server, seated, **claim, token=MINE)
        assert claimed["type"] == "joined"
    with TestClient(app_on(db)) as server, ExitStack() as sockets:
        _, again = joining(sockets, server, seated, **claim, token="another-claimers-token")
        assert again["message"] == USED
        _, repeated = joining(sockets, server, seated, **claim, token=MINE)
        assert repeated["type"] == "joined"
        _, rejoined = joining(sockets, server, seated, room=room, seat=1, token=MINE)
        assert rejoined["type"] == "joined"
        other = {"room": room, "seat": 2, "invite": invites["2"]}
        _, second = joining(sockets, server, seated, **other, token="the-second-friends-token")
        assert second["type"] == "joined" and second["seat"] == 2


def test_a_claim_the_database_fails_leaves_the_invitation_to_claim(
    client: TestClient, player: Any, join: Any, db: Path, caplog: Any
) -> None:
    """Marking the invitation used and storing the seat's token are one transaction: a
    claim whose token was not stored must not use up the invitation. And the log, every
    table's, never shows an invitation's code or a token."""
    caplog.set_level(logging.DEBUG)
    joined, _ = player.start("domino", seats=["human", "human"])
    room, code = joined["room"], joined["invites"]["1"]
    with sqlite3.connect(db) as outside:
        outside.execute(
            "CREATE TRIGGER disk_full BEFORE UPDATE OF tokens ON web_games"
            " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    _, failed = join(client, room=room, seat=1, invite=code, token=MINE)
    assert failed["code"] == "storage"
    assert failed["message"] == "the database failed: database or disk is full"
    with sqlite3.connect(db) as outside:
        outside.execute("DROP TRIGGER disk_full")
    _, early = join(client, room=room, seat=1, token=MINE)  # (the failed claim stored none)
    assert early["message"] == "player 2's seat is not taken yet: its invitation opens it"
    _, claimed = join(client, room=room, seat=1, invite=code, token=MINE)
    assert claimed["type"] == "joined" and claimed["seat"] == 1
    secrets = [code, MINE, joined["tokens"]["0"]]
    assert caplog.records and not [s for s in secrets if s in caplog.text]


def played_to_the_end(client: TestClient, room_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat plays its first legal move until the game is over; then the table offers
    `again` (no game offers it to a table of people today; were one to, this holds)."""
    room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    while not room.state.is_over:
        room.play(room.state.current_player, room.state.legal_moves_text()[0], None)
    monkeypatch.setattr(Room, "can_again", property(lambda self: True))


def test_the_same_deal_again_invites_the_other_people(
    client: TestClient, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`again` makes a new table: its other people's seats get invitations, not tokens.
    (No game offers it to a table of people today; were one to, this holds.)"""
    joined, _ = player.start("domino", seats=["human", "human"])
    played_to_the_end(client, joined["room"], monkeypatch)
    player.send("again")
    again = player.until("joined")
    assert again["room"] != joined["room"] and again["seat"] == 0
    assert set(again["tokens"]) == {"0"} and set(again["invites"]) == {"1"}
    assert again["invites"]["1"] != joined["invites"]["1"]


def test_a_game_stored_before_invitations_still_opens_with_its_tokens(
    db: Path, seated: Any, app_on: Any
) -> None:
    """A table started before invitations holds every person's token and no invitation:
    its seats open with their tokens as they did, and there is nothing to claim."""
    with TestClient(app_on(db)) as server, server.websocket_connect("/ws") as socket:
        joined, _ = seated(socket).start("domino", seats=["human", "human"])
    room = joined["room"]
    with sqlite3.connect(db) as old:  # the database and the row as they were stored before
        old.execute("DROP TABLE web_invites")
        old.execute(
            "UPDATE web_games SET tokens = ? WHERE id = ?", (json.dumps(["zero", "one"]), room)
        )
    with TestClient(app_on(db)) as server, ExitStack() as sockets:
        _, first = joining(sockets, server, seated, room=room, seat=0, token="zero")
        _, second = joining(sockets, server, seated, room=room, seat=1, token="one")
        assert (first["seat"], second["seat"]) == (0, 1)
        code = joined["invites"]["1"]
        _, claim = joining(sockets, server, seated, room=room, seat=1, invite=code, token=MINE)
        assert claim["message"] == "player 2's seat has no invitation: it opens with its token"


def test_a_secret_past_ascii_is_a_wrong_one(
    client: TestClient, player: Any, join: Any, caplog: Any
) -> None:
    """An invitation's code or a seat's token with a letter past ASCII ("é") is wrong, as
    any other: it was 'the server failed' (compare_digest refuses such a str), with a
    traceback in the log."""
    caplog.set_level(logging.ERROR)
    joined, _ = player.start("domino", seats=["human", "human"])
    room = joined["room"]
    _, claim = join(client, room=room, seat=1, invite="é" * 16, token=MINE)
    assert (claim["code"], claim["message"]) == ("forbidden", "wrong invitation for player 2")
    _, rejoin = join(client, room=room, seat=0, token="é")
    assert (rejoin["code"], rejoin["message"]) == ("forbidden", "wrong token for player 1")
    _, claimed = join(client, room=room, seat=1, invite=joined["invites"]["1"], token=MINE)
    assert claimed["type"] == "joined"
    _, again = join(client, room=room, seat=1, invite=joined["invites"]["1"], token=MINE)
    assert again["type"] == "joined"  # (the claimer trying again: compared as bytes too)
    assert not caplog.records


def assert_no_secret_in_states(joined: dict[str, Any], *connections: Any) -> None:
    """No token nor invitation code of the table in any state these connections received."""
    secrets = [MINE, joined["tokens"]["0"], *joined["invites"].values()]
    states = [e for c in connections for e in c.seen if e["type"] == "state"]
    assert not [s for s in secrets if s in json.dumps(states)]


def results_of(db: Path, room: str) -> list[tuple[int, str, int, float]]:
    """The rows stored for ``room``'s results: (seat, player, won, score)."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT seat, player, won, score FROM web_results WHERE game_id = ? ORDER BY seat",
            (room,),
        ).fetchall()
    return [tuple(row) for row in rows]


def test_each_persons_seat_counts_for_that_person_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A finished game with other people was recorded once, for the first person's seat
    under its creator's name: an invited friend's games never counted for the friend. Each
    person's seat records its own result under the name given with its claim, once (a
    game ended, reloaded, restarted: no second count); a bot's seat records nothing."""
    from ludoteca.server.rooms import RoomConfig, Rooms
    from ludoteca.store.web import WebStore

    # (A table with people deals at random: this deal, played by first moves, is the third
    # seat's, the friend's, and not the creator's.)
    monkeypatch.setattr("secrets.randbelow", lambda _: 4)
    db = tmp_path / "web.sqlite3"
    store = WebStore(db)
    rooms = Rooms(store, RoomConfig(bot_delay=0.0))
    room = rooms.create({"game": "domino", "seats": ["human", "greedy", "human"], "player": "ada"})
    room.claim(2, room.saved.invites[2], MINE, "bea")
    assert room.saved.players == {0: "ada", 2: "bea"}
    while not room.state.is_over:  # (the bot's seat played here too: no server runs it)
        room.play(room.state.current_player, room.state.legal_moves_text()[0], None)
    outcome = room.state.outcome()
    assert outcome is not None and outcome.winners == (2,)
    assert results_of(db, room.id) == [
        (0, "ada", 0, outcome.scores[0]),
        (2, "bea", 1, outcome.scores[2]),
    ]
    assert [(s.game, s.played, s.won) for s in store.stats("ada")] == [("domino", 1, 0)]
    assert [(s.game, s.played, s.won) for s in store.stats("bea")] == [("domino", 1, 1)]
    # Recorded again (a reconnection, a reload): nothing more.
    assert store.record(room.id, room.results()) == 0
    store.set_status(room.id, "playing")  # (as if stopped between its move and its status)
    again = Rooms(store, RoomConfig())
    assert again.get(room.id).results() == room.results()
    assert len(results_of(db, room.id)) == 2
    assert store.games_in_progress() == []


def test_a_claim_names_the_seat_that_its_games_count_for(
    client: TestClient, player: Any, join: Any, db: Path
) -> None:
    """Through the protocol: the claimer's name comes with its join, and the table's
    results count for each person under their own name, in the statistics and the games
    in progress (listed for the friend's name too, with each seat's name)."""
    joined, _ = player.start("domino", seats=["human", "human"], player="ada")
    room_id = joined["room"]
    code = joined["invites"]["1"]
    _, claimed = join(client, room=room_id, seat=1, invite=code, token=MINE, player="bea")
    assert claimed["type"] == "joined"
    listed = client.get("/api/rooms?player=bea").json()["rooms"]
    assert [(r["room"], r["player"], r["players"]) for r in listed] == [
        (room_id, "ada", ["ada", "bea"])
    ]
    room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    while not room.state.is_over:
        room.play(room.state.current_player, room.state.legal_moves_text()[0], None)
    outcome = room.state.outcome()
    assert outcome is not None
    for seat, name in enumerate(("ada", "bea")):
        stats = client.get(f"/api/stats?player={name}").json()["stats"]
        assert [(s["game"], s["played"], s["won"]) for s in stats] == [
            ("domino", 1, int(seat in outcome.winners))
        ]
    assert [r[:2] for r in results_of(db, room_id)] == [(0, "ada"), (1, "bea")]
    assert client.get("/api/rooms?player=bea").json()["rooms"] == []
    # Claimed again by its claimer (a lost answer), under another name: the seat keeps its own.
    _, repeated = join(client, room=room_id, seat=1, invite=code, token=MINE, player="other")
    assert repeated["type"] == "joined" and room.saved.players[1] == "bea"


def test_a_seat_taken_before_seats_had_names_takes_its_next_joiners(
    client: TestClient, player: Any, join: Any, db: Path
) -> None:
    """A seat claimed with no name (a page from before names, a claim stored before) has
    nothing to count for: the next join that gives a name names it, once; its results
    then count for that name. With none, the seat records nothing, and the others' do."""
    joined, _ = player.start("domino", seats=["human", "human"], player="ada")
    room_id = joined["room"]
    _, claimed = join(client, room=room_id, seat=1, invite=joined["invites"]["1"], token=MINE)
    assert claimed["type"] == "joined"
    room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    assert room.saved.players == {0: "ada"}
    _, rejoined = join(client, room=room_id, seat=1, token=MINE, player="bea")
    assert rejoined["type"] == "joined" and room.saved.players == {0: "ada", 1: "bea"}
    _, renamed = join(client, room=room_id, seat=1, token=MINE, player="someone else")
    assert renamed["type"] == "joined" and room.saved.players[1] == "bea"
    stored = client.app.state.rooms.store.load_game(room_id)  # type: ignore[attr-defined]
    assert stored.players == {0: "ada", 1: "bea"}
    # Another table, whose friend never gives a name: only the creator's seat counts.
    joined, _ = player.start("domino", seats=["human", "human"], player="ada")
    _, claimed = join(
        client, room=joined["room"], seat=1, invite=joined["invites"]["1"], token=MINE
    )
    room = client.app.state.rooms.get(joined["room"])  # type: ignore[attr-defined]
    while not room.state.is_over:
        room.play(room.state.current_player, room.state.legal_moves_text()[0], None)
    assert [r[:2] for r in results_of(db, joined["room"])] == [(0, "ada")]
    assert [r["room"] for r in client.get("/api/rooms").json()["rooms"]] == [room_id]


def test_the_same_deal_again_asked_by_a_friend_is_theirs(
    client: TestClient, player: Any, join: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`again` from a friend's seat starts a table whose creator is the friend, under the
    friend's name (it was the first table's creator's), at the friend's seat."""
    joined, _ = player.start("domino", seats=["human", "human"], player="ada")
    friend, claimed = join(
        client, room=joined["room"], seat=1, invite=joined["invites"]["1"], token=MINE,
        player="bea",
    )  # fmt: skip
    assert claimed["type"] == "joined"
    played_to_the_end(client, joined["room"], monkeypatch)
    friend.send("again")
    again = friend.until("joined")
    new: Room = client.app.state.rooms.get(again["room"])  # type: ignore[attr-defined]
    assert again["seat"] == 1 and set(again["invites"]) == {"0"}
    assert (new.saved.player, new.saved.players) == ("bea", {1: "bea"})
