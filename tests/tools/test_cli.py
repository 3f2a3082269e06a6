"""The command line's own promises: a version, help for every option, every setting listed, what
a rebuild made, and one plain line (no traceback) when `verify` cannot read its file."""

from __future__ import annotations

import argparse
import io
import logging
import re
import subprocess
import sys
import threading
from importlib import metadata
from pathlib import Path

import pytest

from service import settings
from service.application import Cardledger
from service.settings import MEANINGS, NO_LIMITS, Settings, variable_names, variables
from service.tools import cli
from service.tools.cli import build_parser, main, rebuild_with_progress
from service.tools.local_games import play_to_end, seated
from service.tools.supervisor import SUPERVISOR_LOG, explain_worker_deaths


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_version_comes_from_the_installed_package(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"cardledger {metadata.version('cardledger')}\n"


@pytest.mark.parametrize("name", ["", *subcommands()])
def test_every_option_says_what_it_does(name: str) -> None:
    parser = subcommands()[name] if name else build_parser()
    for action in parser._actions:
        assert action.help, f"cardledger {name} {action.option_strings or action.dest}: no help"
        for command in getattr(action, "_choices_actions", ()):  # the list of commands
            assert command.help, f"cardledger {command.dest}: no help"
        if action.default not in (None, False, [], "", argparse.SUPPRESS):
            assert "default" in action.help, f"cardledger {name} {action.dest}: say its default"
    parser.format_help()  # every %(default)s in the texts expands


def test_the_settings_listed_are_every_variable_settings_py_reads() -> None:
    """variable_names() asks from_env; the module's source is a second witness (a variable read
    only under some condition would be missed by asking)."""
    named = re.findall(r'"(CARDLEDGER_\w+)"', Path(settings.__file__).read_text())
    assert sorted(variable_names()) == sorted(set(named))
    assert sorted(MEANINGS) == sorted(variable_names()), "a meaning for each variable, no other"


def test_help_names_every_setting_and_the_settings_command_explains_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())  # however argparse wraps it
    assert "cardledger settings" in help_text
    assert main(["settings"]) == 0
    listing = capsys.readouterr().out
    for variable in variables():
        assert variable.name in help_text
        assert f"{variable.name} (default: {variable.default})\n" in listing
        assert variable.meaning and " ".join(listing.split()).count(variable.meaning) == 1


def test_each_default_listed_is_what_the_variable_is_when_unset() -> None:
    unset = Settings.from_env({})
    for variable in variables():
        if variable.default != "unset":
            assert Settings.from_env({variable.name: variable.default}) == unset, variable


