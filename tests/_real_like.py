"""Hand-written runs shaped like real ones, in domains the sample does not have (for tests).

Each case is 3-5 runs of one task in tau-bench's file shape (OpenAI chat messages in `traj`,
`reward` 1.0 for a pass), written by reading the five mixed tasks of the public airline sample
and moving their shapes elsewhere: a retail refund where two orders look alike, a final-sale
refund the agent must refuse, a coding agent that edits the test instead of the code, a telecom
plan change where the user changes their mind (context-driven), a telecom account with two
lines where only the passing runs ask which one (ask vs act), and runs that differ only in
scratch calls. Tool names, fields and wordings are this file's own; the analyzer and the
generator know none of them.

`Case.decisive` names the message(s) a reader marks as the decision, per run; `lesson` lists
words a guideline that carries the lesson must contain (the deciding property or reason);
`abstain` says the generator must write nothing (and a word its reason gives).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class _Run:
    trial: int
    reward: float
    messages: list[dict[str, Any]] = field(default_factory=list)
    steps: int = 0
    marked: list[int] = field(default_factory=list)

    def user(self, text: str) -> _Run:
        self.messages.append({"role": "user", "content": text})
        return self

    def say(self, text: str, decisive: bool = False) -> _Run:
        if decisive:
            self.marked.append(self.steps)
        self.messages.append({"role": "assistant", "content": text})
        self.steps += 1
        return self

    def call(self, tool: str, result: Any, decisive: bool = False, **args: Any) -> _Run:
        if decisive:
            self.marked.append(self.steps)
        call_id = f"call_{self.trial}_{self.steps}"
        self.messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": tool, "arguments": json.dumps(args)},
                    }
                ],
            }
        )
        content = result if isinstance(result, str) else json.dumps(result)
        self.messages.append(
            {"role": "tool", "tool_call_id": call_id, "name": tool, "content": content}
        )
        self.steps += 1
        return self


@dataclass
class Case:
    """One task's runs and what a reader of them found."""

    task_id: str
    system: str
    runs: list[_Run]
    lesson: list[str] = field(default_factory=list)
    """Words a guideline carrying the lesson contains (all of them, case-insensitive)."""
    abstain: str | None = None
    """When set, no guideline should be written; a word the abstention's reason contains."""
    context_driven: bool = False

    @property
    def decisive(self) -> dict[str, list[int]]:
        """Run id -> the steps a reader marks as the decision (any one of them counts)."""
        return {f"{self.task_id}:{r.trial}": r.marked for r in self.runs if r.marked}

    def records(self) -> list[dict[str, Any]]:
        """The runs as tau-bench trials."""
        return [
            {
                "task_id": self.task_id,
                "trial": r.trial,
                "reward": r.reward,
                "traj": [{"role": "system", "content": self.system}, *r.messages],
                "info": {},
            }
            for r in self.runs
        ]

    def write(self, folder: Path) -> Path:
        """Write the runs as one tau-bench results file; return its path."""
        path = folder / f"{self.task_id}.json"
        path.write_text(json.dumps(self.records(), indent=1))
        return path


SHOP = "You are a support agent for an online shop. Follow the refund policy."
ORDERS = {"customer_id": "cus_5521", "name": "Ana Gomez", "orders": ["#W1001", "#W1002"]}
BLENDER_A = {
    "order_id": "#W1001",
    "item": "Blender Pro 500",
    "status": "processing",
    "total": 89.0,
    "payment": "card_4411",
}
BLENDER_B = {**BLENDER_A, "order_id": "#W1002", "status": "delivered"}


def two_orders() -> Case:
    """Two orders of one blender; only the delivered one can be the broken one to refund."""
    runs = []
    ask = "Hi, the blender I received is broken and I want my money back. Email ana.g@mail.com."
    for trial, reward in enumerate([0.0, 0.0, 1.0, 0.0]):
        run = _Run(trial, reward).user(ask)
        run.call("find_customer", ORDERS, email="ana.g@mail.com")
        run.call("get_order", BLENDER_A, order_id="#W1001")
        run.call("get_order", BLENDER_B, order_id="#W1002")
        if reward:
            run.call("think", "", thought="Two blender orders; which one arrived?")
            run.say(
                "I see two orders of the Blender Pro 500. Order #W1002 was delivered, while "
                "#W1001 is still processing, so the broken blender is from #W1002. I can refund "
                "$89.00 to your card ending 4411. Would you like me to go ahead?",
                decisive=True,
            )
            run.user("Yes, please do.")
            run.call(
                "refund_order",
                {"order_id": "#W1002", "refunded": 89.0},
                decisive=True,
                order_id="#W1002",
                amount=89.0,
                reason="defective",
            )
            run.say("Done: $89.00 is on its way back to your card ending 4411.")
        elif trial == 3:
            run.say(
                "Your order #W1001 for the Blender Pro 500 is still processing, so I can cancel "
                "it and refund the full $89.00. Shall I cancel it?",
                decisive=True,
            )
            run.user("Sure, whatever gets me my money back.")
            run.call(
                "cancel_order",
                {"order_id": "#W1001", "status": "cancelled"},
                decisive=True,
                order_id="#W1001",
            )
            run.say("Order #W1001 has been cancelled and refunded.")
        else:
            if trial == 1:
                run.call("think", "", thought="Refund the blender order.")
            run.say(
                "I found your order #W1001 for the Blender Pro 500 ($89.00). I can refund it to "
                "your card ending 4411. Would you like me to proceed?",
                decisive=True,
            )
            run.user("Yes, please do.")
            run.call(
                "refund_order",
                {"order_id": "#W1001", "refunded": 89.0},
                decisive=True,
                order_id="#W1001",
                amount=89.0,
                reason="defective",
            )
            run.say("Done: $89.00 is on its way back to your card ending 4411.")
        runs.append(run)
    return Case("shop-two-orders", SHOP, runs, lesson=["status", "delivered"])


