"""README.md renders as CommonMark, links only what the repository holds, and its curl
walkthrough runs as written against a real server."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from service.settings import Settings
from service.tools.cli import build_parser
from tests.support.servers import running_server

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SOURCE = README.read_text()
LINES = SOURCE.splitlines()
TOKENS = MarkdownIt("commonmark").enable("table").parse(SOURCE)  # GitHub adds tables to it
SECTIONS = ["Quick start", "Play a game with curl", "API", "Performance and scaling", "Layout"]
ADDRESS = "http://127.0.0.1:8000"  # where `make run` serves, and so where the README points


def inline_children() -> Iterator[Token]:
    for token in TOKENS:
        yield from token.children or ()


def headings(level: str) -> list[str]:
    return [
        TOKENS[index + 1].content
        for index, token in enumerate(TOKENS)
        if token.type == "heading_open" and token.tag == level
    ]


def section_lines(title: str) -> range:
    """The source lines of the ``## title`` section, up to the next one."""
    starts = {
        TOKENS[index + 1].content: token.map[0]
        for index, token in enumerate(TOKENS)
        if token.type == "heading_open" and token.tag == "h2" and token.map
    }
    later = [line for line in starts.values() if line > starts[title]]
    return range(starts[title], min(later, default=len(LINES)))


# --- rendering ----------------------------------------------------------------------------------


def test_every_fence_is_closed() -> None:
    for token in TOKENS:
        if token.type != "fence":
            continue
        assert token.map is not None
        start, end = token.map
        closing = LINES[end - 1].strip() if end - start >= 2 else ""
        marker = token.markup[0]
        assert closing.startswith(token.markup) and set(closing) == {marker}, (
            f"README.md:{start + 1}: this fence is never closed: the rest renders as code"
        )


def test_every_heading_line_is_a_heading_and_the_sections_are_there() -> None:
    heading_starts = {t.map[0] for t in TOKENS if t.type == "heading_open" and t.map}
    for number, line in enumerate(LINES):
        if re.match(r"#{2,6} ", line):  # (a `# ` line in a `sh` block is a comment)
            assert number in heading_starts, f"README.md:{number + 1}: {line!r} renders as code"
    found = iter(headings("h2"))
    assert all(title in found for title in SECTIONS), (SECTIONS, headings("h2"))


def api_rows() -> list[list[str]]:
    """The API table's body rows, as rendered (outside any code block)."""
    lines = section_lines("API")
    tables = [t for t in TOKENS if t.type == "table_open" and t.map and t.map[0] in lines]
    assert len(tables) == 1, "the API section's table does not render as a table"
    start = TOKENS.index(tables[0])
    end = next(i for i in range(start, len(TOKENS)) if TOKENS[i].type == "table_close")
    rows, row = [], []
    for token in TOKENS[start:end]:
        if token.type == "tr_open":
            row = []
        elif token.type == "inline":
            row.append(token.content)
        elif token.type == "tr_close":
            rows.append(row)
    assert rows[0] == ["method", "path", "what"]
    return rows[1:]


def test_the_api_table_renders_and_names_only_real_operations() -> None:
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    operations = {
        (method.upper(), re.sub(r"\{\w+\}", "{}", path))
        for path, item in document["paths"].items()
        for method in item
    }
    rows = api_rows()
    assert len(rows) >= 15
    for method, paths, _ in rows:
        for path in paths.split(", "):
            assert (method, re.sub(r"\{\w+\}", "{}", path)) in operations, f"{method} {path}"


# --- what it points at --------------------------------------------------------------------------


