"""Every view laid out once, as a neutral document (``bot.ui.document``): what a player
sees on Slack, on Discord and in the terminal comes from here. Only the platform's own
command syntax comes from outside, through its ``Phrasebook``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import singledispatch
from string import ascii_uppercase

from bot.ui.document import (
    Bar,
    Bars,
    Block,
    Button,
    Card,
    Choices,
    Code,
    Document,
    Heading,
    Inline,
    Line,
    Links,
    Moment,
    Names,
    Note,
    Phrasebook,
    Ranked,
    Ranking,
    Strong,
    Text,
    Tone,
)
from bot.ui.i18n import LOCALE_NAMES
from bot.ui.messages import t
from bot.ui.views import (
    BarRow,
    ChannelFeedback,
    ChoiceView,
    DailyEstimateRevealView,
    DailyPostView,
    DailyRevealView,
    DashboardLink,
    EstimateAsk,
    Feedback,
    FlaggedView,
    ForgetConfirm,
    InsightsView,
    Leaderboard,
    LeaderRow,
    MapRow,
    MapView,
    Notice,
    ProposalItem,
    ProposalList,
    QuestionRow,
    QuestionView,
    RaceLockedView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
    Stats,
    Summary,
    TopicList,
)

_SLOT = re.compile("\x00([a-z_]+)\x00")


def filled(locale: str, key: str, pieces: Mapping[str, Inline], **values: object) -> Line:
    """A message whose placeholders in ``pieces`` stay document markup (a moment, names)
    rather than text: each renderer shows them its own way."""
    text = t(locale, key, **values, **{name: f"\x00{name}\x00" for name in pieces})
    parts = _SLOT.split(text)
    # split() alternates literal text and captured slot names.
    return tuple(pieces[part] if i % 2 else part for i, part in enumerate(parts) if part)


def shown_percent(value: int | None) -> str:
    """A share as people read it: "42%", or "—" when there is nothing to count yet."""
    return "—" if value is None else f"{value}%"


def lines(*texts: str) -> Text:
    return Text(tuple((text,) for text in texts))


def paragraph(text: str, recap: bool = False) -> Text:
    return Text(tuple((line,) for line in text.split("\n")), recap)


@singledispatch
def layout(view: object, phrases: Phrasebook) -> Document:
    raise TypeError(f"no layout for {type(view).__name__}")


def _one(tone: Tone, *blocks: Block, buttons: tuple[Button, ...] = ()) -> Document:
    return Document((Card(tone, blocks),), buttons)


def _choices(choices: tuple[ChoiceView, ...] | tuple[BarRow, ...]) -> Choices:
    return Choices(tuple((c.letter, c.text) for c in choices))


def _answer_buttons(choices: tuple[ChoiceView, ...]) -> tuple[Button, ...]:
    return tuple(Button(c.letter, c.action_id) for c in choices)


def _links(locale: str, references: tuple[str, ...]) -> tuple[Block, ...]:
    return (Links(t(locale, "reference"), references),) if references else ()


def _question_heading(view: QuestionView, recap: bool = False) -> Heading:
    return Heading(
        t(
            view.locale,
            "review_heading" if view.review else "question_heading",
            number=view.number,
            total=view.total,
            topic=view.topic_title,
        ),
        recap,
    )


def _explanation(locale: str, text: str) -> Block:
    """Why the answer is right; a question imported without one says it has none yet."""
    return paragraph(text) if text else Note(((t(locale, "no_explanation"),),))


@layout.register
def _question(view: QuestionView, phrases: Phrasebook) -> Document:
    language = (
        (Note(((t(view.locale, "bank_language", language=LOCALE_NAMES[view.text_language]),),)),)
        if view.text_language
        else ()
    )
    note = (paragraph(view.note),) if view.note else ()
    if view.estimate is not None:
        how, button = _estimate_ask(view.locale, view.estimate)
        return _one(
            Tone.INFO, *note, _question_heading(view), paragraph(view.prompt),
            Note(((how,),)), *language, buttons=(button,),
        )  # fmt: skip
    return _one(
        Tone.INFO,
        *note,
        _question_heading(view),
        paragraph(view.prompt),
        _choices(view.choices),
        Note(((t(view.locale, "choose"),),)),
        *language,
        buttons=_answer_buttons(view.choices),
    )


def answer_verdict(
    locale: str, correct: bool, chosen: ChoiceView, answer: ChoiceView, *more: str
) -> tuple[str, tuple[Line, ...]]:
    """The verdict, and below it the player's answer when wrong, the right one and more."""
    details = [] if correct else [t(locale, "your_answer", letter=chosen.letter, text=chosen.text)]
    details.append(t(locale, "right_answer", letter=answer.letter, text=answer.text))
    verdict = t(locale, "right" if correct else "wrong")
    return verdict, tuple((line,) for line in (*details, *more))


