"""A server's own banks through the real discord.py client: an admin uploads a file
attached to /quiz-bank upload (downloaded from the fake's CDN), lists and removes banks; a
member proposes a question in a modal, an admin approves it with a button on the list,
the author hears of it in a direct message, and the question plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.discord.client import QuizClient
from bot.content.formats.importer import Options, bank_from_upload
from bot.services.engine import Engine
from fakes.discord import ALICE, OWEN, FakeDiscord, FakeFile, FakeUser, Fault, Outcome

from .support import running_bot, warnings

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
GIFT = (EXAMPLES / "team.gift").read_bytes()
OTHER_GUILD = "1200000000000000099"
SAVED = (
    "Saved the bank “Team ML systems” (team): 3 questions. It is in this workspace's topics now."
)
NO_BANKS = "This workspace has no banks of its own yet."
ADMIN_ONLY = "Only an admin can do that."
FORM = {
    "topic": "on-call",
    "prompt": "Which signal pages the on-call engineer first?",
    "choices": "The SLO burn-rate alert\nA single slow request\nA dashboard colour change",
    "explanation": "Burn-rate alerts page when the error budget is being spent too fast.",
    "reference": "https://sre.google/workbook/alerting-on-slos/",
}


def team_yaml() -> bytes:
    """team.gift as the YAML bank `quizbot banks import` writes."""
    imported, errors = bank_from_upload("team.gift", GIFT, Options())
    assert imported is not None and errors == []
    return imported.text.encode()


async def upload(
    fake: FakeDiscord, name: str, data: bytes, user: FakeUser = OWEN, **options: object
) -> Outcome:
    return await fake.slash(
        "quiz-bank",
        "upload",
        user=user,
        file=FakeFile(name, data),
        **options,  # type: ignore[arg-type]
    )


async def test_an_admin_uploads_a_gift_or_yaml_bank_and_the_server_plays_it(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    for name, data in (("team.gift", GIFT), ("team.yaml", team_yaml())):
        saved = await upload(fake, name, data)
        # Acknowledged at once ("thinking…", privately), answered when checked.
        assert (saved.callback_type, saved.ephemeral, saved.content) == (5, True, SAVED)
    assert fake.downloads == ["team.gift", "team.yaml"]
    quiz = await fake.slash("quiz", topic="team")
    assert quiz.ephemeral and "Question 1 of 3 · Team ML systems" in quiz.text()
    assert [b["label"] for b in quiz.buttons] == ["A", "B", "C", "D"]
    topics = await fake.slash("quiz-topics")
    assert "`/quiz team`" in topics.text()


async def test_a_broken_file_shows_its_problems_privately_and_stores_nothing(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    broken = b"id: team\ntitle: {en: Team}\ndescription: {en: Ours}\nquestions:\n  - id: q1\n"
    refused = await upload(fake, "team.yaml", broken)
    assert refused.ephemeral
    assert refused.content.splitlines()[:4] == [
        "team.yaml: 7 problem(s), nothing was saved:",
        "team.yaml:2: bank team: title is missing the translation(s): hi, bn (or declare the"
        " bank's languages, e.g. 'locales: [en]')",
        "team.yaml:3: bank team: description is missing the translation(s): hi, bn (or"
        " declare the bank's languages, e.g. 'locales: [en]')",
        "team.yaml:5: bank team: question q1: the question is missing 'prompt'",
    ]
    no_explanation = await upload(fake, "ours.gift", b"::q1:: Which? {=A ~B}\n")
    assert no_explanation.content.splitlines()[1].startswith(
        "ours.gift:1: question q1: no explanation"
    )
    # Too big by the size Discord declares: not even downloaded.
    big = await upload(fake, "big.csv", b"x" * 2_000_001)
    assert big.content == "The file is larger than 2 MB: split the bank into smaller ones."
    assert fake.downloads == ["team.yaml", "ours.gift"]
    assert (await fake.slash("quiz-bank", "list")).content == NO_BANKS
    allowed = await upload(fake, "ours.gift", b"::q1:: Which? {=A ~B}\n", allow_missing=True)
    assert allowed.content.startswith("Saved the bank “ours” (ours): 1 questions.")


async def test_a_file_that_cannot_be_downloaded_is_a_private_try_again(
    fake: FakeDiscord, bot: QuizClient, caplog: pytest.LogCaptureFixture
) -> None:
    fake.faults.append(Fault("/attachments/", status=500))
    failed = await upload(fake, "team.gift", GIFT)
    assert (failed.ephemeral, failed.content) == (
        True,
        "Sorry, something went wrong on our side. Please try again in a moment.",
    )
    assert [w for w in warnings(caplog) if "bank file" in w] == [
        "could not download the bank file 'team.gift': 500 Internal Server Error"
        " (error code: 0): failed to get asset"
    ]
    assert (await fake.slash("quiz-bank", "list")).content == NO_BANKS


async def test_a_member_cannot_upload_remove_or_approve(fake: FakeDiscord, bot: QuizClient) -> None:
    assert (await upload(fake, "team.gift", GIFT, user=ALICE)).content == ADMIN_ONLY
    assert fake.downloads == []  # a member's file is never downloaded
    await upload(fake, "team.gift", GIFT)
    removed = await fake.slash("quiz-bank", "remove", user=ALICE, id="team")
    assert (removed.ephemeral, removed.content) == (True, ADMIN_ONLY)
    assert (await fake.slash("quiz-proposals", user=ALICE)).content == ADMIN_ONLY
    await propose(fake)
    page = await fake.slash("quiz-proposals", user=OWEN)
    approve = page.button("Approve #1")["custom_id"]
    forged = await fake.click(page.message["id"], approve, user=ALICE)
    assert (forged.ephemeral, forged.content) == (True, ADMIN_ONLY)
    assert fake.dms == {}
    still = await fake.slash("quiz-proposals", user=OWEN)
    assert "Proposed questions waiting: 1" in still.text()


async def test_list_and_remove(fake: FakeDiscord, bot: QuizClient) -> None:
    await upload(fake, "team.gift", GIFT)
    listed = await fake.slash("quiz-bank", "list", user=ALICE)
    assert (listed.ephemeral, listed.content) == (
        True,
        "This workspace's own banks:\n• Team ML systems (team): 3 questions",
    )
    removed = await fake.slash("quiz-bank", "remove", user=OWEN, id="team")
    assert removed.content == (
        "Removed the bank team. Answers already given stay on the leaderboards."
    )
    again = await fake.slash("quiz-bank", "remove", user=OWEN, id="team")
    assert again.content == "This workspace has no bank team."
    blank = await fake.slash("quiz-bank", "remove", user=OWEN, id=" ")
    assert blank.content.startswith("Usage: /quiz-bank upload file:<bank file>")
    assert (await fake.slash("quiz-bank", "list")).content == NO_BANKS
    gone = await fake.slash("quiz", topic="team")
    assert "I don't know the topic “team”." in gone.text()


async def propose(fake: FakeDiscord, user: FakeUser = ALICE) -> Outcome:
    opened = await fake.slash("quiz-propose", user=user)
    assert opened.callback_type == 9 and opened.modal is not None
    return await fake.submit(opened.modal, FORM, user=user)


async def test_propose_approve_and_play(fake: FakeDiscord, bot: QuizClient) -> None:
    opened = await fake.slash("quiz-propose")
    assert opened.modal is not None
    assert opened.modal["title"] == "Propose a question"
    inputs = [row["components"][0] for row in opened.modal["components"]]
    assert [(i["custom_id"], i["label"], i["style"], i["required"]) for i in inputs] == [
        ("topic", "Topic", 1, True),
        ("prompt", "Question", 2, True),
        ("choices", "Choices, one per line, the right one first", 2, True),
        ("explanation", "Explanation", 2, True),
        ("reference", "Reference (optional)", 1, False),
    ]
    sent = await fake.submit(opened.modal, FORM)
    assert (sent.ephemeral, sent.content) == (
        True,
        "Thanks! Your question #1 for on-call waits for an admin's review.",
    )

    page = await fake.slash("quiz-proposals", user=OWEN)
    assert page.ephemeral and page.content == "**Proposed questions waiting: 1**"
    [card] = page.embeds
    assert card["title"] == "\\#1 · for on-call"  # escaped: a leading # is a heading mark
    assert "**A.** The SLO burn-rate alert ✓" in card["description"]
    assert "**B.** A single slow request" in card["description"]
    assert card["footer"]["text"] == f"Proposed by {ALICE.id}"
    assert [b["label"] for b in page.buttons] == ["Approve #1", "Reject #1"]

    approved = await fake.click(
        page.message["id"], page.button("Approve #1")["custom_id"], user=OWEN
    )
    assert approved.message["id"] == page.message["id"] and not approved.new_message
    assert approved.content == (
        "Approved #1: it is in on-call now.\n\nNo proposed questions are waiting."
    )
    assert approved.buttons == [] and approved.embeds == []
    assert fake.dm_texts(ALICE) == [
        "Your proposed question #1 was approved: it is in the topic on-call now."
    ]
    quiz = await fake.slash("quiz", topic="on-call")
    assert "Which signal pages the on-call engineer first?" in quiz.text()
    assert "The SLO burn-rate alert" in quiz.text()


async def test_a_form_opened_before_a_restart_is_taken_after_it(
    fake: FakeDiscord, engine: Engine
) -> None:
    """No process keeps the form: its submission is routed by the modal's custom_id."""
    async with running_bot(fake, engine):
        opened = await fake.slash("quiz-propose")
    assert opened.modal is not None
    async with running_bot(fake, engine):
        sent = await fake.submit(opened.modal, FORM)
    assert sent.content == "Thanks! Your question #1 for on-call waits for an admin's review."


