"""The dashboard in a real headless Chromium (Debian's ``chromium`` driven by Selenium
through ``chromium-driver``), served by the bot's own aiohttp app on 127.0.0.1 from a
played store: every page loads without console errors, its SVG charts have the right
bars and labels, forged and expired links get 403, a Hindi browser sees Hindi, names are
escaped. A screenshot of each page is kept under test-artifacts/ (not committed)."""

from __future__ import annotations

import asyncio
import os
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from aiohttp import web

from adapters.web.server import dashboard_app
from bot.content.banks import Catalog, load_catalog
from bot.domain import actions
from bot.domain.identities import PlayerRef
from bot.domain.insight_links import Signer
from bot.domain.memory import Memory
from bot.persistence import Store
from bot.services.engine import Engine
from bot.services.requests import AnswerEstimate, Context, SetSharing, ShowDashboard
from bot.ui.views import DashboardLink, QuestionView

from ..support.browser import CHROMIUM, DRIVER, browser, labels_outside, load, texts
from ..support.channel import ADMIN, CHANNEL, FakeClock, moment
from ..support.environment import FIXTURES
from ..test_review import answer_quiz

pytestmark = pytest.mark.e2e

SECRET = "a-test-secret-of-32-characters!!"
SNEAKY = PlayerRef("slack", "U9", "<script>alert(1)</script>")
PLAYERS = [PlayerRef("slack", f"U{i}", name) for i, name in enumerate(["Ana", "Bo", "Cy"])]


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    if not (CHROMIUM and DRIVER):
        if os.environ.get("CI"):
            pytest.fail("CI is set but chromium and chromium-driver are not installed")
        pytest.skip("chromium and chromium-driver are not installed")
    driver = browser("en")
    yield driver
    driver.quit()


class Site:
    def __init__(self, engine: Engine, clock: FakeClock, base: str):
        self.engine, self.clock, self.base = engine, clock, base

    async def link(self) -> str:
        reply = await self.engine.handle(ShowDashboard(), Context(ADMIN, CHANNEL, None, True))
        assert isinstance(reply.view, DashboardLink), reply
        return reply.view.url


@pytest.fixture
async def site(tmp_path: Path, catalog: Catalog, unused_port: int) -> AsyncIterator[Site]:
    clock = FakeClock(moment("2027-01-04T10:00"))
    base = f"http://127.0.0.1:{unused_port}"
    store = await Store.open(tmp_path / "quiz.db", memory=Memory(fuzz=False))
    engine = Engine(catalog, store, clock, dashboard=Signer(SECRET, base))
    # Ana gets tiny right, Bo and the sneaky name get one wrong; on two days.
    await answer_quiz(engine, PLAYERS[0], "tiny", [True, True])
    await answer_quiz(engine, PLAYERS[1], "tiny", [True, False])
    clock.advance(86400)
    await answer_quiz(engine, SNEAKY, "tiny", [False, False])
    await answer_quiz(engine, PLAYERS[0], "offloading", [True, False, True])
    runner = web.AppRunner(dashboard_app(engine, engine.insights.signer))  # type: ignore[arg-type]
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", unused_port).start()
    yield Site(engine, clock, base)
    await runner.cleanup()
    await store.close()


