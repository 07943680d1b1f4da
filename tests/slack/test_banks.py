"""A workspace's own banks on Slack, end to end: the real bolt app in HTTP mode opens the
upload and proposal modals (views.open), reads their signed view_submission, downloads
the chosen file from the fake Slack with the bot token, and answers privately
(chat.postEphemeral); an admin approves a proposal with a button and its author hears
of it in the app's DM."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from adapters.slack import modals
from bot.content.formats.importer import Options, bank_from_upload
from bot.ui.i18n import LOCALES
from fakes.slack import Call, FakeSlack, SlackDriver, buttons, shown_text, view_problems

from .support import SECRET

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
ADMIN = "UADMIN"
SAVED = (
    "Saved the bank “Team ML systems” (team): 3 questions. It is in this workspace's topics now."
)
NO_BANKS = "This workspace has no banks of its own yet."
ADMIN_ONLY = "Only an admin can do that."
# The broken bank of the core's tests: what `quizbot banks check` says of it.
BROKEN = b"id: team\ntitle: {en: Team}\ndescription: {en: Ours}\nquestions:\n  - id: q1\n"


def team_yaml() -> bytes:
    """The GIFT example as the YAML bank `quizbot banks import` writes (English only)."""
    imported, errors = bank_from_upload(
        "team.gift", (EXAMPLES / "team.gift").read_bytes(), Options()
    )
    assert imported is not None and errors == []
    return imported.text.encode()


async def reply_to(fake: FakeSlack, user: str, count: int = 1) -> dict[str, Any]:
    """The ``count``-th private message (chat.postEphemeral) the app sent ``user``."""
    found = await fake.wait_for(lambda: fake.ephemerals(user)[count - 1 :] or None)
    return found[0]


async def upload(
    slack: SlackDriver, fake: FakeSlack, answers: dict[str, object], user: str = ADMIN
) -> str:
    """Open the upload form as ``user``, submit it; the text of the private reply."""
    before = len(fake.ephemerals(user))
    view = await slack.open_form("bank upload", user, fake)
    assert await slack.submit(view, answers, user) == {}  # the modal closes at once
    reply = await reply_to(fake, user, before + 1)
    assert reply["channel"] == slack.channel
    return shown_text(reply)


async def upload_file(slack: SlackDriver, fake: FakeSlack, name: str, content: bytes) -> str:
    return await upload(slack, fake, {"file": [fake.add_file(name, content)]})


async def test_an_admin_uploads_a_gift_file_and_the_channel_plays_it(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    view = await slack.open_form("bank upload", ADMIN, fake)
    assert view["title"]["text"] == "Upload a bank" and view["submit"]["text"] == "Upload"
    labels = [b["label"]["text"] for b in view["blocks"]]
    assert labels == [
        "Bank file",
        "…or paste the bank's text",
        "Format of the pasted text",
        "Topic id of the pasted text",
        "Language of the questions",
        "Explanations and references",
    ]
    language = view["blocks"][4]["element"]
    assert [o["value"] for o in language["options"]] == ["en", "hi", "bn"]
    assert language["initial_option"]["value"] == "en"  # the admin's own language
    file_input = view["blocks"][0]["element"]
    assert file_input["type"] == "file_input" and file_input["max_files"] == 1
    assert file_input["filetypes"] == ["yaml", "yml", "gift", "xml", "json", "csv", "txt"]
    pasted = view["blocks"][1]
    assert pasted["hint"]["text"] == (
        "Slack takes up to 3000 characters here: send a longer bank as a file."
    )
    assert pasted["element"]["max_length"] == 3000 and pasted["element"]["multiline"] is True

    gift = fake.add_file("team.gift", (EXAMPLES / "team.gift").read_bytes())
    assert await slack.submit(view, {"file": [gift]}, ADMIN) == {}
    assert shown_text(await reply_to(fake, ADMIN)) == SAVED
    assert fake.calls_to("files") == [Call("files", {"id": gift["id"], "authorized": True})]

    first = shown_text(await slack.command("team", "U1"))
    assert "Question 1 of 3 · Team ML systems" in first
    assert "In FP16 mixed precision training, why is the loss multiplied" in first


async def test_a_yaml_file_and_pasted_text_upload_too(slack: SlackDriver, fake: FakeSlack) -> None:
    assert await upload_file(slack, fake, "team.yaml", team_yaml()) == SAVED
    listed = shown_text(await slack.command("bank list", "U1"))
    assert listed == "This workspace's own banks:\n• Team ML systems (team): 3 questions"
    gift = (EXAMPLES / "team.gift").read_text(encoding="utf-8")
    pasted = gift.replace("$CATEGORY: $course$/top/Team ML systems", "$CATEGORY: ours")
    assert len(pasted) <= 3000
    saved = await upload(slack, fake, {"pasted": pasted, "format": "gift", "pasted_id": "ours"})
    assert saved.startswith("Saved the bank “ours” (ours): 3 questions.")
    assert "Question 1 of 3 · ours" in shown_text(await slack.command("ours", "U2"))


async def test_an_empty_or_doubled_upload_form_stays_open_saying_why(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    view = await slack.open_form("bank upload", ADMIN, fake)
    assert await slack.submit(view, {}, ADMIN) == {
        "response_action": "errors",
        "errors": {"file": "Choose a file or paste a bank's text."},
    }
    both = {"file": [fake.add_file("team.gift", b"x")], "pasted": "id: x"}
    assert await slack.submit(view, both, ADMIN) == {
        "response_action": "errors",
        "errors": {"file": "Send a file or pasted text, not both."},
    }
    assert fake.ephemerals(ADMIN) == [] and fake.calls_to("files") == []


async def test_a_broken_file_shows_its_problems_privately_and_stores_nothing(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    refused = await upload_file(slack, fake, "team.yaml", BROKEN)
    assert refused.splitlines()[:4] == [
        "team.yaml: 7 problem(s), nothing was saved:",
        "team.yaml:2: bank team: title is missing the translation(s): hi, bn (or declare the"
        " bank's languages, e.g. 'locales: [en]')",
        "team.yaml:3: bank team: description is missing the translation(s): hi, bn (or declare"
        " the bank's languages, e.g. 'locales: [en]')",
        "team.yaml:5: bank team: question q1: the question is missing 'prompt'",
    ]
    no_explanation = await upload_file(slack, fake, "ours.gift", b"::q1:: Which? {=A ~B}\n")
    assert no_explanation.splitlines()[1].startswith("ours.gift:1: question q1: no explanation")
    assert shown_text(await slack.command("bank list", ADMIN)) == NO_BANKS
    allowed = await upload(
        slack,
        fake,
        {
            "file": [fake.add_file("ours.gift", b"::q1:: Which? {=A ~B}\n")],
            "options": ["allow_missing"],
        },
    )
    assert allowed.startswith("Saved the bank “ours” (ours): 1 questions.")


async def test_a_file_address_outside_slack_gets_no_token(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    forged = {**fake.add_file("team.gift", b""), "url_private_download": "https://evil.test/f"}
    refused = await upload(slack, fake, {"file": [forged]})
    assert refused == (
        "Slack did not give quizbot the file team.gift (not a Slack file address): try again,"
        " or paste the bank's text instead."
    )
    assert fake.calls_to("files") == []
    assert shown_text(await slack.command("bank list", ADMIN)) == NO_BANKS


async def test_members_cannot_upload_remove_or_see_proposals(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    asked = await slack.command("bank upload", "U1")  # no form for a member
    assert shown_text(asked) == ADMIN_ONLY and asked["response_type"] == "ephemeral"
    assert fake.views == []
    # A member submitting the admin's form (a forged or stale one) is refused unread.
    view = await slack.open_form("bank upload", ADMIN, fake)
    gift = fake.add_file("team.gift", (EXAMPLES / "team.gift").read_bytes())
    assert await slack.submit(view, {"file": [gift]}, "U1") == {}
    assert shown_text(await reply_to(fake, "U1")) == ADMIN_ONLY
    assert fake.calls_to("files") == []
    assert shown_text(await slack.command("bank list", "U1")) == NO_BANKS
    assert await upload_file(slack, fake, "team.gift", gift_bytes()) == SAVED
    assert shown_text(await slack.command("bank remove team", "U1")) == ADMIN_ONLY
    assert shown_text(await slack.command("proposals", "U1")) == ADMIN_ONLY
    assert "Team ML systems (team)" in shown_text(await slack.command("bank list", "U1"))


def gift_bytes() -> bytes:
    return (EXAMPLES / "team.gift").read_bytes()


async def test_list_and_remove(slack: SlackDriver, fake: FakeSlack) -> None:
    assert shown_text(await slack.command("bank list", "U1")) == NO_BANKS
    assert await upload_file(slack, fake, "team.gift", gift_bytes()) == SAVED
    listed = shown_text(await slack.command("bank list", "U1"))
    assert listed == "This workspace's own banks:\n• Team ML systems (team): 3 questions"
    removed = shown_text(await slack.command("bank remove team", ADMIN))
    assert removed == "Removed the bank team. Answers already given stay on the leaderboards."
    assert shown_text(await slack.command("bank remove team", ADMIN)) == (
        "This workspace has no bank team."
    )
    assert shown_text(await slack.command("bank list", "U1")) == NO_BANKS
    usage = shown_text(await slack.command("bank", "U1"))
    assert usage == (
        "Usage: /quiz bank upload | list | remove <id> (admin); /quiz propose;"
        " /quiz proposals (admin)"
    )


PROPOSAL = {
    "topic": "on-call",
    "prompt": "Which signal pages the on-call engineer first?",
    "choices": "The SLO burn-rate alert\nA single slow request\nA dashboard colour change",
    "explanation": "Burn-rate alerts page when the error budget is being spent too fast.",
    "reference": "https://sre.google/workbook/alerting-on-slos/",
}


async def test_a_proposal_is_approved_in_place_its_author_told_and_it_plays(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    view = await slack.open_form("propose", "U1", fake)
    assert view["title"]["text"] == "Propose a question"
    assert [b["block_id"] for b in view["blocks"]] == [
        "topic",
        "prompt",
        "choices",
        "explanation",
        "reference",
    ]
    assert view["blocks"][2]["hint"]["text"] == "2 to 5 choices, the right one first."
    assert await slack.submit(view, PROPOSAL, "U1") == {}
    sent = shown_text(await reply_to(fake, "U1"))
    assert sent == "Thanks! Your question #1 for on-call waits for an admin's review."

    page = await slack.command("proposals", ADMIN)
    shown = shown_text(page)
    assert "Proposed questions waiting: 1" in shown and "#1 · for on-call" in shown
    assert "Which signal pages the on-call engineer first?" in shown
    assert "A. The SLO burn-rate alert ✓" in shown and "B. A single slow request" in shown
    assert "Proposed by U1" in shown
    assert list(buttons(page)) == ["Approve #1", "Reject #1"]
    # A member's click on the admin's buttons changes nothing.
    refused = await slack.click(buttons(page)["Approve #1"], "U2")
    assert shown_text(refused) == ADMIN_ONLY and refused["replace_original"] is False

    approved = await slack.click(buttons(page)["Approve #1"], ADMIN)
    assert approved["replace_original"] is True  # the list message updates in place
    assert shown_text(approved) == (
        "Approved #1: it is in on-call now.\nNo proposed questions are waiting."
    )
    told = await fake.wait_for(lambda: fake.dms("U1") or None)
    assert [shown_text(m) for m in told] == [
        "Your proposed question #1 was approved: it is in the topic on-call now."
    ]
    again = await slack.click(buttons(page)["Approve #1"], ADMIN)
    assert "That question was decided already." in shown_text(again)
    assert len(fake.dms("U1")) == 1

    question = shown_text(await slack.command("on-call", "U2"))
    assert "Question 1 of 1 · on-call" in question
    assert "Which signal pages the on-call engineer first?" in question


async def test_a_bad_proposal_is_refused_privately(slack: SlackDriver, fake: FakeSlack) -> None:
    view = await slack.open_form("propose", "U1", fake)
    one_choice = {**PROPOSAL, "choices": "Only one"}
    assert await slack.submit(view, one_choice, "U1") == {}
    refused = shown_text(await reply_to(fake, "U1")).splitlines()
    assert refused[0] == "The question was not sent: 1 problem(s):"
    assert "choices" in refused[1]
    assert shown_text(await slack.command("proposals", ADMIN)) == (
        "No proposed questions are waiting."
    )


async def test_one_workspace_never_sees_another_workspaces_bank(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    assert await upload_file(slack, fake, "team.gift", gift_bytes()) == SAVED
    other = SlackDriver(fake, slack.app_url, SECRET, team="T2", channel="C9")
    assert shown_text(await other.command("bank list", ADMIN)) == NO_BANKS
    unknown = shown_text(await other.command("team", "U1"))
    assert "Question 1 of 3" not in unknown and "team" in unknown
    assert "Team ML systems" not in shown_text(await other.command("topics", "U1"))
    assert shown_text(await other.command("bank remove team", ADMIN)) == (
        "This workspace has no bank team."
    )
    assert "Question 1 of 3 · Team ML systems" in shown_text(await slack.command("team", "U1"))


async def test_a_hindi_gift_file_is_a_hindi_bank_that_a_hindi_player_plays_without_a_note(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    gift = (
        "::kv:: KV cache का आकार किसके साथ रैखिक रूप से बढ़ता है? {\n"
        "=sequence length के साथ\n~vocabulary size के साथ\n"
        "####हर token के key और value हर layer में रखे जाते हैं।"
        " Reference: https://arxiv.org/abs/2309.06180\n}\n"
    )
    hindi = fake.add_file("kv.gift", gift.encode())
    saved = await upload(slack, fake, {"file": [hindi], "language": "hi"})
    assert saved.startswith("Saved the bank “kv” (kv): 1 questions.")
    first = shown_text(await slack.command("kv", "UHI"))
    assert "KV cache का आकार किसके साथ रैखिक रूप से बढ़ता है?" in first
    assert "केवल" not in first  # the bank is in the player's language: no note


async def test_an_english_only_bank_tells_a_hindi_player_once(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    assert await upload_file(slack, fake, "team.yaml", team_yaml()) == SAVED
    first = shown_text(await slack.command("team", "UHI"))
    assert "In FP16 mixed precision training, why is the loss multiplied" in first
    assert "ये प्रश्न केवल English भाषा में हैं: आपकी भाषा में इनका अनुवाद अभी नहीं हुआ है।" in first
    assert "प्रश्न 1 / 3" in first


async def test_the_forms_speak_the_members_language(slack: SlackDriver, fake: FakeSlack) -> None:
    hindi = await slack.open_form("propose", "UHI", fake)
    assert hindi["title"]["text"] == "प्रश्न सुझाएँ"
    assert hindi["blocks"][2]["label"]["text"] == "विकल्प, हर पंक्ति में एक"
    assert await slack.command("lang bn", ADMIN)
    bengali = await slack.open_form("bank upload", ADMIN, fake)
    assert bengali["title"]["text"] == "bank আপলোড করুন"
    assert bengali["blocks"][5]["element"]["options"][0]["text"]["text"] == (
        "প্রশ্নে ব্যাখ্যা বা রেফারেন্স না থাকলেও চলবে"
    )
    assert await slack.submit(bengali, {}, ADMIN) == {
        "response_action": "errors",
        "errors": {"file": "একটি ফাইল বেছে নিন অথবা bank-এর টেক্সট পেস্ট করুন।"},
    }


async def test_a_reply_where_the_bot_may_not_post_goes_to_the_dm(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    fake.absent.add(slack.channel)  # a private channel the bot was not invited to
    view = await slack.open_form("propose", "U1", fake)
    assert await slack.submit(view, PROPOSAL, "U1") == {}
    told = await fake.wait_for(lambda: fake.dms("U1") or None)
    assert [shown_text(m) for m in told] == [
        "Thanks! Your question #1 for on-call waits for an admin's review."
    ]


async def test_a_forged_submission_is_refused_without_a_crash(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    view = await slack.open_form("bank upload", ADMIN, fake)
    answers = {"file": [fake.add_file("team.gift", gift_bytes())]}
    payload = slack.submission_payload(view, answers, ADMIN, slack.new_key())
    body = urlencode({"payload": json.dumps(payload)})
    assert await slack.post(body, secret="not-the-secret") == 401
    for forged in (
        {**payload["view"], "private_metadata": "not json"},
        {**payload["view"], "callback_id": "qz_other"},
        {**payload["view"], "state": {"values": "none"}},
    ):
        assert (
            await slack.post(urlencode({"payload": json.dumps({**payload, "view": forged})})) == 400
        )
    assert fake.calls_to("files") == [] and fake.ephemerals(ADMIN) == []
    assert shown_text(await slack.command("bank list", ADMIN)) == NO_BANKS


async def test_a_form_slack_cannot_open_says_try_again(slack: SlackDriver, fake: FakeSlack) -> None:
    fake.faults["views.open"] = ["500", "500"]  # a retry, then given up
    reply = await slack.command("propose", "U1")
    assert shown_text(reply) == (
        "Sorry, something went wrong on our side. Please try again in a moment."
    )
    assert fake.views == []


@pytest.mark.parametrize("locale", LOCALES)
def test_both_forms_are_valid_modals_in_every_language(locale: str) -> None:
    for view in (modals.upload_view(locale, "C1"), modals.proposal_view(locale, "C1")):
        assert view_problems(view) == []


async def test_another_members_command_is_answered_while_a_large_file_is_checked(
    slack: SlackDriver, fake: FakeSlack
) -> None:
    """The review's probe: a CSV of 10,000 rows of one prompt used to hold the event loop
    for seconds (Slack gives up after 3). It is checked in a child process now: a member's
    /quiz topics sent right after the upload is answered before the upload's reply."""
    rows = "".join("same prompt,a,b,1,why,https://example.org/a\n" for _ in range(10_000))
    data = ("prompt,choice_1,choice_2,answer,explanation,references\n" + rows).encode()
    view = await slack.open_form("bank upload", ADMIN, fake)
    assert await slack.submit(view, {"file": [fake.add_file("rows.csv", data)]}, ADMIN) == {}
    topics = await slack.command("topics", "U1")
    assert "offloading" in shown_text(topics)
    assert fake.ephemerals(ADMIN) == []  # the file's check is still under way
    reply = await fake.wait_for(lambda: fake.ephemerals(ADMIN) or None, timeout=30)
    assert shown_text(reply[0]).splitlines() == [
        "rows.csv: 1 problem(s), nothing was saved:",
        "rows.csv:5002: more than 5,000 questions: split the file into topics",
    ]