def _estimate_ask(locale: str, ask: EstimateAsk) -> tuple[str, Button]:
    """How to answer an estimate, and the button that opens its form."""
    button = Button(t(locale, "estimate_button"), ask.action_id, primary=True)
    return estimate_how(locale, ask), button


def estimate_how(locale: str, ask: EstimateAsk) -> str:
    """How to answer an estimate: a number and a unit of its kind, and what scores."""
    return t(locale, "estimate_ask", units=estimate_units(locale, ask), tolerance=ask.tolerance)


def estimate_units(locale: str, ask: EstimateAsk) -> str:
    """Units an estimate of this kind may be written in: "B, KiB, MB, GiB …"."""
    return t(locale, f"estimate_units_{ask.dimension.replace(' ', '_')}")


def feedback_verdict(view: Feedback | ChannelFeedback, *more: str) -> tuple[str, tuple[Line, ...]]:
    """An answer's verdict and details: the choices' (``answer_verdict``), or for an
    estimate the value given, the true one and how far off it was."""
    result = view.estimate
    if result is None:
        assert view.chosen is not None and view.answer is not None
        return answer_verdict(view.locale, view.correct, view.chosen, view.answer, *more)
    loc = view.locale
    verdict = t(loc, "estimate_inside" if view.correct else "estimate_outside",
                tolerance=result.tolerance)  # fmt: skip
    details = (
        t(loc, "estimate_yours", given=result.given),
        t(loc, "estimate_truth", truth=result.truth),
        off_by(loc, result.off),
        *more,
    )
    return verdict, tuple((line,) for line in details)


def off_by(locale: str, ratio: float) -> str:
    """How far an estimate was (its ratio to the truth): a percentage within 2× either
    way, else a factor."""
    if abs(ratio - 1) < 0.005:
        return t(locale, "estimate_exact")
    if 0.5 <= ratio <= 2:
        return t(locale, "estimate_off_percent", percent=f"{(ratio - 1) * 100:+.0f}")
    factor = max(ratio, 1 / ratio)
    shown = f"{factor:.2g}" if factor < 10 else f"{factor:,.0f}"
    return t(locale, "estimate_too_high" if ratio > 1 else "estimate_too_low", factor=shown)


def _summary_card(view: Summary) -> Card:
    loc = view.locale
    if view.review:
        done = t(loc, "review_summary", correct=view.correct, total=view.total)
        return Card(
            Tone.RESULT,
            (Heading(view.topic_title), lines(done, t(loc, "review_summary_next"))),
        )
    score = t(
        loc,
        "summary_score",
        correct=view.correct,
        total=view.total,
        points=view.points,
        max_points=view.max_points,
    )
    rank = (
        t(loc, "summary_rank", rank=view.rank, players=view.players, topic=view.topic_title)
        if view.rank
        else t(loc, "summary_unranked", topic=view.topic_title)
    )
    return Card(
        Tone.RESULT, (Heading(t(loc, "summary_title", topic=view.topic_title)), lines(score, rank))
    )