async def test_a_rejected_proposal_is_told_and_a_decided_one_stays_decided(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    await propose(fake)
    page = await fake.slash("quiz-proposals", user=OWEN)
    reject = page.button("Reject #1")["custom_id"]
    rejected = await fake.click(page.message["id"], reject, user=OWEN)
    assert rejected.content.startswith("Rejected #1.")
    assert fake.dm_texts(ALICE) == ["Your proposed question #1 for on-call was not accepted."]
    # The same button again (an old copy of the list): decided already, told once.
    twice = await fake.click(page.message["id"], reject, user=OWEN)
    assert twice.content.startswith("That question was decided already.")
    assert len(fake.dm_texts(ALICE)) == 1
    assert "I don't know the topic" in (await fake.slash("quiz", topic="on-call")).text()


async def test_one_server_never_sees_another_servers_banks_or_proposals(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    await upload(fake, "team.gift", GIFT)
    await propose(fake)
    theirs = await fake.slash("quiz-bank", "list", guild_id=OTHER_GUILD)
    assert theirs.content == NO_BANKS
    quiz = await fake.slash("quiz", topic="team", guild_id=OTHER_GUILD)
    assert "I don't know the topic “team”." in quiz.text()
    pending = await fake.slash("quiz-proposals", user=OWEN, guild_id=OTHER_GUILD)
    assert pending.content == "No proposed questions are waiting."
    removed = await fake.slash("quiz-bank", "remove", user=OWEN, id="team", guild_id=OTHER_GUILD)
    assert removed.content == "This workspace has no bank team."
    assert "Question 1 of 3" in (await fake.slash("quiz", topic="team")).text()


async def test_an_english_only_bank_for_a_hindi_player(fake: FakeDiscord, bot: QuizClient) -> None:
    await upload(fake, "team.gift", GIFT)  # one language: locales [en]
    quiz = await fake.slash("quiz", topic="team", locale="hi")
    shown = quiz.text()
    assert "In FP16 mixed precision training, why is the loss multiplied" in shown
    assert "ये प्रश्न केवल English भाषा में हैं: आपकी भाषा में इनका अनुवाद अभी नहीं हुआ है।" in shown
    assert "प्रश्न 1 / 3" in shown
    form = await fake.slash("quiz-propose", locale="hi")
    assert form.modal is not None and form.modal["title"] == "प्रश्न सुझाएँ"


async def test_forged_forms_and_direct_messages_get_a_clear_private_answer(
    fake: FakeDiscord, bot: QuizClient
) -> None:
    unknown = await fake.interact(
        fake.interaction(5, {"custom_id": "someone-elses-form", "components": []})
    )
    assert (unknown.ephemeral, unknown.content) == (
        True,
        "Sorry, something went wrong on our side. Please try again in a moment.",
    )
    junk = {"custom_id": "quiz-propose", "components": [{"type": 1, "components": "junk"}, 7]}
    refused = await fake.interact(fake.interaction(5, junk))
    assert refused.ephemeral and refused.content.startswith("“” cannot be a topic id")
    assert (await fake.slash("quiz-proposals", user=OWEN)).content == (
        "No proposed questions are waiting."
    )
    dm = "A server's own banks and proposed questions live in that server: use this command there."
    assert (await fake.slash("quiz-propose", guild=False)).content == dm
    assert (await fake.slash("quiz-bank", "list", guild=False)).content == dm
    in_dm = await fake.slash("quiz-bank", "upload", guild=False, file=FakeFile("t.gift", GIFT))
    assert in_dm.content == dm and fake.downloads == []
