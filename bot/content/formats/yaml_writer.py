"""A bank as the YAML file ``banks/README.md`` describes, in the file order the loader
reads (id, languages, titles, then each question's fields in the documented order)."""

from __future__ import annotations

from typing import Any

import yaml


class _Dumper(yaml.SafeDumper):
    """Text with line breaks as a literal block, which reads as it will be shown."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def bank_yaml(bank: dict[str, Any], source: str) -> str:
    """The file's text; ``source`` names where the questions came from, in a comment."""
    body = yaml.dump(
        bank,
        Dumper=_Dumper,
        allow_unicode=True,
        sort_keys=False,
        width=100,
        default_flow_style=None,
    )
    return f"# Imported by quizbot banks import from {source}: edit freely.\n{body}"