@layout.register
def _feedback(view: Feedback, phrases: Phrasebook) -> Document:
    loc = view.locale
    points: tuple[str, ...]
    if view.due_in_days is not None:
        points = (t(loc, "review_next", days=view.due_in_days),)
    elif view.practice:
        points = (t(loc, "practice"),)
    else:
        points = (t(loc, "points", points=view.points),) if view.points else ()
    progress = (
        t(loc, "review_progress", done=view.answered, total=view.question.total)
        if view.question.review  # a review never scores: no running total
        else t(
            loc, "progress", done=view.answered, total=view.question.total, points=view.run_points
        )
    )
    verdict, details = feedback_verdict(view, *points)
    card = Card(
        Tone.RIGHT if view.correct else Tone.WRONG,
        (
            # The feedback replaces the question on chat platforms: it shows it again.
            _question_heading(view.question, recap=True),
            paragraph(view.question.prompt, recap=True),
            Text(((Strong(verdict),), *details)),
            _explanation(loc, view.explanation),
            *_links(loc, view.references),
            Note(((progress,),)),
        ),
    )
    summary = (_summary_card(view.summary),) if view.summary else ()
    next_action = view.next_action
    buttons = (Button(t(loc, "next_button"), next_action, primary=True),) if next_action else ()
    return Document((card, *summary), buttons)


@layout.register
def _summary(view: Summary, phrases: Phrasebook) -> Document:
    return Document((_summary_card(view),))


@layout.register
def _notice(view: Notice, phrases: Phrasebook) -> Document:
    usage = phrases.usage(view.locale, view.usage) if view.usage else ()
    blocks = ([paragraph(view.text)] if view.text else []) + ([lines(*usage)] if usage else [])
    return _one(Tone.PLAIN, *blocks)


@layout.register
def _topics(view: TopicList, phrases: Phrasebook) -> Document:
    loc = view.locale
    asked: list[Block] = []
    if view.unknown is not None:
        found: list[Line] = [(t(loc, "unknown_topic", topic=view.unknown),)]
        if view.suggestion:
            near = view.suggestion
            found.append(filled(loc, "did_you_mean", {"id": Code(near.id)}, title=near.title))
        asked.append(Text(tuple(found)))
    # One line a topic: a shelf of 17 descriptions would be a wall of text.
    shelf = Text(
        tuple(
            (
                Strong(topic.title),
                " · ",
                Code(phrases.topic_command(topic.id)),
                " · ",
                t(loc, "topic_line", questions=topic.questions),
            )
            for topic in view.topics
        )
    )
    usage = Note(tuple((line,) for line in phrases.usage(loc)))
    return _one(Tone.INFO, *asked, Heading(t(loc, "topics_title")), shelf, usage)


def _row_detail(locale: str, row: LeaderRow) -> str:
    return t(
        locale, "leaderboard_row", points=row.points, correct=row.correct, answered=row.answered
    )


def _ranking(
    locale: str, rows: tuple[LeaderRow, ...], empty: str, medals: bool, title: str | None = None
) -> Ranking:
    ranked = tuple(Ranked(row.rank, row.name, _row_detail(locale, row)) for row in rows)
    return Ranking(ranked, empty, medals, title)


@layout.register
def _leaderboard(view: Leaderboard, phrases: Phrasebook) -> Document:
    loc = view.locale
    if view.competition:
        title = t(
            loc, "competition_final" if view.final else "competition_title", name=view.competition
        )
    else:
        title = t(loc, "leaderboard_title", period=t(loc, f"period_{view.period}"))
        title = f"{title} · {view.topic_title}" if view.topic_title else title
    empty = t(loc, "leaderboard_empty", command=phrases.start_command(loc))
    blocks: list[Block] = [Heading(title), _ranking(loc, view.rows, empty, medals=False)]
    if not view.final:  # final standings are posted to everyone: there is no "you"
        you = (
            t(loc, "leaderboard_you", rank=view.you.rank, points=view.you.points)
            if view.you
            else t(loc, "leaderboard_you_none")
        )
        blocks.append(Note(((you,),)))
    return _one(Tone.RESULT, *blocks)


