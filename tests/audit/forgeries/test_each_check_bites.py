"""Every check of the audit has forgeries of its own that make it fail (the test_*_forgeries
modules beside this one); the untouched games they start from verify valid."""

from __future__ import annotations

import re
from pathlib import Path

import projections.audit
from tests.audit.forgeries.finished_game import cancelled_bundle, finished_bundle
from tests.audit.test_verify import verify

# Each check of the report, and the module that forges bundles it must refuse.
FORGED_IN = {
    "chain": "test_chain_forgeries",
    "receipt": "test_receipt_forgeries",
    "seed_commitment": "test_seed_forgeries",
    "decisions": "test_decision_forgeries",
    "deals": "test_deal_forgeries",
    "scores": "test_ending_forgeries",
    "final_head": "test_ending_forgeries",
    "bots": "test_bot_forgeries",  # reported for games that seat a bot
}


def test_the_untouched_games_verify_valid(tmp_path: Path) -> None:
    bundle = finished_bundle()
    last = bundle["events"][-1]
    code, output = verify(tmp_path, bundle, f"{last['version']}:{last['hash']}")
    assert code == 0, output
    reported = [line.split()[1].rstrip(":") for line in output.splitlines()[:-1]]
    assert reported == [check for check in FORGED_IN if check != "bots"]  # in report order
    code, output = verify(tmp_path, cancelled_bundle())
    assert code == 0, output


def test_every_check_named_in_the_audit_has_forgeries() -> None:
    # A check added to the audit later must come with forgeries that make it fail.
    source = Path(projections.audit.__file__).read_text()
    named = set(re.findall(r'_fail\(\s*"(\w+)"', source))
    named |= set(re.findall(r'name="(\w+)"', source))
    assert named == set(FORGED_IN)
    here = Path(__file__).parent
    for check, module in FORGED_IN.items():  # each module forges the check it is listed for
        assert f'"{check}"' in (here / f"{module}.py").read_text(), (check, module)
