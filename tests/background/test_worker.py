"""The one pattern of every background thread: steps, wake-ups that are never lost, a stop that
holds, failures counted and survived, a last act."""

from __future__ import annotations

import threading

import pytest

from service import worker as worker_module
from service.worker import Worker


def test_a_wake_during_a_step_runs_it_again() -> None:
    inside, release = threading.Event(), threading.Event()
    runs: list[int] = []

    def step() -> None:
        runs.append(len(runs))
        if len(runs) == 1:
            inside.set()
            release.wait(5)

    worker = Worker("test", step, idle=None)  # idle None: only a wake runs it again
    worker.start()
    try:
        assert inside.wait(5)
        worker.wake()  # while the first step runs
        release.set()
        for _ in range(100):
            if len(runs) >= 2:
                break
            worker.pause(0.05)
        assert len(runs) == 2
    finally:
        worker.stop()
    assert not worker.health().alive


def test_without_a_wake_an_idle_worker_waits() -> None:
    runs: list[int] = []
    worker = Worker("test", lambda: runs.append(1), idle=None, eager=False)
    worker.start()
    try:
        threading.Event().wait(0.2)
        assert runs == []
        worker.wake()
        for _ in range(100):
            if runs:
                break
            threading.Event().wait(0.02)
        assert runs == [1]
    finally:
        worker.stop()


def test_the_delay_a_step_returns_is_its_next_sleep() -> None:
    runs: list[int] = []

    def step() -> float:
        runs.append(1)
        return 0.0 if len(runs) < 5 else 60.0

    worker = Worker("test", step, idle=60.0)
    worker.start()
    try:
        for _ in range(100):
            if len(runs) >= 5:
                break
            threading.Event().wait(0.02)
        assert len(runs) == 5  # four at once, then it sleeps its minute
    finally:
        worker.stop()


def test_a_failing_step_is_counted_and_the_loop_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[int] = []

    def step() -> float:
        runs.append(1)
        if len(runs) == 1:
            raise RuntimeError("the store is away")
        return 60.0

    monkeypatch.setattr(worker_module, "PAUSE_AFTER_FAILURE", 0.01)
    worker = Worker("test", step, idle=60.0)
    worker.start()
    try:
        for _ in range(100):
            if len(runs) >= 2:
                break
            threading.Event().wait(0.02)
        health = worker.health()
        assert len(runs) == 2 and health.failures == 1 and not health.failing
        assert health.alive and health.steps == 2
    finally:
        worker.stop()


def test_stop_ends_the_loop_and_runs_the_last_act() -> None:
    finished = threading.Event()
    worker = Worker("test", lambda: None, idle=60.0, finish=finished.set)
    worker.start()
    worker.stop(timeout=5)
    assert finished.is_set() and not worker.health().alive
    worker.start()  # a stopped worker does not start again
    assert not worker.health().alive