@layout.register
def _stats(view: Stats, phrases: Phrasebook) -> Document:
    loc = view.locale

    rows: list[Line] = []
    for row in view.rows:
        played = t(
            loc,
            "stats_row",
            correct=row.correct,
            answered=row.answered,
            accuracy=row.accuracy,
            points=row.points,
        )
        rows.append((Strong(row.topic_title), ": ", played))
        if row.seen:
            cards = t(
                loc,
                "stats_cards",
                seen=row.seen,
                due=row.due,
                retention=shown_percent(row.retention),
                recall=shown_percent(row.recall),
            )
            rows.append(("    ", cards))
    body = Text(tuple(rows)) if rows else lines(t(loc, "stats_empty"))
    notes = [t(loc, "stats_missed_note")] if any(row.missed for row in view.rows) else []
    if view.due:
        notes += [t(loc, "stats_due", count=view.due), *phrases.usage(loc, "review")]
    due = (Note(tuple((line,) for line in notes)),) if notes else ()
    return _one(Tone.INFO, Heading(t(loc, "stats_title")), body, *due)


@layout.register
def _insights(view: InsightsView, phrases: Phrasebook) -> Document:
    loc = view.locale

    def question(row: QuestionRow, why: str | None = None) -> Line:
        line = t(
            loc,
            "insights_question",
            prompt=row.prompt,
            accuracy=shown_percent(row.accuracy),
            tries=row.first_tries,
        )
        wrong = t(loc, "insights_wrong", wrong=row.top_wrong) if row.top_wrong else ""
        return ("• ", line, *((" · ", wrong) if wrong else ()), *((" — ", why) if why else ()))

    title = t(loc, "insights_title", period=t(loc, f"insights_period_{view.period}"))
    blocks: list[Block] = [Heading(f"{title} · {view.topic_title}" if view.topic_title else title)]
    if not view.topics and not view.estimates:
        blocks.append(lines(t(loc, "insights_empty")))
        return _one(Tone.INFO, *blocks)
    for topic in view.topics:
        summary = t(
            loc,
            "insights_topic",
            players=topic.players,
            answers=topic.answers,
            accuracy=shown_percent(topic.accuracy),
            retention=shown_percent(topic.retention),
        )
        blocks.append(
            Text(((Strong(topic.title), ": ", summary), *(question(q) for q in topic.hardest)))
        )
    if view.estimates:
        blocks.append(Heading(t(loc, "insights_estimates")))
        blocks.append(
            Text(
                tuple(
                    ("• ", t(loc, "insights_estimate", prompt=row.prompt, median=off_by(
                        loc, row.median), error=f"{row.error:.2g}", spread=f"{row.spread:.2g}",
                        answers=row.answers))
                    for row in view.estimates
                )
            )
        )  # fmt: skip
    blocks.append(Heading(t(loc, "insights_flagged")))
    flagged = tuple(
        question(row, "; ".join(t(loc, f"flag_{flag}") for flag in row.flags))
        for row in view.flagged
    )
    blocks.append(Text(flagged) if flagged else lines(t(loc, "insights_none_flagged")))
    days = " · ".join(f"{day.day[5:]}: {day.players}" for day in view.days)
    streaks = ", ".join(t(loc, "insights_streak", name=name, days=n) for name, n in view.streaks)
    participation = [(t(loc, "insights_days"), " ", days)]
    if len(view.weeks) > 1:  # one week is no trend
        weeks = " · ".join(
            t(loc, "insights_week", day=monday[5:], players=players, accuracy=shown_percent(a))
            for monday, players, a in view.weeks
        )
        participation.append((t(loc, "insights_weeks"), " ", weeks))
    if streaks:
        participation.append((t(loc, "insights_streaks"), " ", streaks))
    blocks.append(Note(tuple(participation)))
    return _one(Tone.INFO, *blocks)


