"""The limit checker the fake Discord applies must catch what Discord would reject."""

from __future__ import annotations

from adapters.discord.forms import proposal_form
from bot.ui import i18n
from fakes.discord.checks import choice_problems, command_problems, message_problems, modal_problems


def button(custom_id: str, label: str = "A") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def test_a_valid_message_passes() -> None:
    message = {
        "content": "hi",
        "embeds": [{"title": "t", "description": "d", "fields": [{"name": "n", "value": "v"}]}],
        "components": [{"type": 1, "components": [button("a"), button("b")]}],
        "allowed_mentions": {"parse": []},
    }
    assert message_problems(message) == []


def test_every_message_limit_is_checked() -> None:
    too_much = {
        "content": "x" * 2001,
        "embeds": [
            {
                "title": "t" * 257,
                "description": "d" * 4097,
                "fields": [{"name": "", "value": "v" * 1025}] * 26,
                "footer": {"text": "f" * 2049},
            }
        ],
        "components": [{"type": 1, "components": [button("same"), button("same", "L" * 81)]}]
        + [{"type": 1, "components": [button(f"r{i}-{j}") for j in range(6)]} for i in range(5)],
        "allowed_mentions": {"parse": ["everyone"]},
    }
    found = " | ".join(message_problems(too_much))
    for expected in (
        "content has 2001",
        "title has 257",
        "description has 4097",
        "26 > 25 fields",
        "name must have",
        "value must have",
        "footer.text",
        "6000 characters in all",
        "6 > 5 action rows",
        "1-5 components",
        "label has 81",
        "not unique",
        "allowed_mentions",
    ):
        assert expected in found, expected
    assert message_problems({"components": [{"type": 1, "components": [button("x" * 101)]}]})
    assert message_problems({"content": "hello @everyone"})
    assert message_problems({"content": "hello @\u200beveryone"}) == []


def test_command_and_choice_limits_are_checked() -> None:
    good = {"name": "quiz-topics", "description": "List", "options": []}
    assert command_problems([good]) == []
    bad = [
        {"name": "Quiz", "description": "d" * 101},
        {"name": "x", "description": "d", "description_localizations": {"bn": "বাংলা"}},
        {
            "name": "y",
            "description": "d",
            "options": [
                {
                    "name": "o",
                    "description": "d",
                    "autocomplete": True,
                    "choices": [{"name": "c", "value": "v"}],
                }
            ],
        },
    ]
    found = " | ".join(command_problems(bad))
    assert "invalid command name" in found and "1-100 characters" in found
    assert "'bn' is not a Discord locale" in found
    assert "autocomplete and choices exclude each other" in found
    assert choice_problems([{"name": "", "value": "v"}] * 26)


def test_install_and_interaction_contexts_are_checked() -> None:
    command = {"name": "quiz", "description": "d"}
    fine = [
        {**command, "integration_types": [0, 1], "contexts": [0, 1, 2]},
        {**command, "name": "q2", "integration_types": None, "contexts": None},
    ]
    assert command_problems(fine) == []
    wrong = [
        {**command, "integration_types": [2], "contexts": []},
        {**command, "name": "q2", "integration_types": [0, 0], "contexts": [True]},
    ]
    assert command_problems(wrong) == [
        "/quiz integration_types: [2] are not distinct values of [0, 1]",
        "/quiz contexts: must be a non-empty list or null",
        "/q2 integration_types: [0, 0] are not distinct values of [0, 1]",
        "/q2 contexts: [True] are not distinct values of [0, 1, 2]",
    ]


def text_input(custom_id: str, label: str = "Topic") -> dict:
    return {
        "type": 1,
        "components": [{"type": 4, "custom_id": custom_id, "label": label, "style": 1}],
    }


def test_modal_limits_are_checked_and_the_proposal_form_keeps_them() -> None:
    for locale in i18n.LOCALES:
        assert modal_problems(proposal_form(locale).to_dict()) == [], locale
    too_much = {
        "title": "t" * 46,
        "custom_id": "c" * 101,
        "components": [text_input("same", "L" * 46), text_input("same")]
        + [text_input(f"i{n}") for n in range(4)]
        + [{"type": 1, "components": [{"type": 2, "custom_id": "b", "label": "B"}]}],
    }
    found = " | ".join(modal_problems(too_much))
    for expected in (
        "title must have 1-45",
        "custom_id must have 1-100",
        "7 components: a modal has 1-5",
        "label must have 1-45",
        "not unique",
        "is not a text input",
    ):
        assert expected in found, expected
    long_value = text_input("v")
    long_value["components"][0] |= {"value": "v" * 4001, "placeholder": "p" * 101}
    found = " | ".join(modal_problems({"title": "T", "custom_id": "f", "components": [long_value]}))
    assert "value is over 4000" in found and "placeholder is over 100" in found
