"""A workspace's own banks, managed in chat: an admin uploads a bank file (YAML or any
import format) or removes a bank; any member proposes a question, an admin approves or
rejects it, and the author is told. Uploads go through the same validation, with the
same precise errors, as ``quizbot banks check`` and ``quizbot banks import``."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import yaml

from bot.content.banks import ID_PATTERN, Bank, BankError, parse_bank
from bot.content.formats.importer import Options, bank_from_upload
from bot.content.formats.model import slug
from bot.content.formats.yaml_writer import bank_yaml
from bot.domain.actions import ProposalAction
from bot.domain.clock import Clock
from bot.domain.identities import ScopeRef
from bot.persistence import Proposal, WorkspaceBankRepository
from bot.services.channel import Publishers, notice
from bot.services.library import Library, bank_source_name
from bot.services.requests import Context
from bot.ui import i18n
from bot.ui.messages import t
from bot.ui.views import Notice, ProposalItem, ProposalList

log = logging.getLogger(__name__)

MAX_UPLOAD_BYTES = 1_000_000  # a bank of a few thousand questions; chat files can be larger
ERRORS_SHOWN = 10  # a broken file's first problems; the count says how many more
PROPOSALS_SHOWN = 5  # a page of proposals, two buttons each (Discord: 5 rows of 5)


@dataclass(frozen=True)
class Draft:
    """A proposed question as the form gave it."""

    topic: str
    prompt: str
    choices: str  # one per line, the right one first
    explanation: str
    reference: str = ""


class WorkspaceBanks:
    def __init__(
        self,
        library: Library,
        banks: WorkspaceBankRepository,
        clock: Clock,
        publishers: Publishers,
    ):
        self._library = library
        self._banks = banks
        self._clock = clock
        self._publishers = publishers

    # --- banks ---------------------------------------------------------------------------

    async def upload(
        self,
        context: Context,
        name: str,
        data: bytes,
        allow_missing: bool,
        language: str | None,
        size: int | None = None,
    ) -> Notice:
        """``size``: what the platform declares, so that a file too big need not be
        downloaded at all (then ``data`` is empty)."""
        loc = context.locale
        if max(len(data), size or 0) > MAX_UPLOAD_BYTES:
            return notice(loc, "bank_too_big", limit=f"{MAX_UPLOAD_BYTES // 1000} kB")
        options = Options(
            allow_missing=allow_missing, language=i18n.supported(language or "") or "en"
        )
        imported, errors = bank_from_upload(name, data, options)
        if imported is not None:
            errors = self._clashes(imported.bank, name)
        if imported is None or errors:
            return _refused(loc, "bank_invalid", errors, name=name)
        bank = imported.bank
        scope = context.scope
        await self._banks.save(
            scope.platform, scope.workspace_id, bank.id, imported.text, context.player.id,
            self._clock.now(),
        )  # fmt: skip
        self._library.forget(scope.platform, scope.workspace_id)
        return notice(
            loc,
            "bank_saved",
            title=bank.text(bank.title, loc),
            id=bank.id,
            count=len(bank.questions),
        )

    def _clashes(self, bank: Bank, name: str) -> list[BankError]:
        """A workspace bank may not take a shipped bank's id or alias: answers and
        leaderboards refer to banks by id."""
        shipped = self._library.shipped
        taken = {n for b in shipped.banks for n in (b.id, *b.aliases)}
        return [
            BankError(name, 1, f"'{n}' is the id of a built-in topic: choose another id", bank.id)
            for n in (bank.id, *bank.aliases)
            if n in taken
        ]

    async def listing(self, context: Context) -> Notice:
        scope = context.scope
        own = await self._library.own_banks(scope.platform, scope.workspace_id)
        loc = context.locale
        if not own:
            return notice(loc, "bank_none")
        rows = "\n".join(
            t(loc, "bank_row", title=b.text(b.title, loc), id=b.id, count=len(b.questions))
            for b in own
        )
        return Notice(loc, "bank_list", f"{t(loc, 'bank_list')}\n{rows}")

    async def remove(self, context: Context, bank_id: str) -> Notice:
        loc, scope = context.locale, context.scope
        gone = await self._banks.remove(scope.platform, scope.workspace_id, bank_id.strip())
        self._library.forget(scope.platform, scope.workspace_id)
        return notice(loc, "bank_removed" if gone else "bank_unknown", id=bank_id.strip())

    # --- proposals -----------------------------------------------------------------------

    async def propose(self, context: Context, draft: Draft) -> Notice:
        loc, scope = context.locale, context.scope
        topic = slug(draft.topic.strip())
        if not topic or not ID_PATTERN.match(topic):
            return notice(loc, "proposal_bad_topic", topic=draft.topic)
        if self._library.shipped.find(topic) or self._library.shipped.find(draft.topic):
            return notice(loc, "proposal_shipped_topic", topic=draft.topic)
        stored = {
            b.bank_id: b.source for b in await self._banks.banks(scope.platform, scope.workspace_id)
        }
        question = _question(draft, loc, "proposed")
        problems = _check(merged_source(stored.get(topic), topic, draft.topic, loc, question))
        if problems:
            return _refused(loc, "proposal_invalid", problems, located=False)
        number = await self._banks.propose(
            scope.platform, scope.workspace_id, topic, context.player.id, question,
            self._clock.now(),
        )  # fmt: skip
        return notice(loc, "proposal_sent", number=number, topic=topic)

    async def proposals(self, context: Context) -> ProposalList:
        return await self._pending(context)

    async def _pending(self, context: Context, decided: str = "") -> ProposalList:
        scope = context.scope
        pending = await self._banks.pending(scope.platform, scope.workspace_id)
        return ProposalList(
            context.locale,
            tuple(_item(p) for p in pending[:PROPOSALS_SHOWN]),
            len(pending),
            decided,
        )

    async def decide(self, context: Context, action: ProposalAction) -> ProposalList | Notice:
        loc, scope = context.locale, context.scope
        proposal = await self._banks.proposal(action.proposal_id)
        if proposal is None or (proposal.platform, proposal.workspace_id) != (
            scope.platform,
            scope.workspace_id,
        ):
            return notice(loc, "invalid")
        decided = await self._banks.decide(
            proposal, action.approve, context.player.id, self._clock.now(), _merged
        )
        if not decided:
            return await self._pending(context, t(loc, "proposal_decided_already"))
        self._library.forget(scope.platform, scope.workspace_id)
        key = "proposal_approved" if action.approve else "proposal_rejected"
        await self._tell_author(proposal, key)
        return await self._pending(context, t(loc, key, number=proposal.id, topic=proposal.bank_id))

    async def _tell_author(self, proposal: Proposal, key: str) -> None:
        publisher = self._publishers.get(proposal.platform)
        if publisher is None:
            return
        locale = str(proposal.question.get("locale", i18n.DEFAULT_LOCALE))
        text = t(locale, f"{key}_author", number=proposal.id, topic=proposal.bank_id)
        workspace = ScopeRef(proposal.platform, proposal.workspace_id, "")
        try:  # the decision stands even when the platform cannot deliver the news
            await publisher.tell(workspace, proposal.author_id, Notice(locale, key, text))
        except Exception as exc:
            log.warning(
                "could not tell %s about proposal %d: %s", proposal.author_id, proposal.id, exc
            )


def _refused(
    locale: str, kind: str, errors: list[BankError], located: bool = True, **values: object
) -> Notice:
    """The problems, each with its file, line and question (a form's, without them)."""
    shown = [str(e) if located else e.message for e in errors[:ERRORS_SHOWN]]
    more = len(errors) - len(shown)
    tail = [t(locale, "bank_errors_more", count=more)] if more > 0 else []
    head = t(locale, kind, count=len(errors), **values)
    return Notice(locale, kind, "\n".join([head, *shown, *tail]))


def _question(draft: Draft, locale: str, question_id: str) -> dict[str, Any]:
    """The proposal as a bank question in the proposer's language (stored with it, so
    the author is told in that language too)."""
    choices = [line.strip() for line in draft.choices.splitlines() if line.strip()]
    question: dict[str, Any] = {
        "id": question_id,
        "locale": locale,
        "prompt": draft.prompt.strip(),
        "choices": choices,
        "answer": 0,
        "explanation": draft.explanation.strip(),
        "references": [draft.reference.strip()] if draft.reference.strip() else [],
        "title": draft.topic.strip(),
    }
    return question


def _bank_question(question: dict[str, Any], question_id: str, locale: str) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": question_id,
        "prompt": {locale: question["prompt"]},
        "choices": [{locale: c} for c in question["choices"]],
        "answer": question["answer"],
    }
    if question["explanation"]:
        entry["explanation"] = {locale: question["explanation"]}
    if question["references"]:
        entry["references"] = list(question["references"])
    missing = [k for k in ("explanation", "references") if not question[k]]
    if missing:
        entry["missing"] = missing
    return entry