@layout.register
def _flagged(view: FlaggedView, phrases: Phrasebook) -> Document:
    """Each flagged question with the numbers behind its flags and what they mean."""
    loc = view.locale

    def item(row: QuestionRow) -> tuple[Line, Line]:
        low, high = row.interval or (0, 0)
        numbers = t(
            loc, "insights_item", accuracy=shown_percent(row.accuracy), low=low, high=high,
            tries=row.first_tries,
        )  # fmt: skip
        if row.discrimination is not None:
            numbers += " · " + t(loc, "insights_discrimination", value=f"{row.discrimination:+.2f}")
        wrong = t(loc, "insights_wrong", wrong=row.top_wrong) if row.top_wrong else ""
        why = "; ".join(t(loc, f"flag_{flag}") for flag in row.flags)
        question = ("• ", Strong(row.topic_title), ": “", row.prompt, "” — ", numbers)
        return (*question, *((" · ", wrong) if wrong else ())), ("   ↳ ", why)

    title = t(loc, "insights_flagged_title", period=t(loc, f"insights_period_{view.period}"))
    blocks: list[Block] = [Heading(title)]
    if not view.own and not view.shipped:
        blocks.append(lines(t(loc, "insights_none_flagged")))
    for heading, rows in (
        ("insights_flagged_own", view.own),
        ("insights_flagged_shipped", view.shipped),
    ):
        if rows:
            items = tuple(line for row in rows for line in item(row))
            blocks.append(Text(((Strong(t(loc, heading)),), *items)))
    if view.more:
        blocks.append(Note(((t(loc, "insights_flagged_more", count=view.more),),)))
    return _one(Tone.INFO, *blocks)


@layout.register
def _knowledge_map(view: MapView, phrases: Phrasebook) -> Document:
    """Per topic: solid, shaky, not started (the split only above the floor), the viewer's
    own standing, and the names of those who opted in."""
    loc = view.locale

    def topic(row: MapRow) -> tuple[Line, ...]:
        if row.solid is None or row.shaky is None:
            counts = t(loc, "map_floor", started=row.started, floor=view.floor)
        else:
            counts = t(loc, "map_topic", solid=row.solid, shaky=row.shaky)
        counts += " · " + t(loc, "map_not_started", count=row.members - row.started)
        if row.mine:
            counts += " · " + t(loc, f"map_you_{row.mine}")
        named = [
            t(loc, f"map_names_{kind}", names=", ".join(names))
            for kind, names in (("solid", row.solid_names), ("shaky", row.shaky_names))
            if names
        ]
        first: Line = ("• ", Strong(row.title), ": ", counts)
        return (first, ("   ", " · ".join(named))) if named else (first,)

    blocks: list[Block] = [Heading(t(loc, "map_title"))]
    if not view.rows:
        blocks.append(lines(t(loc, "map_empty")))
    else:
        blocks.append(Text(tuple(line for row in view.rows for line in topic(row))))
    if view.more:
        blocks.append(lines(t(loc, "map_more", count=view.more)))
    sharing = t(loc, "map_sharing_on" if view.sharing else "map_sharing_off")
    blocks.append(Note(((t(loc, "map_note", floor=view.floor),), (sharing,))))
    return _one(Tone.INFO, *blocks)


@layout.register
def _forget_confirm(view: ForgetConfirm, phrases: Phrasebook) -> Document:
    button = Button(t(view.locale, "forget_button"), view.confirm)
    return _one(Tone.WRONG, paragraph(t(view.locale, "forget_ask")), buttons=(button,))


@layout.register
def _dashboard_link(view: DashboardLink, phrases: Phrasebook) -> Document:
    text = t(view.locale, "dashboard_link", hours=view.hours)
    return _one(Tone.INFO, paragraph(text), Links(t(view.locale, "dashboard_open"), (view.url,)))