def held(relative: str) -> bool:
    """Whether a clone has ``relative`` (a file, or a folder with files in it)."""
    target = (ROOT / relative).resolve()
    if not target.is_relative_to(ROOT) or not target.exists():
        return False
    if not (ROOT / ".git").exists():
        return True  # an unpacked copy: what is there is what it holds
    tracked = subprocess.run(
        ["git", "ls-files", "--", str(target)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return bool(tracked.stdout.strip())


def tracked_top_level() -> set[str]:
    if not (ROOT / ".git").exists():
        return {path.name for path in ROOT.iterdir()} - {".venv", "var"}
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    return {name.split("/")[0] for name in files.stdout.splitlines()}


def test_every_relative_link_points_at_something_the_repository_holds() -> None:
    links = [
        token.attrs.get("href") or token.attrs.get("src")
        for token in inline_children()
        if token.type in ("link_open", "image")
    ]
    relative = [str(link).split("#")[0] for link in links if not re.match(r"\w+:|#", str(link))]
    assert relative, "the README links its rules and docs"
    for link in relative:
        assert held(link), f"README.md links {link}, which a clone does not have"


def test_every_path_it_names_is_in_the_repository() -> None:
    """`docs/fairness.md` in backticks is a promise too: a reader will look for it."""
    top_level = tracked_top_level()
    spans = {t.content for t in inline_children() if t.type == "code_inline"}
    named = [
        span.removeprefix("./")
        for span in spans
        if "/" in span and not re.search(r"\s|://", span) and not span.startswith("/")
    ]
    paths = [p for p in named if p.startswith("../") or p.split("/")[0] in top_level]
    assert "docs/fairness.md" in paths
    for path in paths:
        assert held(path), f"README.md names {path}, which a clone does not have"


def test_every_make_target_and_command_line_option_it_names_exists() -> None:
    targets = set(re.findall(r"^([a-z-]+):", (ROOT / "Makefile").read_text(), re.MULTILINE))
    named = set(re.findall(r"\bmake ([a-z-]+)", SOURCE))
    assert named and named <= targets, named - targets
    parser = build_parser()
    commands = next(a for a in parser._actions if hasattr(a, "choices") and a.choices).choices
    spans = [t.content for t in inline_children() if t.type == "code_inline"]
    lines = [span for span in spans if span.startswith("cardledger ")]
    assert len(lines) >= 6
    for line in lines:
        word = line.split()[1]
        if word.startswith("--"):
            owners = [parser]
        else:  # `cardledger COMMAND --help`: an option of every command
            owners = list(commands.values()) if word.isupper() else [commands[word]]
        for owner in owners:
            known = {option for action in owner._actions for option in action.option_strings}
            for option in re.findall(r"--[a-z][a-z-]*", line):
                assert option in known, f"README.md: `{line}`: {option} is not an option"


# --- the curl walkthrough, replayed --------------------------------------------------------------


@dataclass
class Command:
    """A command of a `sh` block, and the answer the README shows for it (its `# ` lines)."""

    text: str
    shown: str = ""


@dataclass
class Keep:
    """``NAME=placeholder``: the reader keeps a value of the answer before it."""

    name: str
    placeholder: str


def sh_blocks(title: str) -> list[list[Command | Keep]]:
    lines = section_lines(title)
    fences = [t for t in TOKENS if t.type == "fence" and t.info == "sh" and t.map]
    return [parse_block(t.content) for t in fences if t.map and t.map[0] in lines]


def parse_block(content: str) -> list[Command | Keep]:
    steps: list[Command | Keep] = []
    for line in content.replace("\\\n", " ").splitlines():
        if line.startswith("#"):
            last = steps[-1]
            assert isinstance(last, Command)
            last.shown += line.lstrip("# ")
        elif kept := re.fullmatch(r"([A-Z]+)=(\S+)", line.strip()):
            steps.append(Keep(kept[1], kept[2]))
        elif line.strip():
            steps.append(Command(line.strip()))
    return steps


def shown_key(shown: str, placeholder: str) -> str:
    """The key whose value the README shows as ``placeholder``: the one the reader keeps."""
    found = re.search(rf'"(\w+)":"{re.escape(placeholder)}"', shown)
    assert found, f"README.md shows no value {placeholder!r} to keep in {shown!r}"
    return found[1]


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in keys(item)}
    if isinstance(value, list):
        return {k for item in value for k in keys(item)}
    return set()


def check_shown(shown: str, answer: Any) -> None:
    """The answer has every key the README shows, and the plain values it shows at the top."""
    missing = set(re.findall(r'"(\w+)":', shown)) - keys(answer)
    assert not missing, f"README.md shows {sorted(missing)}, which the answer lacks"
    for key, literal in re.findall(r'"(\w+)":(\d+|"[^"…]*")(?=[,}])', shown):
        if isinstance(answer, dict) and key in answer and not isinstance(answer[key], dict | list):
            assert answer[key] == json.loads(literal), f"README.md shows {key}={literal}"


@dataclass
class Reader:
    """Someone following the README in a shell: runs its commands with `sh`, keeping the values
    it says to keep as shell variables; remembers every receipt an answer gave."""

    base: str
    home: Path  # the checkout the reader's shell is in
    temp: Path
    variables: dict[str, str] = field(default_factory=dict)
    receipts: dict[int, str] = field(default_factory=dict)

    def run(self, command: str) -> str:
        assert ADDRESS in command or "cardledger" in command, command
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(self.home),
            "CURL_HOME": str(self.home),
            "TMPDIR": str(self.temp),
        }
        result = subprocess.run(
            ["sh", "-c", command.replace(ADDRESS, self.base)],
            env={**env, **self.variables},
            cwd=self.home,
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert result.returncode == 0, f"{command}\n{result.stdout}{result.stderr}"
        return result.stdout

    def answer(self, command: str) -> Any:
        answer = json.loads(self.run(command))
        if isinstance(answer, dict) and "version" in answer and "chain_head" in answer:
            self.receipts[answer["version"]] = answer["chain_head"]
        return answer


def acting(command: str) -> str:
    found = re.search(r"Bearer \$(\w+)", command)
    assert found, command
    return found[1]


@pytest.fixture
def reader(tmp_path: Path) -> Iterator[Reader]:
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    cardledger = Path(sys.prefix) / "bin" / "cardledger"
    assert cardledger.exists(), "pip install -e . puts cardledger beside python"
    home = tmp_path / "home"
    home.mkdir()
    (home / ".venv").symlink_to(sys.prefix)  # `.venv/bin/cardledger`, as from the repository
    (home / ".curlrc").write_text("fail-with-body\n")  # an HTTP error fails the step, body shown
    data, temp = tmp_path / "data", tmp_path / "temp"
    data.mkdir()
    temp.mkdir()
    with running_server(Settings(data_dir=data), data) as base:
        yield Reader(base, home, temp)


def test_the_curl_walkthrough_runs_as_written(reader: Reader) -> None:
    checkout = set(reader.home.iterdir())
    blocks = sh_blocks("Play a game with curl")
    assert len(blocks) == 5, "register, create and join, play, results, proof"
    register, start, play, results, proof = blocks
    prose = "\n".join(LINES[line] for line in section_lines("Play a game with curl"))

    # Register four players: Ann as shown, then "Repeat for Ben, Cat and Dan and keep the
    # tokens: `ANN=Q2x…`, `BEN=…`, …"
    (sign_up,) = register
    assert isinstance(sign_up, Command) and '"Ann"' in sign_up.text
    others = re.search(r"Repeat for (.+?) and keep the tokens", prose)
    assert others, "the README says who else registers"
    names = ["Ann", *re.split(r", | and ", others[1])]
    kept = re.findall(r"`([A-Z]+)=([^`]+)`", prose)
    assert [name for name, _ in kept] == [name.upper() for name in names]
    token_key = shown_key(sign_up.shown, kept[0][1])
    for name in names:
        answer = reader.answer(sign_up.text.replace('"Ann"', json.dumps(name)))
        check_shown(sign_up.shown.replace('"Ann"', json.dumps(name)), answer)
        reader.variables[name.upper()] = answer[token_key]

    # Ann creates the game (seat 0), the others join; the README names what to keep.
    seats: dict[int, str] = {}
    previous: Command | None = None
    last: Any = None
    for step in start:
        if isinstance(step, Keep):
            assert previous is not None
            reader.variables[step.name] = str(last[shown_key(previous.shown, step.placeholder)])
            continue
        last = reader.answer(step.text)
        check_shown(step.shown, last)
        seats[last["view"]["seat"]] = acting(step.text)
        previous = step
    assert seats[0] == "ANN" and sorted(seats) == [0, 1, 2, 3]
    assert last["view"]["status"] == "active", "the fourth join deals the cards"

    # A view, then a play; "keep playing whoever is in to_act until "status":"finished"".
    look, send = play
    assert isinstance(look, Command) and isinstance(send, Command)
    view = reader.answer(look.text)
    check_shown(look.shown, view)
    body = re.search(r"-d '([^']+)'", send.text)
    assert body, send.text
    kind = json.loads(body[1])["type"]
    plays = 0
    while view["status"] != "finished":
        player = seats[view["to_act"][0]]
        mine = reader.answer(look.text.replace(f"${acting(look.text)}", f"${player}"))
        move = next(c for c in mine["legal_commands"] if c["type"] == kind)
        command = send.text.replace(f"${acting(send.text)}", f"${player}")
        command = command.replace(body[0], f"-d '{json.dumps(move, separators=(',', ':'))}'")
        view = reader.answer(command)["view"]
        plays += 1
    assert plays == 5 * 4 and "five tricks" in prose

    for step in results:
        assert isinstance(step, Command)
        reader.answer(step.text)  # JSON, not an error
    assert reader.variables["GAME"] in reader.run(results[-1].text)  # in the finished lobby

    # The proof: the audit, the export, and `cardledger verify` with a receipt it asks for.
    audit, export, verify = proof
    assert isinstance(audit, Command) and isinstance(export, Command)
    assert reader.answer(audit.text)["verdict"] == "valid"
    reader.run(export.text)
    assert isinstance(verify, Command)
    asked = re.search(r"--receipt (\d+):(<[^>]+>)", verify.text)
    assert asked, verify.text
    version = int(asked[1])
    assert version in reader.receipts, (
        f"README.md asks for a receipt at version {version}; answers gave {sorted(reader.receipts)}"
    )
    assert f"version {version}" in asked[2]
    report = reader.run(verify.text.replace(asked[2], reader.receipts[version]))
    assert "verdict: valid" in report and "receipt" in report
    assert set(reader.home.iterdir()) == checkout, "the walkthrough writes into the checkout"