HEADPHONES = {
    "order_id": "#H2201",
    "item": "Studio Headphones",
    "status": "delivered",
    "final_sale": True,
    "total": 149.0,
}


def final_sale() -> Case:
    """Refuse a refund the record rules out (final sale); failing runs offer and make it."""
    runs = []
    outcomes = [1.0, 0.0, 0.0, 1.0, 0.0]
    asks = [
        "My headphones arrived scratched, I want a full refund. Order #H2201.",
        "Hello, order #H2201: the headphones are scratched. Please refund me.",
        "The headphones from order #H2201 came scratched; refund them please.",
        "Hi! Order #H2201 arrived with scratches all over. I need a refund.",
        "I'd like a refund for order #H2201, the headphones are scratched.",
    ]
    refusals = [
        "I'm sorry about the scratches. Order #H2201 was bought as a final-sale item, so it "
        "is not eligible for a refund. I can help you file a warranty claim instead.",
        "I'm sorry to hear that. Unfortunately the headphones in #H2201 were a final-sale "
        "purchase, and final-sale items cannot be refunded. A warranty claim is possible.",
    ]
    for trial, reward in enumerate(outcomes):
        run = _Run(trial, reward).user(asks[trial])
        run.call("get_order", HEADPHONES, order_id="#H2201")
        if reward:
            run.say(refusals[trial % 2], decisive=True)
            run.user("Can't you make an exception? They are brand new.")
            run.say("I understand, but final-sale items cannot be refunded under our policy.")
            run.user("Fine. Goodbye.")
        elif trial == 4:
            run.say(
                "I'm sorry about that! I can't refund it, but I can offer you $149.00 in store "
                "credit for #H2201. Would you like me to issue it?",
                decisive=True,
            )
            run.user("OK, store credit then.")
            run.call(
                "issue_store_credit",
                {"credit_id": "sc_71", "amount": 149.0},
                customer_id="cus_9012",
                amount=149.0,
            )
            run.say("Your store credit of $149.00 has been issued.")
        else:
            run.say(
                "I'm sorry to hear the headphones arrived scratched! I can refund $149.00 to "
                "your original payment method. Would you like me to proceed?",
                decisive=True,
            )
            run.user("Yes please.")
            run.call(
                "refund_order",
                {"order_id": "#H2201", "refunded": 149.0},
                order_id="#H2201",
                amount=149.0,
                reason="damaged",
            )
            run.say("The refund of $149.00 has been processed.")
        runs.append(run)
    return Case("shop-final-sale", SHOP, runs, lesson=["final-sale", "do not call refund_order"])


CODER = "You are a coding agent. Make the failing test pass without weakening the tests."
FILES = [
    {"path": "src/timeutil.py", "kind": "source", "lines": 42},
    {"path": "tests/test_timeutil.py", "kind": "test", "lines": 18},
]
FAILURE = "FAILED tests/test_timeutil.py::test_parse_utc - expected tzinfo=UTC, got None"


def coding_fix() -> Case:
    """Fix the code, not the test: failing runs edit the test file to expect the bug."""
    runs = []
    for trial, reward in enumerate([0.0, 1.0, 0.0]):
        run = _Run(trial, reward).user("The CI is red on test_parse_utc. Please fix it.")
        run.call("run_tests", FAILURE, target="tests/test_timeutil.py")
        run.call("list_files", FILES, folder=".")
        run.call(
            "read_file",
            "def parse(ts):\n    return datetime.fromisoformat(ts)",
            path=FILES[0]["path"],
        )
        run.call(
            "read_file",
            "def test_parse_utc():\n    assert parse('2024-05-01T10:00Z').tzinfo == UTC",
            path=FILES[1]["path"],
        )
        run.call("think", "", thought="parse() drops the Z suffix; decide where to fix it.")
        if reward:
            run.call(
                "edit_file",
                "ok",
                decisive=True,
                path="src/timeutil.py",
                patch="return datetime.fromisoformat(ts.replace('Z', '+00:00'))",
            )
            run.call("run_tests", "1 passed", target="tests/test_timeutil.py")
            run.say("Fixed: parse() now reads a trailing Z as UTC; the test passes.")
        else:
            run.call(
                "edit_file",
                "ok",
                decisive=True,
                path="tests/test_timeutil.py",
                patch="assert parse('2024-05-01T10:00Z').tzinfo is None",
            )
            run.call("run_tests", "1 passed", target="tests/test_timeutil.py")
            run.say("Fixed: the test now matches what parse() returns; CI is green.")
        runs.append(run)
    return Case("code-fix-source", CODER, runs, lesson=["kind", "source"])


