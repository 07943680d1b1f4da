"""A workspace's own banks, managed in chat: an admin uploads a bank file (YAML or any
import format) or removes a bank; any member proposes a question, an admin approves or
rejects it, and the author is told. Uploads go through the same validation, with the
same precise errors, as ``quizbot banks check`` and ``quizbot banks import``."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from bot.content import limits
from bot.content.banks import ID_PATTERN, BankError
from bot.content.formats.importer import Options
from bot.content.formats.model import slug
from bot.content.proposals import check_alone, merged
from bot.content.workspace import checked_upload
from bot.domain.actions import ProposalAction
from bot.domain.clock import Clock
from bot.domain.identities import ScopeRef
from bot.operations.offload import Offload, Refused
from bot.persistence import Proposal, WorkspaceBankRepository
from bot.services.channel import Publishers, notice
from bot.services.library import Library
from bot.services.requests import Context
from bot.ui import i18n
from bot.ui.messages import t
from bot.ui.views import Notice, ProposalItem, ProposalList

log = logging.getLogger(__name__)

MAX_UPLOAD_BYTES = limits.FILE_BYTES
UPLOAD_LIMIT = f"{MAX_UPLOAD_BYTES // 1_000_000} MB"  # as the forms and errors say it
ERRORS_SHOWN = 10  # a broken file's first problems; the count says how many more
PROPOSALS_SHOWN = 5  # a page of proposals, two buttons each (Discord: 5 rows of 5)
MERGE_TRIES = 3  # an approval merges again when the bank changed meanwhile


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
        offload: Offload,
    ):
        self._library = library
        self._banks = banks
        self._clock = clock
        self._publishers = publishers
        self._offload = offload

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
        downloaded at all (then ``data`` is empty). The file is checked off the event
        loop; only its bank, once valid and within the workspace's limits, is stored."""
        loc, scope = context.locale, context.scope
        if max(len(data), size or 0) > MAX_UPLOAD_BYTES:
            return notice(loc, "bank_too_big", limit=UPLOAD_LIMIT)
        options = Options(
            allow_missing=allow_missing, language=i18n.supported(language or "") or "en"
        )
        shipped = self._library.shipped
        taken = frozenset(n for b in shipped.banks for n in (b.id, *b.aliases))
        try:
            imported, errors = await self._offload.run_sized(
                len(data), checked_upload, name, data, options, taken
            )
        except Refused as refused:
            return _costly(loc, refused, self._offload.seconds)
        if imported is None:
            return _refused(loc, "bank_invalid", errors, name=name)
        bank = imported.bank
        full = _full(loc, await self._banks.sizes(scope.platform, scope.workspace_id), bank.id,
                     len(imported.text))  # fmt: skip
        if full is not None:
            return full
        now = self._clock.now()
        revision = await self._banks.save(
            scope.platform, scope.workspace_id, bank.id, imported.text, context.player.id, now
        )
        await self._library.saved(scope.platform, scope.workspace_id, bank, revision, now)
        return notice(
            loc,
            "bank_saved",
            title=bank.text(bank.title, loc),
            id=bank.id,
            count=len(bank.questions),
        )

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
        target = (await self._library.catalog(scope.platform, scope.workspace_id, topic)).get(topic)
        if target is None:
            full = _full(loc, await self._banks.sizes(scope.platform, scope.workspace_id), topic)
            if full is not None:
                return full
        question = _question(draft, loc, "proposed")
        # Alone, in the languages of the bank it joins: its size is the form's, not the bank's.
        locales = target.locales if target else None
        problems = await asyncio.to_thread(check_alone, question, topic, locales)
        if problems:
            return _refused(loc, "proposal_invalid", problems, located=False)
        proposed = await self._banks.propose(
            scope.platform, scope.workspace_id, topic, context.player.id, question,
            self._clock.now(), (limits.PENDING_PER_MEMBER, limits.PENDING_PER_WORKSPACE),
        )  # fmt: skip
        if proposed.number is None:
            cap = limits.PENDING_PER_MEMBER if proposed.full == "member" else (
                limits.PENDING_PER_WORKSPACE)  # fmt: skip
            return notice(loc, f"proposal_limit_{proposed.full}", count=cap)
        return notice(loc, "proposal_sent", number=proposed.number, topic=topic)

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
        decided = "changed"
        for _ in range(MERGE_TRIES if action.approve else 1):
            made = await self._merged(proposal) if action.approve else None
            if isinstance(made, Notice):
                return made
            decided = await self._banks.decide(
                proposal, action.approve, context.player.id, self._clock.now(), made
            )
            if decided != "changed":
                break
        if decided != "made":
            return await self._pending(context, t(loc, "proposal_decided_already"))
        self._library.forget(scope.platform, scope.workspace_id)
        key = "proposal_approved" if action.approve else "proposal_rejected"
        await self._tell_author(proposal, key)
        return await self._pending(context, t(loc, key, number=proposal.id, topic=proposal.bank_id))

    async def _merged(self, proposal: Proposal) -> tuple[str, int | None] | Notice:
        """The bank's text with the proposal in it and the revision it was made from;
        the merge parses the whole bank, so it runs off the loop, never in the writer."""
        locale = str(proposal.question.get("locale", i18n.DEFAULT_LOCALE))
        stored = await self._banks.bank(proposal.platform, proposal.workspace_id, proposal.bank_id)
        source = stored.source if stored else None
        try:
            text, errors = await self._offload.run_sized(
                len(source or ""), merged, source, proposal.bank_id, proposal.question
            )
        except Refused as refused:
            return _costly(locale, refused, self._offload.seconds)
        if text is None:
            return _refused(locale, "proposal_invalid", errors, located=False)
        return text, stored.revision if stored else None

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


def _costly(locale: str, refused: Refused, seconds: float) -> Notice:
    if refused.reason == "busy":
        return notice(locale, "bank_busy")
    return notice(locale, "bank_too_costly", seconds=f"{seconds:g}")


def _full(locale: str, sizes: dict[str, int], bank_id: str, size: int = 0) -> Notice | None:
    """Why the workspace cannot take (or grow) the bank ``bank_id`` to ``size``
    characters, or None when it can."""
    if bank_id not in sizes and len(sizes) >= limits.WORKSPACE_BANKS:
        return notice(locale, "bank_limit_count", count=limits.WORKSPACE_BANKS)
    others = sum(n for other, n in sizes.items() if other != bank_id)
    if others + size > limits.WORKSPACE_CHARACTERS:
        return notice(
            locale, "bank_limit_size", limit=f"{limits.WORKSPACE_CHARACTERS // 1_000_000} MB"
        )
    return None


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


def _item(proposal: Proposal) -> ProposalItem:
    question = proposal.question
    return ProposalItem(
        number=proposal.id,
        topic=proposal.bank_id,
        title=str(question.get("title", "")),
        author_id=proposal.author_id,
        prompt=str(question["prompt"]),
        choices=tuple(question["choices"]),
        explanation=str(question["explanation"]),
        references=tuple(question["references"]),
        approve=ProposalAction(proposal.id, True).encode(),
        reject=ProposalAction(proposal.id, False).encode(),
    )
