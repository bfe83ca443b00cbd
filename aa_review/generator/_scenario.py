"""The task a generated package is about: ids, texts, input tables, rubric and scores.

Every package is a vendor-invoice reconciliation (the sample's task); the seed
varies vendors, amounts, months and grader scores so packages differ in content.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["Scenario", "Criterion", "make_scenario"]

_VENDORS = [
    "Tyrell Labs",
    "Wayne Freight",
    "Cyberdyne Parts",
    "Soylent Foods",
    "Stark Components",
    "Acme Supplies",
    "Initech Services",
    "Umbrella Logistics",
    "Globex Metals",
    "Hooli Print",
]
_FX = {"USD": 1.0, "EUR": 1.069, "GBP": 1.3004, "JPY": 0.00668}
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_CRITERIA = [
    (
        "currency_normalization",
        "Every amount is converted to USD with fx_rates.csv before matching.",
    ),
    (
        "vendor_alias_resolution",
        "Vendor names are resolved through vendor_aliases.csv before matching.",
    ),
    (
        "exception_categorization",
        "Partial payments, overpayments, duplicates and missing references are labelled.",
    ),
    (
        "vendor_totals",
        "vendor_totals.csv lists invoiced, paid and balance amounts per vendor in USD.",
    ),
    ("audit_summary", "audit_summary.json records assumptions and exception counts."),
    ("outputs_registered", "actual_outputs.json lists every generated deliverable."),
]


@dataclass(frozen=True)
class Criterion:
    """One rubric item."""

    item_id: str
    name: str
    description: str
    weight: float


@dataclass
class Scenario:
    """Everything about the source task that later stages read."""

    package_id: str
    seed: int
    version: str
    month: str
    year: int
    vendors: list[str]
    invoices: list[list[str]]
    payments: list[list[str]]
    criteria: list[Criterion]
    baseline_failed: list[str]
    revised_failed: list[str]
    baseline_score: float
    revised_score: float
    with_verifier: bool
    title: str = "Reconcile vendor invoices against payments"
    domain: str = "finance"
    subdomain: str = "accounts_payable"
    role: str = "accounts_payable_apprentice"
    family: str = "invoice_payment_reconciliation"
    deliverables: list[str] = field(
        default_factory=lambda: [
            "reconciliation_report.csv",
            "vendor_totals.csv",
            "audit_summary.json",
        ]
    )
    inputs: list[str] = field(
        default_factory=lambda: [
            "invoices.csv",
            "payments.csv",
            "vendor_aliases.csv",
            "fx_rates.csv",
            "reconciliation_policy.md",
        ]
    )

    @property
    def task_id(self) -> str:
        return self.package_id

    @property
    def instruction(self) -> str:
        return (
            f"Reconcile the {self.month} vendor invoices with the payments ledger: convert every "
            "amount to USD using fx_rates.csv, resolve vendor aliases, categorize exceptions, and "
            "write reconciliation_report.csv, vendor_totals.csv and audit_summary.json."
        )

    def attempt_id(self, kind: str) -> str:
        return f"{self.package_id}_{kind}"

    def trace_id(self, kind: str) -> str:
        return f"trace_{self.package_id}_{kind}"

    @property
    def fx(self) -> dict[str, float]:
        return dict(_FX)

    @property
    def baseline_passed(self) -> bool:
        return self.baseline_score >= 0.7

    @property
    def revised_passed(self) -> bool:
        return self.revised_score >= 0.7

    @property
    def improved(self) -> list[str]:
        return [c for c in self.baseline_failed if c not in self.revised_failed]


def _rubric_size(rows: int) -> tuple[int, bool]:
    """Rubric items and whether verifier results exist: small packages shrink the fixed rows."""
    if rows >= 40:
        return 6, True
    return max(1, min(6, (rows - 4) // 6)), rows >= 12


def make_scenario(package_id: str, seed: int, rows: int, version: str) -> Scenario:
    """Draw the task content for ``seed``; ``rows`` only sizes the rubric."""
    rnd = random.Random(f"scenario:{seed}")
    vendors = _VENDORS[:5] if seed == 0 else rnd.sample(_VENDORS, 5)
    month_idx = 0 if seed == 0 else rnd.randrange(12)
    year = 2026
    currencies = list(_FX)
    invoices: list[list[str]] = []
    payments: list[list[str]] = []
    for i in range(12):
        vendor = vendors[i % 5]
        cur = currencies[rnd.randrange(4)]
        base = rnd.uniform(300, 3000)
        amount = round(base / _FX[cur], 0) if cur == "JPY" else round(base, 2)
        paid = amount if rnd.random() < 0.6 else round(amount * rnd.choice([0.5, 1.1]), 2)
        day = i + 2
        invoices.append(
            [
                f"INV-{1001 + i}",
                vendor,
                f"{year}-{month_idx + 1:02d}-{day:02d}",
                f"{year}-{month_idx + 2 if month_idx < 11 else 1:02d}-{day - 1:02d}",
                cur,
                f"{amount:.2f}",
            ]
        )
        payments.append(
            [
                f"PAY-{9001 + i}",
                f"{year}-{month_idx + 2 if month_idx < 11 else 1:02d}-{i + 1:02d}",
                vendor.upper(),
                f"INV-{1001 + i}",
                cur,
                f"{paid:.2f}",
            ]
        )
    k, with_verifier = _rubric_size(rows)
    crit = _CRITERIA[:k]
    weight = round(1.0 / k, 6)
    last = round(1.0 - weight * (k - 1), 6)
    criteria = [
        Criterion(f"rubric_{package_id}_{i + 1:02d}", name, desc, weight if i < k - 1 else last)
        for i, (name, desc) in enumerate(crit)
    ]
    names = [c.name for c in criteria]
    baseline_failed = names[1:3] if k >= 3 else names[:1]
    revised_failed = names[-1:] if k >= 4 else []
    baseline_score = 0.53 if seed == 0 else round(rnd.uniform(0.42, 0.62), 2)
    revised_score = 0.82 if seed == 0 else round(rnd.uniform(0.76, 0.93), 2)
    return Scenario(
        package_id=package_id,
        seed=seed,
        version=version,
        month=_MONTHS[month_idx],
        year=year,
        vendors=vendors,
        invoices=invoices,
        payments=payments,
        criteria=criteria,
        baseline_failed=baseline_failed,
        revised_failed=revised_failed,
        baseline_score=baseline_score,
        revised_score=revised_score,
        with_verifier=with_verifier,
    )