def show_topic(driver, value: str) -> str:  # type: ignore[no-untyped-def]
    """Pick a topic in the page's drop-down and press Show; the topic shown after."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.wait import WebDriverWait

    picker = Select(driver.find_element(By.ID, "topic"))
    assert len(picker.options) == 27  # all topics, the 25 banks and the tiny one
    before = driver.current_url
    picker.select_by_value(value)
    driver.find_element(By.CSS_SELECTOR, "form.choices button").click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url != before)
    return str(Select(driver.find_element(By.ID, "topic")).first_selected_option.text)


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


async def test_every_page_in_chromium(chromium: object, site: Site) -> None:
    driver = chromium
    link = await site.link()
    assert link.startswith(f"{site.base}/dashboard/")
    assert await load(driver, link, "leaderboards") == []
    assert driver.title == "Leaderboard · all time · quizbot dashboard"  # type: ignore[attr-defined]
    # Ana: 10 + 20 (tiny) + 10 + 10 (offloading's first and third, both easy); Bo: 10.
    assert texts(driver, "svg#points g.bar text.label") == ["Ana", "Bo"]
    assert texts(driver, "svg#points g.bar text.value") == ["50", "10"]
    assert await load(driver, link + "?period=week&topic=tiny", "leaderboard-week-tiny") == []
    assert texts(driver, "svg#points g.bar text.label") == ["Ana", "Bo"]
    assert texts(driver, "svg#points g.bar text.value") == ["30", "10"]

    assert await load(driver, link + "insights?topic=tiny", "insights") == []
    assert labels_outside(driver) == []
    # On a phone-wide window the wide item table scrolls by itself, never the page.
    assert driver.execute_script(  # type: ignore[attr-defined]
        "return document.documentElement.scrollWidth <= window.innerWidth"
    )
    assert texts(driver, "svg#accuracy-0 g.bar text.label") == [
        "Two times three?",
        "One plus one?",
    ]
    assert texts(driver, "svg#accuracy-0 g.bar text.value") == ["33% (3)", "67% (3)"]
    rows = texts(driver, "table")[0]
    assert "Tiny test bank 3 6 50% —" in rows.replace("\n", " ")
    # The item table: every question tried, flagged first, then hardest first; each
    # column's heading but the current order's is a link that sorts by it.
    items = texts(driver, "table")[-1].split("\n")
    assert items == [
        "Question Topic First tries Right at first try (95% interval) Discrimination"
        " Why it is flagged",
        "Two times three? Tiny test bank 3 33% (6–79%) —",  # Wilson by hand: 0.061–0.792
        "One plus one? Tiny test bank 3 67% (21–94%) —",
    ]
    sorts = driver.find_elements("css selector", "table:last-of-type th a")  # type: ignore[attr-defined]
    assert [a.text for a in sorts] == [
        "First tries",
        "Right at first try (95% interval)",
        "Discrimination",
    ]  # "Why it is flagged" is the current order
    await asyncio.to_thread(sorts[1].click)  # the page loads from this test's event loop
    assert "sort=facility" in driver.current_url  # type: ignore[attr-defined]
    assert texts(driver, "table:last-of-type th a")[-1] == "Why it is flagged"
    assert await asyncio.to_thread(_status, link + "insights?sort=points") == 404

    # 26 topics are a drop-down and a Show button (a plain form, no script).
    assert await asyncio.to_thread(show_topic, driver, "") == "All topics"
    assert "topic=tiny" not in driver.current_url  # type: ignore[attr-defined]
    assert await asyncio.to_thread(show_topic, driver, "tiny") == "Tiny test bank"
    assert "topic=tiny" in driver.current_url and "lang=en" in driver.current_url  # type: ignore[attr-defined]

    # Offloading's prompts are long: each label fits its chart, shortened, whole on hover.
    assert await load(driver, link + "insights?topic=offloading", "insights-long") == []
    assert labels_outside(driver) == []
    shown = texts(driver, "svg#accuracy-0 g.bar text.label")
    assert len(shown) == 3 and all(label.endswith("…") for label in shown), shown
    full = driver.execute_script(  # type: ignore[attr-defined]
        "return [...document.querySelectorAll('svg#accuracy-0 text.label title')]"
        ".map(t => t.textContent)"
    )
    assert "What is the primary goal of offloading optimizer state to CPU or NVMe?" in full

    assert await load(driver, link + "question/tiny/tiny-two", "question") == []
    assert texts(driver, "svg#choices g.bar text.label") == ["Five", "Six (right)"]
    assert texts(driver, "svg#choices g.bar text.value") == ["2", "1"]
    assert len(texts(driver, "svg.chart")) == 2  # overall, and the one week with answers

    assert await load(driver, link + "participation", "participation") == []
    assert texts(driver, "svg#active g.bar text.label") == ["2027-01-04", "2027-01-05"]
    assert texts(driver, "svg#active g.bar text.value") == ["2", "2"]
    trend, streak_table = texts(driver, "table")
    # One week (Monday 4 January): 3 players, 9 answers, 5 of 9 right at first try.
    assert trend.split("\n") == ["Week of Players Answers Right at first try", "2027-01-04 3 9 56%"]
    streaks = streak_table.split("\n")
    assert streaks[1:] == ["Ana 2", "Bo 1", "<script>alert(1)</script> 1"]  # shown as text
    assert "<script>alert" not in driver.page_source  # type: ignore[attr-defined]


async def test_forged_and_expired_links_get_403(chromium: object, site: Site) -> None:
    driver = chromium
    link = await site.link()
    token = link.split("/dashboard/")[1].rstrip("/")
    payload, mac = token.split(".")
    forged = f"{site.base}/dashboard/{payload}.{mac[:-2]}xx/"
    assert await asyncio.to_thread(_status, forged) == 403
    await load(driver, forged, "forged")
    assert texts(driver, "h1") == ["This link is not valid."]
    other = f"{site.base}/dashboard/{payload[:-3]}abc.{mac}/insights"
    assert await asyncio.to_thread(_status, other) == 403
    assert await asyncio.to_thread(_status, f"{site.base}/dashboard/") == 404
    site.clock.advance(25 * 3600)
    assert await asyncio.to_thread(_status, link) == 403
    await load(driver, link, "expired")
    assert texts(driver, "h1") == ["This link has expired."]


async def test_the_knowledge_map_and_the_workspaces_name(chromium: object, site: Site) -> None:
    driver = chromium
    # Five have started tiny now (Ana, Bo, the sneaky name, Cy, Di); Ana lets the map
    # name her; offloading has one player: under the floor.
    await answer_quiz(site.engine, PLAYERS[2], "tiny", [True, True])
    await answer_quiz(site.engine, PlayerRef("slack", "U7", "Di"), "tiny", [False, True])
    await site.engine.handle(SetSharing(True), Context(PLAYERS[0], CHANNEL))
    # The map is recorded at a week's first tick, once; a week later, again.
    await site.engine.scheduler.tick()
    await site.engine.scheduler.tick()
    site.clock.advance(7 * 86400)
    await site.engine.scheduler.tick()
    reply = await site.engine.handle(
        ShowDashboard(), Context(ADMIN, CHANNEL, None, True, workspace_name="Acme ML")
    )
    assert isinstance(reply.view, DashboardLink)
    assert await load(driver, reply.view.url + "map", "knowledge-map") == []
    # Recall fades: a week on, nobody's first answers hold at 90 %.
    assert texts(driver, "table#map-trend tr") == [
        "Topic 11-23 11-30 12-07 12-14 12-21 12-28 01-04 01-11",
        "Tiny test bank — — — — — — 2/5 0/5",
        "Optimizer state offloading to CPU and NVMe — — — — — — (1) (1)",  # under the floor
    ]
    assert driver.title == "What the team knows · quizbot dashboard"  # type: ignore[attr-defined]
    assert texts(driver, "header h1") == ["quizbot dashboard · Acme ML"]
    rows = texts(driver, "table#map tr")
    assert rows == [
        "Topic Solid Shaky Not started Named (opted in)",
        "Tiny test bank 0 (0%) 5 (100%) 0 (0%) shaky: Ana",
        # One has started offloading: under the floor of 5, no split.
        "Optimizer state offloading to CPU and NVMe — — 4 (80%) shaky: Ana",  # 1 of 3 wrong
    ]
    shades = driver.execute_script(  # type: ignore[attr-defined]
        "return [...document.querySelectorAll('table#map tbody tr:first-child td.heat')]"
        ".map(td => getComputedStyle(td).backgroundColor)"
    )
    # Shaded by the share of members, half strength at most: text stays readable.
    assert shades == ["rgba(42, 111, 219, 0)", "rgba(42, 111, 219, 0.5)", "rgba(42, 111, 219, 0)"]


async def test_a_hindi_browser_sees_hindi(site: Site) -> None:
    if not (CHROMIUM and DRIVER):
        pytest.skip("chromium and chromium-driver are not installed")
    driver = await asyncio.to_thread(browser, "hi")
    try:
        link = await site.link()
        assert await load(driver, link, "leaderboards-hi") == []
        assert texts(driver, "nav a")[0] == "लीडरबोर्ड"
        assert driver.title == "लीडरबोर्ड · अब तक · quizbot dashboard"
        assert await load(driver, link + "insights?topic=offloading", "insights-hi") == []
        assert labels_outside(driver) == []  # Devanagari labels fit too
        assert await load(driver, link + "insights?lang=en", "insights-en") == []
        assert texts(driver, "nav a")[1] == "Insights"
        # Bengali, by the page's own language links: the insights and the map.
        assert await load(driver, link + "insights?topic=offloading&lang=bn", "insights-bn") == []
        assert labels_outside(driver) == []  # Bengali labels fit too
        assert await load(driver, link + "map?lang=bn", "map-bn") == []
        assert texts(driver, "nav a")[2] == "নলেজ ম্যাপ"
        assert texts(driver, "main h2")[0] == "টিম কী জানে"
        assert texts(driver, "table#map th")[:3] == ["বিষয়", "পাকা", "কাঁচা"]
    finally:
        await asyncio.to_thread(driver.quit)


def test_links_cannot_be_made_without_the_secret() -> None:
    signer = Signer(SECRET, "http://x")
    token = signer.token(CHANNEL, "en", 1000.0)
    assert Signer("another-secret-of-32-characters!", "http://x").check(token, 1001.0) == "forged"
    granted = signer.check(token, 1001.0)
    assert not isinstance(granted, str) and granted.scope.workspace_id == "T1"
    assert signer.check(token, 1000.0 + 24 * 3600) == "expired"
    assert Context(ADMIN, CHANNEL, is_admin=True).is_admin


@pytest.mark.parametrize(
    "garble",
    [
        lambda payload, mac: f"{payload}.{mac[:-1]}é",  # a MAC that is not ASCII
        lambda payload, mac: f"{payload[:4]} {payload[4:]}.{mac}",  # whitespace inside
        lambda payload, mac: f"{payload}.{mac.upper()}",  # not the alphabet tokens use
        lambda payload, mac: f"{payload}.{mac}.{mac}",
        lambda payload, mac: f"{payload}{mac}",
    ],
    ids=["non-ascii", "space", "uppercase", "extra-part", "no-dot"],
)
async def test_a_malformed_token_is_a_forged_link_not_an_error(
    site: Site, garble: Callable[[str, str], str]
) -> None:
    token = (await site.link()).split("/dashboard/")[1].rstrip("/")
    malformed = garble(*token.split("."))
    assert site.engine.insights.signer.check(malformed, site.clock.now()) == "forged"
    url = f"{site.base}/dashboard/{quote(malformed)}/"
    assert await asyncio.to_thread(_status, url) == 403


async def test_an_estimate_questions_page_shows_first_estimates_on_a_log_axis(
    chromium: object, tmp_path: Path, unused_port: int
) -> None:
    clock = FakeClock(moment("2027-01-04T10:00"))
    base = f"http://127.0.0.1:{unused_port}"
    store = await Store.open(tmp_path / "quiz.db", memory=Memory(fuzz=False))
    catalog = load_catalog([FIXTURES / "estimates" / "kv.yaml"])
    engine = Engine(catalog, store, clock, dashboard=Signer(SECRET, base))
    runner = web.AppRunner(dashboard_app(engine, engine.insights.signer))  # type: ignore[arg-type]
    try:
        for player, typed in zip(PLAYERS, ["600 KiB", "2 MiB", "300 KiB"], strict=True):
            asked = await engine.start_quiz(player, CHANNEL, "kv", "en")
            assert isinstance(asked, QuestionView) and asked.estimate is not None
            action = actions.decode(asked.estimate.action_id)
            assert isinstance(action, actions.EstimateAction)
            await engine.handle(AnswerEstimate(action, typed), Context(player, CHANNEL))
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", unused_port).start()
        link = await Site(engine, clock, base).link()
        assert await load(chromium, link + "question/kv/kv-bytes", "question-estimate") == []
        assert texts(chromium, "svg#estimates g.bar text.label") == [
            "288 KiB – 910 KiB (right)",
            "910 KiB – 2,879 KiB",
        ]
        assert texts(chromium, "svg#estimates g.bar text.value") == ["2", "1"]
        assert (
            "The answer: 512 KiB. The team's median of 3 first estimates: 600 KiB. Off by +17 %."
            in texts(chromium, "main p")
        )
    finally:
        await runner.cleanup()
        await store.close()