def test_rebuild_says_what_it_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = Cardledger(Settings(data_dir=tmp_path, limits=NO_LIMITS))
    try:
        finished, who = seated(ledger, 4)
        play_to_end(ledger, finished, who)
        seated(ledger, 3)  # running: a lobby row, no leaderboard rows yet
        events = ledger.store.recorder.max_notification_id()
    finally:
        ledger.close()
    monkeypatch.setenv("CARDLEDGER_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("CARDLEDGER_DATABASE_URL", raising=False)
    assert main(["project", "--rebuild", "--once"]) == 0
    summary = capsys.readouterr().out.splitlines()[0]
    found = re.fullmatch(
        r"rebuilt from position 0: (\d+) notifications applied, 2 games,"
        r" 4 leaderboard rows, in \d+\.\d\d s",
        summary,
    )
    assert found, summary
    assert 0 < int(found[1]) <= (events or 0)  # game events only, not the players'


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class SlowReadModels:
    """Stands in for ReadModels: a rebuild that takes a second, its position visible midway."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.tables = self

    def rebuild(self) -> int:
        self.done.wait(1.2)
        return 40

    def position(self) -> int:
        return 17

    def row_counts(self) -> tuple[int, int]:
        return 3, 5


def test_rebuild_shows_progress_on_a_terminal_only() -> None:
    terminal, pipe = Terminal(), io.StringIO()
    summary = rebuild_with_progress(SlowReadModels(), 40, progress=terminal)  # type: ignore[arg-type]
    assert "rebuilding: notification 17 of 40" in terminal.getvalue()
    assert summary.startswith("rebuilt from position 0: 40 notifications applied, 3 games, 5 ")
    rebuild_with_progress(SlowReadModels(), 40, progress=pipe)  # type: ignore[arg-type]
    assert pipe.getvalue() == ""


def verify_output(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "service.tools.cli", "verify", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda tmp: tmp / "missing.json", "No such file or directory"),
        (lambda tmp: tmp, "Is a directory"),
        (lambda tmp: write(tmp / "notes.txt", b"not json at all"), "not a cardledger bundle"),
        (lambda tmp: write(tmp / "other.json", b'{"a": 1}'), "not a cardledger bundle"),
    ],
    ids=["missing", "directory", "not-json", "other-json"],
)
def test_verify_says_in_one_line_why_it_cannot_read_a_file(
    tmp_path: Path, make: object, reason: str
) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    result = verify_output(str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("verify: cannot ") and str(path) in result.stderr
    assert reason in result.stderr


def test_verify_refuses_a_malformed_receipt_in_one_line(tmp_path: Path) -> None:
    result = verify_output(str(write(tmp_path / "b.json", b"{}")), "--receipt", "12:abc")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "a receipt is VERSION:HEAD" in result.stderr


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.fixture
def uvicorn_run(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """`cardledger serve` up to the call of uvicorn: the keyword arguments it was given."""
    given: dict[str, object] = {}
    monkeypatch.setattr(cli, "migrate", lambda args: 0)
    monkeypatch.setattr(cli.uvicorn, "run", lambda app, **kwargs: given.update(kwargs))
    monkeypatch.delenv("CARDLEDGER_WORKER_TIMEOUT", raising=False)
    return given


@pytest.mark.parametrize(
    ("argv", "env", "seconds"),
    [([], None, 30), ([], "12", 12), (["--worker-timeout", "45"], "12", 45)],
    ids=["default", "setting", "option-over-setting"],
)
def test_the_worker_timeout_reaches_uvicorns_supervisor(
    uvicorn_run: dict[str, object],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    env: str | None,
    seconds: int,
) -> None:
    if env is not None:
        monkeypatch.setenv("CARDLEDGER_WORKER_TIMEOUT", env)
    assert main(["serve", "--workers", "2", *argv]) == 0
    assert uvicorn_run["timeout_worker_healthcheck"] == seconds
    assert uvicorn_run["workers"] == 2


@pytest.mark.parametrize("text", ["0", "-3", "ten", "1.5"])
def test_a_worker_timeout_is_whole_seconds(
    text: str, uvicorn_run: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--worker-timeout", text])
    assert exit_.value.code == 2
    assert "--worker-timeout: a whole number of seconds, at least 1" in capsys.readouterr().err
    assert uvicorn_run == {}


def test_the_worker_timeout_has_help_naming_its_setting_and_default() -> None:
    option = next(
        a for a in subcommands()["serve"]._actions if "--worker-timeout" in a.option_strings
    )
    assert option.help and "CARDLEDGER_WORKER_TIMEOUT" in option.help and "30" in option.help
    assert "--worker-timeout SECONDS" in subcommands()["serve"].format_help()


def test_a_replaced_worker_is_logged_with_the_timeout_and_the_setting_to_raise() -> None:
    supervisor = logging.getLogger(SUPERVISOR_LOG)
    lines: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = lines.append  # type: ignore[method-assign]
    supervisor.addHandler(handler)
    level = supervisor.level
    supervisor.setLevel(logging.INFO)  # as uvicorn's logging configuration sets it
    try:
        explain_worker_deaths(7)
        supervisor.info("Child process [4242] died")  # uvicorn's words for a replaced worker
        supervisor.info("Started parent process [4241]")
    finally:
        supervisor.removeHandler(handler)
        supervisor.setLevel(level)
        for added in supervisor.filters[:]:
            supervisor.removeFilter(added)
    died, started = (record.getMessage() for record in lines)
    assert died.startswith("Child process [4242] died: ")
    assert "within 7 s" in died and "--worker-timeout" in died
    assert "CARDLEDGER_WORKER_TIMEOUT" in died
    assert lines[0].levelname == "WARNING"
    assert started == "Started parent process [4241]"
