"""The privacy rules on strings and keys, and the batched scanner's exactness."""

from __future__ import annotations

import copy

import orjson
import pytest

from aa_review.core.audits._privacy import PrivacyScanner, check_key, check_text


def _codes(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return [h[0] for h in hits]


def test_string_rules() -> None:
    assert _codes(check_text("see /tmp/run/x.txt", "p")) == ["privacy.private_path"]
    assert _codes(check_text("/home/bob/notes", "p")) == ["privacy.private_path"]
    assert _codes(check_text("the .env file", "p")) == ["privacy.private_path"]
    assert _codes(check_text("config.environment", "p")) == ["quirk.private_re_overmatch"]
    assert _codes(check_text("a bestseller", "p")) == ["quirk.token_substring"]
    assert _codes(check_text("the buyer paid", "p")) == ["privacy.forbidden_token"]
    assert _codes(check_text("curated list", "p")) == ["privacy.unsanitized_text"]
    assert _codes(check_text("max_iterations=3", "p")) == ["privacy.unsanitized_text"]
    assert _codes(check_text("SEXPERIENCE COMPILERUT", "p")) == ["quirk.upper_replacement"]
    assert check_text("reconciled 14 invoices against payments", "p") == []


def test_secrets_are_masked() -> None:
    for secret in (
        "sk-proj-" + "A1b2C3d4" * 6,
        "Authorization: Bearer " + "x9Y8z7W6" * 5,
        "-----BEGIN RSA PRIVATE KEY-----",
        "AKIA" + "ABCDEFGHIJKLMNOP",
        "password = 'hunter2hunter2'",
    ):
        hits = check_text(f"note {secret} end", "input.text")
        assert _codes(hits) == ["privacy.secret"], secret
        assert secret not in hits[0][2] and secret[-8:] not in hits[0][2]
        assert hits[0][1] == "input.text"


def test_key_rules() -> None:
    assert _codes(check_key("Buyer", "a.Buyer")) == ["privacy.forbidden_key"]
    assert _codes(check_key("max_iterations", "k")) == ["privacy.unsanitized_text"]
    assert _codes(check_key("stop_on_budget", "k")) == ["privacy.unsanitized_text"]
    assert check_key("tdo_round", "k") == []


@pytest.mark.parametrize("keep_raw", [False, True], ids=["rows", "raw lines"])
def test_batched_scanner_reports_every_row_carrying_a_hit(monkeypatch, keep_raw) -> None:
    monkeypatch.setattr(PrivacyScanner, "BATCH_ROWS", 7)
    monkeypatch.setattr(PrivacyScanner, "BATCH_CHARS", 200)
    clean = {"data_type": "x", "text": "fine", "nested": {"a": ["b", "c"]}, "n": 1}
    dirty = copy.deepcopy(clean)
    dirty["nested"]["a"].append("/Users/ann/secret.txt")
    rows = []
    for i in range(60):
        row = copy.deepcopy(dirty if i in (3, 4, 5, 30, 59) else clean)
        row["text"] = f"step {i % 9}"
        rows.append(row)
    scanner = PrivacyScanner()
    for i, row in enumerate(rows):
        # Fed with its raw line, the scanner keeps the bytes and parses them again
        # for a suspicious batch: the hits must be the same.
        scanner.feed(i, row, raw=orjson.dumps(row) if keep_raw else None)
    hits = scanner.flush()
    assert [pos for pos, _ in hits] == [3, 4, 5, 30, 59]
    assert {h[1] for _, h in hits} == {"nested.a[2]"}
    # The same rows again: strings seen clean before do not hide the dirty ones.
    for i, row in enumerate(rows):
        scanner.feed(i, row)
    assert [pos for pos, _ in scanner.flush()] == [3, 4, 5, 30, 59]
