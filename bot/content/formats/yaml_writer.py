"""A bank as the YAML file ``banks/README.md`` describes, in the file order the loader
reads (id, languages, titles, then each question's fields in the documented order).

Data becomes a node tree once (``bank_nodes``): the bank validator reads that tree and
libyaml writes the file from it (``bank_text``), so an import never parses its own output
again."""

from __future__ import annotations

import io
from typing import Any

import yaml
from yaml.nodes import Node

_EMITTER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml, else pure Python


class _Representer(yaml.SafeDumper):
    """Text with line breaks as a literal block, which reads as it will be shown."""

    def ignore_aliases(self, data: Any) -> bool:
        return True  # a bank file never needs anchors


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Representer.add_representer(str, _text)


def bank_nodes(bank: dict[str, Any]) -> Node:
    representer = _Representer(io.StringIO(), sort_keys=False, default_flow_style=None)
    node: Node = representer.represent_data(bank)
    return node


def bank_text(node: Node, source: str) -> str:
    """The file's text; ``source`` names where the questions came from, in a comment."""
    out = io.StringIO()
    yaml.serialize(node, out, Dumper=_EMITTER, allow_unicode=True, width=100)
    return f"# Imported by quizbot banks import from {source}: edit freely.\n{out.getvalue()}"


def bank_yaml(bank: dict[str, Any], source: str) -> str:
    return bank_text(bank_nodes(bank), source)
