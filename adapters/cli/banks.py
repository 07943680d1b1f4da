"""``quizbot banks``: list, check and lint the question banks; import a file in another
format as a bank, export banks as JSON or in such a format."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import adapters
import bot
from bot.content.banks import SHIPPED_BANKS, load_catalog
from bot.content.export import export
from bot.content.formats import FORMATS
from bot.content.formats.importer import Options, import_file, write_atomically
from bot.content.lint import (
    Message,
    catalogue_messages,
    lint,
    lint_catalogues,
    load_rules,
    rate_table,
    stale,
)
from bot.ui import i18n

from ..app import load_banks
from ..screen import Screen
from .options import Commands, read_bank_file, settings


def _cmd_list(args: argparse.Namespace) -> int:
    catalog = load_banks(settings(args).core)
    screen = Screen()
    for bank in catalog.banks:
        aliases = f" (also: {', '.join(bank.aliases)})" if bank.aliases else ""
        title = bank.text(bank.title, "en")
        screen.say(f"{bank.id}{aliases}: {title} — {len(bank.questions)} questions")
    return 0


def _paths(args: argparse.Namespace) -> list[Path]:
    """The files and directories named, else every bank directory the settings name."""
    return [Path(p) for p in args.paths] or [SHIPPED_BANKS, *settings(args).core.banks]


def _cmd_check(args: argparse.Namespace) -> int:
    paths = _paths(args)
    missing = [p for p in paths if not p.exists()]
    catalog = load_catalog(p for p in paths if p.exists())
    for path in missing:
        print(f"{path}: no such file or directory", file=sys.stderr)
    for error in catalog.errors:
        print(error, file=sys.stderr)
    questions = sum(len(b.questions) for b in catalog.banks)
    print(
        f"{len(catalog.banks)} bank(s) valid, {questions} questions; {len(catalog.errors)} error(s)"
    )
    return 1 if catalog.errors or missing else 0


def _cmd_lint(args: argparse.Namespace) -> int:
    catalog = load_catalog(_paths(args))
    for error in catalog.errors:
        print(error, file=sys.stderr)
    if catalog.errors:
        print("fix what 'quizbot banks check' reports first", file=sys.stderr)
        return 1
    rules = load_rules(SHIPPED_BANKS / "lint")
    report = lint(catalog.banks, rules)
    # The shelf's lint reads the interface's catalogues too: one term, one rendering.
    interface = [] if args.paths else lint_catalogues(_interface_messages(), rules)
    for finding in (*report.findings, *interface):
        print(finding)
    print("\n".join(["", *rate_table(report, rules.seed_banks)]))
    if report.notes:
        print("\nSeed banks (their choices are the seeds' own; reported apart, not failing):")
        for note in report.notes:
            print(f"  {note}")
    if args.stale is not None:
        old = stale(catalog.banks, args.stale, datetime.now(UTC).date())
        print(f"\nChecked more than {args.stale} months ago: {len(old)}")
        for error in old:
            print(f"  {error}")
    questions = sum(len(b.questions) for b in catalog.banks)
    findings = len(report.findings) + len(interface)
    print(f"\n{len(catalog.banks)} bank(s), {questions} questions; {findings} finding(s)")
    return 1 if findings else 0


def _interface_messages() -> list[Message]:
    """Every message of the core's and the adapters' gettext catalogues."""
    roots = (Path(bot.__file__).parent, Path(adapters.__file__).parent)
    english = sorted(p for root in roots for p in root.glob("**/locale/en/LC_MESSAGES/*.po"))
    return [message for path in english for message in catalogue_messages(path)]


def _cmd_export(args: argparse.Namespace) -> int:
    catalog = load_banks(settings(args).core)
    banks = list(catalog.banks)
    if args.ids:
        found = [catalog.find(i) for i in args.ids]
        unknown = [i for i, b in zip(args.ids, found, strict=True) if b is None]
        if unknown:
            print(f"unknown bank(s): {', '.join(unknown)}", file=sys.stderr)
            return 2
        banks = [b for b in found if b]
    if args.format == "json":
        json.dump(export(banks), sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    if len(banks) != 1:
        print(
            f"--format {args.format} writes one bank: name it"
            f" (quizbot banks export --format {args.format} ID)",
            file=sys.stderr,
        )
        return 2
    [bank] = banks
    language = args.lang or bank.locales[0]
    if language not in bank.locales:
        print(
            f"bank {bank.id} has no text in {language} (its languages: {', '.join(bank.locales)})",
            file=sys.stderr,
        )
        return 2
    form = FORMATS[args.format]
    left_out = [q.id for q in bank.questions if q.estimate is not None and not form.estimates]
    if left_out:
        print(
            f"{form.name} cannot hold an estimate (a value with a unit): left out"
            f" {len(left_out)} ({', '.join(left_out)}); gift, moodle-xml, csv and json keep them",
            file=sys.stderr,
        )
    sys.stdout.write(form.write(bank, language))
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    options = Options(args.format, args.id, args.title, args.lang, args.allow_missing)
    imported, problems = read_bank_file(import_file, Path(args.file), options)
    if imported is None:
        print(f"{len(problems)} problem(s): nothing written", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(imported.text)
        return 0
    write_atomically(Path(args.output), imported.text)
    bank = imported.bank
    print(f"{args.output}: bank {bank.id}, {len(bank.questions)} question(s) in {bank.locales[0]}")
    return 0


def add_parser(commands: Commands) -> None:
    banks = commands.add_parser("banks", help="list, check, import or export question banks")
    banks_sub = banks.add_subparsers(dest="banks_command", required=True)
    banks_sub.add_parser("list", help="list the loaded banks").set_defaults(func=_cmd_list)
    check = banks_sub.add_parser("check", help="validate bank files (default: all banks)")
    check.add_argument("paths", nargs="*", help="bank files or directories")
    check.set_defaults(func=_cmd_check)
    lint_cmd = banks_sub.add_parser(
        "lint", help="check question quality: cues, leaks, languages, glossary, sources"
    )
    lint_cmd.add_argument("paths", nargs="*", help="bank files or directories")
    lint_cmd.add_argument(
        "--stale",
        type=int,
        metavar="MONTHS",
        help="also list the questions whose facts were last verified more than MONTHS ago",
    )
    lint_cmd.set_defaults(func=_cmd_lint)
    _add_export(banks_sub)
    _add_import(banks_sub)


def _add_export(banks_sub: Commands) -> None:
    exp = banks_sub.add_parser("export", help="print banks as JSON or in an import format")
    exp.add_argument("--format", choices=["json", *FORMATS], default="json")
    exp.add_argument(
        "--lang", choices=i18n.LOCALES, help="other formats: the language (default: the first)"
    )
    exp.add_argument("ids", nargs="*", help="bank ids (default: all; one for other formats)")
    exp.set_defaults(func=_cmd_export)


def _add_import(banks_sub: Commands) -> None:
    imp = banks_sub.add_parser("import", help="convert a GIFT, Aiken, XML, JSON or CSV file")
    imp.add_argument("file", help="the file (.gift, .xml, .json, .csv; Aiken: --format aiken)")
    imp.add_argument("--format", choices=list(FORMATS), help="default: from the file's extension")
    imp.add_argument("--id", help="the bank's id (default: from the file's name)")
    imp.add_argument("--title", help="the bank's title (default: the file's category or name)")
    imp.add_argument(
        "--lang",
        choices=i18n.LOCALES,
        default=i18n.DEFAULT_LOCALE,
        help="the file's language (default en)",
    )
    imp.add_argument(
        "--allow-missing",
        action="store_true",
        help="mark explanations and references the file lacks as missing instead of failing",
    )
    imp.add_argument("-o", "--output", help="the bank file to write (default: standard output)")
    imp.set_defaults(func=_cmd_import)
