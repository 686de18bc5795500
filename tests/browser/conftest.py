"""Browser tests: a uvicorn server on a free loopback port with a temporary database, and
Debian's Chromium driven by Playwright (sync API). Helpers travel as fixtures because the
suite imports test modules by path."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from ludoteca.server import create_app
from ludoteca.server.rooms import Room, RoomConfig

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


SETTLED = """ply => {
  const page = document.querySelector('.table-page');
  return page.dataset.ply !== ply || document.querySelector('svg.board .target')
    || !document.querySelector('.chooser').hidden;
}"""
"""After a click: the move was made, or targets lit up, or a menu asks which move."""

IDLE = """() => !document.getAnimations().some(a => a.playState === 'running'
  && a.effect?.target?.closest?.('svg.board'))"""
"""No piece of the board is sliding (a move's animation has ended)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """The web app on uvicorn in a thread of the test process (so tests can see the rooms)."""

    def __init__(self, db: Path, port: int | None = None, bot_delay: float = 0.05) -> None:
        self.db = db
        self.port = port or free_port()
        self.app = create_app(db, RoomConfig(bot_delay=bot_delay, hint_seconds=0.5))
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)

    def room(self, room_id: str) -> Room:
        room: Room = self.app.state.rooms.get(room_id)
        return room


class Table:
    """The page at a table: start games and play them through clicks, as a person would."""

    def __init__(self, page: Any, live: LiveServer) -> None:
        self.page = page
        self.live = live

    def home(self) -> None:
        self.page.goto(self.live.url)
        self.page.wait_for_selector(".game")

    def name_player(self, name: str) -> None:
        """On the home page: play as ``name`` (the statistics follow the name)."""
        self.page.locator("#player").fill(name)
        self.page.locator("#player").press("Tab")
        self.page.wait_for_selector(f"text=Statistics for {name}")

    def start(
        self,
        game: str,
        seed: int | None = None,
        variant: str | None = None,
        bots: list[str] | None = None,
    ) -> None:
        self.home()
        card = self.page.locator(f".game[data-game={game}]")
        if variant:
            card.locator("select[name=variant]").select_option(variant)
        for i, bot in enumerate(bots or []):
            rows = card.locator(".seat-list select")
            while rows.count() < i + 1:
                card.locator(".add-seat").click()
            rows.nth(i).select_option(bot)
        if seed is not None:
            card.locator("input[name=seed]").fill(str(seed))
        card.locator("button.play").click()
        self.page.wait_for_selector(f".table-page[data-game={game}]")

    @property
    def room_id(self) -> str:
        url: str = self.page.url
        return url.split("#/room/")[1].split("/")[0]

    def room(self) -> Room:
        return self.live.room(self.room_id)

    def ply(self) -> int:
        return int(self.page.locator(".table-page").get_attribute("data-ply"))

    def over(self) -> bool:
        return self.page.locator(".table-page").get_attribute("data-over") == "true"

    def wait_turn(self) -> None:
        """Until this seat is to move or the game is over (bots move by themselves)."""
        self.page.wait_for_selector(".table-page[data-turn=true], .table-page[data-over=true]")

    def wait_ply(self, ply: int) -> None:
        self.page.wait_for_selector(f".table-page[data-ply='{ply}']")

    def wait_change(self, ply: int) -> None:
        self.page.wait_for_function(
            "ply => document.querySelector('.table-page').dataset.ply !== ply", arg=str(ply)
        )

    def click_move(self) -> bool:
        """Make one legal move with clicks on the board (or a button); False if none."""
        page = self.page
        before = self.ply()
        # A click while the last move still slides may land on a card being drawn anew and
        # do nothing (once in a CI run: no move, no target, no menu for 15 s); a person
        # clicks what stands still.
        page.wait_for_function(IDLE)
        if page.locator("svg.board .target").count() == 0:
            movable = page.locator("svg.board .movable")
            if movable.count():
                movable.first.click()
            elif page.locator(".actions .move").count():
                page.locator(".actions .move").first.click()
            else:
                return False
            page.wait_for_function(SETTLED, arg=str(before))
        if self.ply() == before and page.locator(".chooser[hidden]").count():
            page.locator("svg.board .target").last.click()
            page.wait_for_function(SETTLED, arg=str(before))
        chooser = page.locator(".chooser:not([hidden]) button")
        if chooser.count():
            chooser.first.click()
        self.wait_change(before)
        return True

    def shot(self, path: Path) -> None:
        self.page.wait_for_timeout(350)  # let the moves' animation finish
        self.page.screenshot(path=str(path))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent (scripts/install-system-deps.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("web") / "web.sqlite3").start()
    yield server
    server.stop()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """open_page(width=1280, height=900, touch=False): a fresh page that accepts
    confirmations and fails the test on any script error; with touch, a phone's (a touch
    screen, a finger for a pointer: pointer: coarse)."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 900, touch: bool = False) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=touch, has_touch=touch
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("dialog", lambda dialog: dialog.accept())
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


@pytest.fixture
def table(open_page: Callable[..., Any], live: LiveServer) -> Table:
    return Table(open_page(), live)


@pytest.fixture
def table_on() -> Callable[[Any, LiveServer], Table]:
    return Table


@pytest.fixture
def live_server() -> type[LiveServer]:
    return LiveServer