# --- channel play ---------------------------------------------------------------------------


@layout.register
def _daily_post(view: DailyPostView, phrases: Phrasebook) -> Document:
    # Only the count is public before the reveal: nobody can copy an answer.
    count = filled(
        view.locale, "daily_count", {"reveal": Moment(view.reveal_at)}, count=view.answered
    )
    heading = Heading(t(view.locale, "daily_heading", topic=view.topic_title, day=view.day))
    if view.estimate is not None:
        how, button = _estimate_ask(view.locale, view.estimate)
        return _one(
            Tone.INFO, heading, paragraph(view.prompt), Note(((how,), count)), buttons=(button,)
        )
    return _one(
        Tone.INFO,
        heading,
        paragraph(view.prompt),
        _choices(view.choices),
        Note((count,)),
        buttons=_answer_buttons(view.choices),
    )


def _bars(rows: tuple[BarRow, ...]) -> Bars:
    return Bars(tuple(Bar(b.letter, b.count, b.percent, b.correct) for b in rows))


def _reveal(view: DailyRevealView | RaceRevealView) -> tuple[Block, ...]:
    """The question, every choice, the distribution, the right answer and why."""
    answer = t(view.locale, "right_answer", letter=view.answer.letter, text=view.answer.text)
    return (
        paragraph(view.prompt),
        _choices(view.bars),
        _bars(view.bars),
        lines(answer),
        _explanation(view.locale, view.explanation),
    )


@layout.register
def _daily_reveal(view: DailyRevealView, phrases: Phrasebook) -> Document:
    loc = view.locale
    winners = (
        filled(loc, "winners", {"names": Names(view.winners)})
        if view.winners
        else (t(loc, "no_winners"),)
    )
    return _one(
        Tone.RESULT,
        Heading(t(loc, "daily_reveal_heading", topic=view.topic_title, day=view.day)),
        *_reveal(view),
        *_links(loc, view.references),
        Note(((t(loc, "answered_total", count=view.answered),),)),
        Text((winners,)),
        buttons=_dashboard_button(loc, view.dashboard),
    )


@layout.register
def _daily_estimate_reveal(view: DailyEstimateRevealView, phrases: Phrasebook) -> Document:
    loc = view.locale
    crowd: tuple[Block, ...] = ()
    if view.median is not None:
        off = off_by(loc, view.median_off)
        median = t(loc, "daily_estimate_median", median=view.median, off=off)
        names = {"names": Names(view.closest)}
        closest = filled(loc, "daily_estimate_closest", names, value=view.closest_value)
        crowd = (_bars(view.bars), Text(((median,), closest)))
    within = {"names": Names(view.inside)}
    inside = (
        filled(loc, "daily_estimate_inside", within, tolerance=view.tolerance)
        if view.inside
        else (t(loc, "daily_estimate_none_inside", tolerance=view.tolerance),)
    )
    return _one(
        Tone.RESULT,
        Heading(t(loc, "daily_reveal_heading", topic=view.topic_title, day=view.day)),
        paragraph(view.prompt),
        Text(((Strong(t(loc, "estimate_truth", truth=view.truth)),),)),
        *crowd,
        _explanation(loc, view.explanation),
        *_links(loc, view.references),
        Note(((t(loc, "answered_total", count=view.answered),),)),
        Text((inside,)),
        buttons=_dashboard_button(loc, view.dashboard),
    )


def _dashboard_button(locale: str, action: str | None) -> tuple[Button, ...]:
    return (Button(t(locale, "dashboard_button"), action),) if action else ()


@layout.register
def _channel_feedback(view: ChannelFeedback, phrases: Phrasebook) -> Document:
    loc = view.locale
    verdict, details = feedback_verdict(
        view,
        *([t(loc, "points", points=view.points)] if view.points else []),
        t(loc, "daily_streak", streak=view.streak),
    )
    return _one(
        Tone.RIGHT if view.correct else Tone.WRONG,
        Heading(verdict),
        Text(details),
        _explanation(loc, view.explanation),
        *_links(loc, view.references),
    )