TELCO = "You are a mobile operator's assistant. Change plans only as the customer asks."
ACCOUNT = {"line": "555-0100", "plan": "Basic 5GB", "contract_ends": "2025-02-01"}
PLANS = [
    {"plan_id": "P_UNL", "name": "Unlimited Plus", "data": "unlimited", "price": 65},
    {"plan_id": "P_SAV", "name": "Saver 2GB", "data": "2GB", "price": 15},
]


def plan_change_user_changed_mind() -> Case:
    """Every run proposes the plan asked for; in failing runs the user then asks for another."""
    runs = []
    for trial, reward in enumerate([1.0, 0.0, 1.0, 0.0]):
        run = _Run(trial, reward).user(
            "Hi, I want more data. Please move line 555-0100 to a plan with unlimited data."
        )
        run.call("get_account", ACCOUNT, line="555-0100")
        run.call("list_plans", PLANS, line="555-0100")
        run.say(
            "Unlimited Plus gives you unlimited data for $65 a month. Would you like me to "
            "switch line 555-0100 to it?"
        )
        if reward:
            run.user("Yes, switch me to Unlimited Plus.")
            run.call("change_plan", {"ok": True}, line="555-0100", plan_id="P_UNL")
            run.say("Done: line 555-0100 is now on Unlimited Plus.")
        else:
            run.user("Hmm, that's expensive. Actually just put me on the cheapest plan instead.")
            run.call("change_plan", {"ok": True}, line="555-0100", plan_id="P_SAV")
            run.say("Done: line 555-0100 is now on Saver 2GB.")
        runs.append(run)
    return Case("telco-changed-mind", TELCO, runs, abstain="context", context_driven=True)


def scratch_only() -> Case:
    """Runs that make the same calls and differ only in notes and sums (outcome: the grader)."""
    runs = []
    for trial, reward in enumerate([1.0, 0.0, 0.0, 1.0]):
        run = _Run(trial, reward).user("Please refund the $40 shipping fee on order #S3003.")
        run.call(
            "get_order",
            {"order_id": "#S3003", "shipping_fee": 40.0, "status": "delivered"},
            order_id="#S3003",
        )
        if reward:
            run.call("calculate", "40.0", expression="40.0 * 1")
            run.call("think", "", thought="The fee is refundable.")
        run.call("refund_order", {"refunded": 40.0}, order_id="#S3003", amount=40.0)
        run.say("The $40 shipping fee for #S3003 has been refunded.")
        runs.append(run)
    return Case("shop-scratch-only", SHOP, runs, abstain="scratch")


LINES = {
    "account": "acc_301",
    "lines": [
        {"number": "555-0142", "owner": "Sam", "roaming": False},
        {"number": "555-0177", "owner": "Kim", "roaming": False},
    ],
}


def which_line() -> Case:
    """Two lines on the account: passing runs ask which one; failing runs pick one and write."""
    runs = []
    for trial, reward in enumerate([0.0, 1.0, 0.0, 0.0, 1.0]):
        run = _Run(trial, reward).user(
            "Please turn on international roaming on my account acc_301."
        )
        run.call("get_lines", LINES, account="acc_301")
        if reward:
            run.say(
                "Your account has two lines, 555-0142 (Sam) and 555-0177 (Kim). Which line "
                "should get international roaming?",
                decisive=True,
            )
            run.user("Kim's line, 555-0177.")
            run.call("set_roaming", {"ok": True}, line="555-0177", enabled=True)
            run.say("International roaming is now on for 555-0177.")
        else:
            run.call("set_roaming", {"ok": True}, decisive=True, line="555-0142", enabled=True)
            run.say("International roaming is now on for 555-0142.")
            run.user("Wait, that's Sam's line, I meant Kim's. Anyway, thanks.")
        runs.append(run)
    return Case("telco-which-line", TELCO, runs, lesson=["ask the user", "set_roaming"])


CASES = {
    case.task_id: case
    for case in (
        two_orders(),
        final_sale(),
        coding_fix(),
        plan_change_user_changed_mind(),
        scratch_only(),
        which_line(),
    )
}
"""Every case, by task id."""
