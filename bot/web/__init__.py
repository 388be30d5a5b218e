"""The Tavolo web page: daily leaderboards, players and replays, served by the bot process.

``setup_web(app, core)`` adds the pages to the bot's aiohttp application (``bot.http`` builds it
when ``HTTP_PORT`` is set, beside ``/healthz`` and ``/metrics``):

==============================  ===========================================================
``/``                           today's daily challenge of every game: top players, how many
                                finished, links
``/daily/<game>/<YYYY-MM-DD>``  one day's full ranking (the deal only once the day is over)
``/daily/<game>/<day>/deal.png`` that deal's first board (404 while the day runs)
``/player/<public id>``         a player's games, wins, bests, streaks, ratings, recent games
``/replay/<game id>?step=N``    a finished game: the board after move N, previous/next, the
                                move list; ``/replay/<id>/<N>.png`` and ``/replay/<id>.gif``
``/chat/<token>?period=``       a chat's own leaderboards (today, week, all), by its link
``/static/style.css``           the stylesheet
==============================  ===========================================================

Pages are Jinja2 templates with autoescaping (a name ``<script>`` is text), in the reader's
language (``?lang=``, else ``Accept-Language``, else English), with dates by Babel. Every page
answers with ``Cache-Control`` and an ``ETag`` (``If-None-Match`` gets 304); pages are kept
in memory for ``PAGE_SECONDS`` (one reader of many builds a page, the others wait for it), so
many readers at once cost a few database reads. A kept page is served only while the stored
generation of the pages it was built at is current (one indexed row read per request):
``/web hide``, a revoked chat link or ``/forgetme`` in any process takes effect on the next
request everywhere, and browsers and proxies must ask again each time (``no-cache``: a 304
when nothing changed). An address that names nothing answers 404 with a page in the
reader's language; nothing a reader sends makes a 500. Every link a page carries is a path on
this site (:func:`site_path`), whatever address the reader typed.

Several bot processes serve the same pages: everything comes from the shared database.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from aiohttp import web
from babel.dates import format_date, format_datetime
from jinja2 import Environment, FileSystemLoader, select_autoescape

from bot import i18n
from bot.web import pages
from bot.web.pages import NotFound

if TYPE_CHECKING:
    from bot.core import Core
    from bot.core.service import Service
    from bot.core.web_reads import WebReads

log = logging.getLogger("tavolo.web")

HERE = Path(__file__).resolve().parent
#: how long a built page is served from memory (while nothing was hidden or revoked since)
PAGE_SECONDS = 10
#: images of finished games never change: kept longer by browsers and proxies
IMAGE_SECONDS = 3600
#: pages and images kept in memory at most, and their bytes at most
CACHE_ENTRIES = 256
CACHE_BYTES = 48 * 1024 * 1024

#: pages run no script and load nothing from elsewhere; no other site may frame them
POLICY = "default-src 'none'; img-src 'self'; style-src 'self'; frame-ancestors 'none'"

SERVICE_KEY: web.AppKey[Any] = web.AppKey("tavolo_web_service", object)
CLOCK_KEY: web.AppKey[Any] = web.AppKey("tavolo_web_clock", object)
CACHE_KEY: web.AppKey[Any] = web.AppKey("tavolo_web_cache", object)

_env = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


# ----- language ------------------------------------------------------------------------------
def reader_language(query_lang: str | None, accept_language: str | None) -> tuple[str, bool]:
    """(language, chosen in the address): ``?lang=`` first, then the browser's preferences in
    order of weight, then English.

    >>> reader_language(None, "fr-FR,fr;q=0.9,it;q=0.8,en;q=0.5")
    ('it', False)
    >>> reader_language("es", "it"), reader_language("xx", "it")
    (('es', True), ('it', False))
    """
    if query_lang and query_lang.lower() in i18n.LANGUAGES:
        return query_lang.lower(), True
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                weight = 0.0
        code = tag.strip().replace("_", "-").split("-")[0].lower()
        if code in i18n.LANGUAGES and weight > 0:
            weighted.append((-weight, index, code))
    return (min(weighted)[2], False) if weighted else (i18n.DEFAULT, False)


# ----- the page cache ------------------------------------------------------------------------
def _size(value: Any) -> int:
    """Bytes a kept value holds: a page (body, etag) or an image."""
    if isinstance(value, bytes):
        return len(value)
    if isinstance(value, tuple) and value and isinstance(value[0], bytes):
        return len(value[0])
    return 0


class PageCache:
    """Built responses by key for a few seconds; concurrent requests for a page being built
    wait for that one build (a burst of readers costs one set of database reads). At most
    ``entries`` values and ``max_bytes`` bytes are kept (a replay's GIF may be megabytes):
    the least recently used go first."""

    def __init__(self, entries: int = CACHE_ENTRIES, max_bytes: int = CACHE_BYTES) -> None:
        self.entries = entries
        self.max_bytes = max_bytes
        self.bytes = 0
        self._kept: OrderedDict[tuple[Any, ...], tuple[float, Any]] = OrderedDict()
        self._building: dict[tuple[Any, ...], asyncio.Future[Any]] = {}

    async def get(
        self, key: tuple[Any, ...], seconds: float, build: Callable[[], Awaitable[Any]]
    ) -> Any:
        now = time.monotonic()
        kept = self._kept.get(key)
        if kept is not None and kept[0] > now:
            self._kept.move_to_end(key)
            return kept[1]
        pending = self._building.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            value = await build()
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: waiters get it, nobody logs it as lost
            raise
        finally:
            self._building.pop(key, None)
        future.set_result(value)
        self._keep(key, time.monotonic() + seconds, value)
        return value

    def _keep(self, key: tuple[Any, ...], until: float, value: Any) -> None:
        old = self._kept.pop(key, None)
        if old is not None:
            self.bytes -= _size(old[1])
        if _size(value) > self.max_bytes:
            return  # bigger than the whole budget: served, not kept
        self._kept[key] = (until, value)
        self.bytes += _size(value)
        while len(self._kept) > self.entries or self.bytes > self.max_bytes:
            _, (_, dropped) = self._kept.popitem(last=False)
            self.bytes -= _size(dropped)

    def clear(self) -> None:
        self._kept.clear()
        self.bytes = 0


# ----- responses -----------------------------------------------------------------------------
def _etag(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def _respond(
    request: web.Request,
    body: bytes,
    content_type: str,
    cache: str,
    status: int = 200,
    extra: dict[str, str] | None = None,
    etag: str | None = None,
) -> web.Response:
    """The response with ``Cache-Control``, ``ETag`` and ``Vary``; a matching
    ``If-None-Match`` gets 304 without the body. ``etag``: the body's, when known already."""
    etag = etag or _etag(body)
    headers = {
        "Cache-Control": cache,
        "ETag": etag,
        "Vary": "Accept-Language",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": POLICY,
        **(extra or {}),
    }
    if status == 200 and etag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    headers["Content-Type"] = content_type
    return web.Response(status=status, body=body, headers=headers)


def site_path(path: str) -> str:
    """``path`` as a link that stays on this site: percent-encoded (a backslash, a tab or a
    space would let a browser read ``/\\evil.example`` as another host) and led by exactly
    one slash (``//evil.example/x`` is another host to a browser: it becomes ``/evil.example/x``).

    >>> site_path("//evil.example/x"), site_path("/\\\\evil.example"), site_path("/daily/solitario")
    ('/evil.example/x', '/%5Cevil.example', '/daily/solitario')
    >>> site_path("/\\t/evil.example"), site_path("/ñ x")
    ('/%09/evil.example', '/%C3%B1%20x')
    """
    return "/" + quote(path, safe="/:@!$&'()*+,;=-._~").lstrip("/")


class PageContext:
    """What every template gets: the language, texts, dates and addresses."""

    def __init__(self, request: web.Request, lang: str, chosen: bool) -> None:
        self.lang = lang
        self.chosen = chosen
        self.path = request.path
        self.query = {k: v for k, v in request.query.items() if k != "lang"}
        #: the page addresses the chat's links use too (None in a core without features)
        self.paths: WebReads | None = request.app[SERVICE_KEY].registry.web_reads

    def t(self, key: str, **params: Any) -> str:
        return i18n.t(self.lang, key, **params)

    def url(self, path: str, **query: Any) -> str:
        """An address on the site, keeping the reader's chosen language."""
        params = {k: v for k, v in query.items() if v is not None}
        if self.chosen:
            params["lang"] = self.lang
        return site_path(path) + ("?" + urlencode(params) if params else "")

    def lang_url(self, lang: str) -> str:
        """This page in another language (the address the reader asked for, kept on the site)."""
        return site_path(self.path) + "?" + urlencode({**self.query, "lang": lang})

    def date(self, day: date, form: str = "long") -> str:
        return format_date(day, format=form, locale=self.lang)

    def when(self, moment: datetime) -> str:
        return format_datetime(moment, format="medium", tzinfo=UTC, locale=self.lang)

    def game(self, game_id: str) -> str:
        return pages.game_name(self.lang, game_id)

    def language_name(self, lang: str) -> str:
        return i18n.language_name(lang, lang)


def render(page: PageContext, template: str, **context: Any) -> bytes:
    html = _env.get_template(template).render(
        page=page, t=page.t, url=page.url, paths=page.paths, languages=i18n.LANGUAGES, **context
    )
    return html.encode("utf-8")


def _page(request: web.Request) -> PageContext:
    lang, chosen = reader_language(
        request.query.get("lang"), request.headers.get("Accept-Language")
    )
    return PageContext(request, lang, chosen)


def _today(request: web.Request) -> date:
    now: datetime = request.app[CLOCK_KEY]()
    return now.astimezone(UTC).date()


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def error_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Unknown addresses get the 404 page in the reader's language; an unexpected error is
    logged and gets a short 503 page (never a stack trace)."""
    try:
        return await handler(request)
    except (NotFound, web.HTTPNotFound, web.HTTPMethodNotAllowed):
        page = _page(request)
        body = render(
            page, "error.html", title=page.t("web.404.title"), text=page.t("web.404.text")
        )
        return _respond(request, body, "text/html; charset=utf-8", "public, max-age=60", status=404)
    except web.HTTPException:
        raise
    except Exception:
        log.exception("web page %s failed", request.path)
        page = _page(request)
        body = render(
            page, "error.html", title=page.t("web.error.title"), text=page.t("web.error.text")
        )
        return _respond(
            request,
            body,
            "text/html; charset=utf-8",
            "no-store",
            status=503,
            extra={"Retry-After": "5"},
        )


# ----- pages ---------------------------------------------------------------------------------
def _html(cache: str = "public, no-cache") -> Callable[..., Handler]:
    """A page handler from ``build(request, page, service, today) -> bytes``, served through
    the page cache (by address, language and the stored generation of web changes)."""

    def wrap(build: Callable[..., Awaitable[bytes]]) -> Handler:
        async def handler(request: web.Request) -> web.StreamResponse:
            # A page kept in memory costs no template and no hash: only the lookup.
            lang, chosen = reader_language(
                request.query.get("lang"), request.headers.get("Accept-Language")
            )
            today = _today(request)
            service = request.app[SERVICE_KEY]
            # a page kept from before a hide, a revocation or a forgetting is not served
            generation = await service.store.web.generation()
            key = ("page", request.path_qs, lang, today, generation)

            async def built() -> tuple[bytes, str]:
                page = PageContext(request, lang, chosen)
                body = await build(request, page, service, today)
                return body, _etag(body)

            body, etag = await request.app[CACHE_KEY].get(key, PAGE_SECONDS, built)
            extra = {"Referrer-Policy": "no-referrer"} if "private" in cache else None
            return _respond(
                request, body, "text/html; charset=utf-8", cache, extra=extra, etag=etag
            )

        return handler

    return wrap


@_html()
async def home_page(request: web.Request, page: PageContext, core: Service, today: date) -> bytes:
    return render(page, "home.html", **await pages.home(core, page.lang, today))


@_html()
async def daily_page(request: web.Request, page: PageContext, core: Service, today: date) -> bytes:
    data = await pages.daily(
        core, page.lang, request.match_info["game"], request.match_info["day"], today
    )
    return render(page, "daily.html", **data)


@_html()
async def player_page(request: web.Request, page: PageContext, core: Service, today: date) -> bytes:
    return render(
        page, "player.html", **await pages.player(core, page.lang, request.match_info["id"], today)
    )


@_html()
async def replay_page(request: web.Request, page: PageContext, core: Service, today: date) -> bytes:
    game = await pages.replay(core, page.lang, request.match_info["id"], today)
    total = len(game.moves)
    step_text = request.query.get("step", str(total))
    if not (step_text.isascii() and step_text.isdigit()) or int(step_text) > total:
        raise NotFound(step_text)
    return render(
        page,
        "replay.html",
        game=game,
        step=int(step_text),
        total=total,
        game_name=pages.game_name(page.lang, game.game_id),
    )


@_html(cache="private, no-cache")
async def chat_page(request: web.Request, page: PageContext, core: Service, today: date) -> bytes:
    period = request.query.get("period", "today")
    return render(
        page,
        "chat.html",
        **await pages.chat(core, page.lang, request.match_info["token"], period, today),
    )


# ----- images --------------------------------------------------------------------------------
async def _image(
    request: web.Request,
    key: tuple[Any, ...],
    draw: Callable[[], Awaitable[bytes]],
    content_type: str,
    names: bool = True,
) -> web.StreamResponse:
    """An image from the cache. ``names``: it draws players' names (a replay), which a hide
    changes, so browsers and proxies ask again each time; a deal's board is kept an hour."""
    body = await request.app[CACHE_KEY].get(key, IMAGE_SECONDS, draw)
    cache = "public, no-cache" if names else f"public, max-age={IMAGE_SECONDS}"
    return _respond(request, body, content_type, cache)


async def _replay_for_image(request: web.Request, lang: str) -> pages.Replay:
    game = await pages.replay(
        request.app[SERVICE_KEY], lang, request.match_info["id"], _today(request)
    )
    if game.held:
        raise NotFound(game.session_id)
    return game


async def step_image(request: web.Request) -> web.StreamResponse:
    page = _page(request)
    game = await _replay_for_image(request, page.lang)
    step_text = request.match_info["step"]
    if not (step_text.isascii() and step_text.isdigit()) or int(step_text) > len(game.moves):
        raise NotFound(step_text)
    step = int(step_text)
    key = ("step", game.session_id, step, page.lang, tuple(game.seats))
    return await _image(
        request, key, lambda: pages.in_executor(pages.step_png, game, step, page.lang), "image/png"
    )


async def animation_image(request: web.Request) -> web.StreamResponse:
    page = _page(request)
    game = await _replay_for_image(request, page.lang)
    key = ("gif", game.session_id, page.lang, tuple(game.seats))
    return await _image(
        request, key, lambda: pages.in_executor(pages.animation, game, page.lang), "image/gif"
    )


async def deal_image(request: web.Request) -> web.StreamResponse:
    page = _page(request)
    data = await pages.daily(
        request.app[SERVICE_KEY],
        page.lang,
        request.match_info["game"],
        request.match_info["day"],
        _today(request),
    )
    if data["deal"] is None:
        raise NotFound(request.path)
    game_id, deal = data["game_id"], data["deal"]
    key = ("deal", game_id, deal, page.lang)
    return await _image(
        request,
        key,
        lambda: pages.in_executor(pages.start_png, game_id, deal, page.lang),
        "image/png",
        names=False,
    )


async def stylesheet(request: web.Request) -> web.StreamResponse:
    body = (HERE / "static" / "style.css").read_bytes()
    return _respond(request, body, "text/css; charset=utf-8", "public, max-age=3600")


async def no_favicon(request: web.Request) -> web.StreamResponse:
    raise NotFound(request.path)


# ----- set-up --------------------------------------------------------------------------------
def setup_web(
    app: web.Application, core: Core | Service, clock: Callable[[], datetime] | None = None
) -> None:
    """Add the pages to ``app`` (the bot's HTTP application, or a test's own)."""
    service = getattr(core, "service", core)
    app[SERVICE_KEY] = service
    app[CLOCK_KEY] = clock or service.clock
    app[CACHE_KEY] = PageCache()
    app.middlewares.append(error_pages)
    app.router.add_get("/", home_page)
    app.router.add_get("/daily/{game}/{day}", daily_page)
    app.router.add_get("/daily/{game}/{day}/deal.png", deal_image)
    app.router.add_get("/player/{id}", player_page)
    app.router.add_get("/replay/{id:[A-Za-z0-9]+}.gif", animation_image)
    app.router.add_get("/replay/{id:[A-Za-z0-9]+}/{step}.png", step_image)
    app.router.add_get("/replay/{id}", replay_page)
    app.router.add_get("/chat/{token}", chat_page)
    app.router.add_get("/static/style.css", stylesheet)


__all__ = ["PAGE_SECONDS", "PageCache", "reader_language", "setup_web"]