@layout.register
def _race_question(view: RaceQuestionView, phrases: Phrasebook) -> Document:
    loc = view.locale
    closes = filled(loc, "race_closes", {"when": Moment(view.closes_at, relative=True)})
    heading = t(
        loc,
        "race_heading",
        topic=view.topic_title,
        number=view.number,
        total=view.total,
        seconds=view.seconds,
    )
    return _one(
        Tone.INFO,
        Heading(heading),
        paragraph(view.prompt),
        _choices(view.choices),
        Note((closes,)),
        Note(((t(loc, "race_hint"),),)),
        buttons=_answer_buttons(view.choices),
    )


@layout.register
def _race_locked(view: RaceLockedView, phrases: Phrasebook) -> Document:
    chosen = view.chosen
    text = (
        t(view.locale, "race_already", letter=chosen.letter)
        if view.duplicate
        else t(view.locale, "race_locked", letter=chosen.letter, text=chosen.text)
    )
    return _one(Tone.PLAIN, paragraph(text))


@layout.register
def _race_reveal(view: RaceRevealView, phrases: Phrasebook) -> Document:
    loc = view.locale
    heading = t(
        loc, "race_reveal_heading", number=view.number, total=view.total, topic=view.topic_title
    )
    standings = _ranking(loc, view.standings, t(loc, "no_winners"), True, t(loc, "standings"))
    return _one(Tone.RESULT, Heading(heading), *_reveal(view), standings)


@layout.register
def _race_podium(view: RacePodiumView, phrases: Phrasebook) -> Document:
    loc = view.locale
    key = "race_stopped_heading" if view.stopped else "race_podium"
    return _one(
        Tone.RESULT,
        Heading(t(loc, key, topic=view.topic_title)),
        _ranking(loc, view.standings, t(loc, "no_winners"), medals=True),
        buttons=_dashboard_button(loc, view.dashboard),
    )


def _proposed_title(locale: str, item: ProposalItem) -> tuple[Block, ...]:
    if not item.title or item.title == item.topic:
        return ()
    return (Note(((t(locale, "proposal_title"), " ", Code(item.title)),)),)


@layout.register
def _proposals(view: ProposalList, phrases: Phrasebook) -> Document:
    """A page of proposed questions, each with its choices (the right one marked), why,
    its sources and who proposed it; an Approve and a Reject button each."""
    loc = view.locale
    decided = (paragraph(view.decided),) if view.decided else ()
    if not view.items:
        return _one(Tone.PLAIN, *decided, paragraph(t(loc, "proposals_none")))
    cards = [Card(Tone.PLAIN, (*decided, Heading(t(loc, "proposals_heading", count=view.pending))))]
    buttons: list[Button] = []
    for item in view.items:
        # Lettered like a question; the proposer's right answer (their first) is marked.
        marks = tuple(f"{text} ✓" if n == 0 else text for n, text in enumerate(item.choices))
        cards.append(
            Card(
                Tone.INFO,
                (
                    Heading(t(loc, "proposal_heading", number=item.number, topic=item.topic)),
                    # A new bank takes this as its title: the admin sees what they approve.
                    *_proposed_title(loc, item),
                    paragraph(item.prompt),
                    Choices(tuple(zip(ascii_uppercase, marks, strict=False))),
                    _explanation(loc, item.explanation),
                    *_links(loc, item.references),
                    Note(((t(loc, "proposal_by"), " ", Code(item.author_id)),)),
                ),
            )
        )
        buttons += [
            Button(t(loc, "approve_button", number=item.number), item.approve, primary=True),
            Button(t(loc, "reject_button", number=item.number), item.reject),
        ]
    return Document(tuple(cards), tuple(buttons))
