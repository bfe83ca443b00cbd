"""One table of queries that every filter must answer alike: the core, ``aa-review rows``,
``aa-review audit --query`` (and the window's filters, which call the core)."""

ROWS = [
    "",
    "type:failure_case OR type:preference_pair",
    "confidence < 0.7",
    "confidence<0.7",
    "confidence>=0.93",
    "confidence=0.9299999999999999",
    "-type:*_event",
    "NOT (evidence.visibility:hidden_excluded OR quality<0.6)",
    "finding:privacy OR severity=warning",
    "file:environment/ line<=2",
    '"failure_case"',
    "(evidence<32 OR confidence:none) quality>0.5",
    "(type:*_pair OR type:failure_case) AND -finding:row.low_score",
]

FINDINGS = [
    "-quirk:yes",
    "severity:error code:privacy",
    "type:failure_case",
    "confidence < 0.7 OR code:privacy",
    "evidence.visibility:hidden_excluded code:link",
    "row.file:environment/ -code:row.hash",
    "check:quirks OR quirk:yes",
    "(code:row OR code:link) severity>=error -type:*_event",
]