def merged_source(
    source: str | None, bank_id: str, title: str, locale: str, question: dict[str, Any]
) -> str:
    """The workspace's bank with one more question: an existing bank keeps its languages
    (the question is taken as written in its first one); a new bank is made in the
    proposer's language, titled by the topic as typed."""
    if source is None:
        data: dict[str, Any] = {
            "id": bank_id,
            "locales": [locale],
            "title": {locale: title.strip() or bank_id},
            "description": {locale: title.strip() or bank_id},
            "questions": [],
        }
    else:
        data = yaml.safe_load(source)
    language = (data.get("locales") or list(i18n.LOCALES))[0]
    taken = {q["id"] for q in data["questions"]}
    number = len(taken) + 1
    while f"q{number}" in taken:
        number += 1
    data["questions"].append(_bank_question(question, f"q{number}", language))
    return bank_yaml(data, bank_source_name(bank_id))


def _merged(source: str | None, proposal: Proposal) -> str:
    question = proposal.question
    return merged_source(
        source, proposal.bank_id, str(question.get("title", "")),
        str(question.get("locale", i18n.DEFAULT_LOCALE)), question,
    )  # fmt: skip


def _check(source: str) -> list[BankError]:
    """What the bank validator says of the bank with the proposal in it."""
    bank, errors = parse_bank(source, "proposal")
    return errors if bank is None or errors else []


def _item(proposal: Proposal) -> ProposalItem:
    question = proposal.question
    return ProposalItem(
        number=proposal.id,
        topic=proposal.bank_id,
        author_id=proposal.author_id,
        prompt=str(question["prompt"]),
        choices=tuple(question["choices"]),
        explanation=str(question["explanation"]),
        references=tuple(question["references"]),
        approve=ProposalAction(proposal.id, True).encode(),
        reject=ProposalAction(proposal.id, False).encode(),
    )
