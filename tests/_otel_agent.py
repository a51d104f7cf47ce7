"""A 3-tool agent instrumented twice: with the oncourse recorder and the real OpenTelemetry SDK.

Both see the same run; tests compare what each one recorded. The spans follow the GenAI
conventions as an instrumentation library would emit them (an `invoke_agent` span, a `chat` span
per model turn with `gen_ai.input.messages`/`gen_ai.output.messages`, an `execute_tool` span per
tool call); the task and the outcome sit in the application's own attributes (`app.*`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oncourse.adapters.recorder import record
from oncourse.consistency.guidelines import Guideline, GuidelineScope

GUIDELINE = Guideline(
    trigger="The customer was charged twice for an order and asks for a refund",
    instruction="Open each of the customer's orders and refund the one that shows two charges.",
    scope=GuidelineScope(tools=["get_order", "refund"]),
)
"""A guideline the shop task retrieves (cosine about 0.65 with MiniLM)."""
TASK = "Refund the last order of alice@example.com; she was charged twice."
MODEL = "scripted-1"


@dataclass
class Turn:
    """One scripted model reply: text, then the tool calls it asks for."""

    text: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


class Shop:
    """The world the tools act on; `check` says whether the task was done."""

    def __init__(self) -> None:
        self.refunded: list[int] = []

    def find_customer(self, email: str) -> dict[str, Any]:
        return {"customer_id": 7, "email": email, "orders": [41, 42]}

    def get_order(self, order_id: int) -> dict[str, Any]:
        if order_id not in (41, 42):
            raise KeyError(f"no order {order_id}")
        return {"order_id": order_id, "charges": 2 if order_id == 42 else 1, "amount": 30}

    def refund(self, order_id: int, amount: int) -> str:
        self.refunded.append(order_id)
        return f"refunded {amount} on order {order_id}"

    def check(self) -> bool:
        return self.refunded == [42]


GOOD = [
    Turn("I will look the customer up first.", [("find_customer", {"email": "alice@example.com"})]),
    Turn("", [("get_order", {"order_id": 42})]),
    Turn("Order 42 was charged twice.", [("refund", {"order_id": 42, "amount": 30})]),
    Turn("Your duplicate charge on order 42 has been refunded."),
]
WRONG = [
    Turn("I will look the customer up first.", [("find_customer", {"email": "alice@example.com"})]),
    Turn("", [("get_order", {"order_id": 41})]),
    Turn("Refunding the order.", [("refund", {"order_id": 41, "amount": 30})]),
    Turn("Your order 41 has been refunded."),
]
BROKEN = [
    Turn("I will look the customer up first.", [("find_customer", {"email": "alice@example.com"})]),
    Turn("", [("get_order", {"order_id": 99})]),
    Turn("That order does not exist.", [("get_order", {"order_id": 42})]),
    Turn("Order 42 was charged twice.", [("refund", {"order_id": 42, "amount": 30})]),
    Turn("Refunded."),
]


def _assistant(turn: Turn, ids: list[str]) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"type": "text", "content": turn.text}] if turn.text else []
    parts += [
        {"type": "tool_call", "id": i, "name": name, "arguments": args}
        for i, (name, args) in zip(ids, turn.calls, strict=True)
    ]
    return {"role": "assistant", "parts": parts}


def run_instrumented(tracer: Any, script: list[Turn], task_id: str, run_id: str, out: Path) -> None:
    """Run the scripted agent once, recording it with both the recorder and OTel spans."""
    from opentelemetry.trace import Status, StatusCode

    shop = Shop()
    tools = {
        "find_customer": shop.find_customer,
        "get_order": shop.get_order,
        "refund": shop.refund,
    }
    history: list[dict[str, Any]] = [{"role": "user", "parts": [{"type": "text", "content": TASK}]}]
    with (
        record(task_id, TASK, out=out, run_id=run_id, meta={"model": MODEL}) as run,
        tracer.start_as_current_span("invoke_agent support") as agent,
    ):
        agent.set_attributes(
            {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": "support",
                "app.task_id": task_id,
                "app.task": TASK,
                "oncourse.run_id": run_id,
            }
        )
        final = ""
        for number, turn in enumerate(script):
            ids = [f"call_{number}_{i}" for i in range(len(turn.calls))]
            with tracer.start_as_current_span(f"chat {MODEL}") as chat:
                chat.set_attributes(
                    {
                        "gen_ai.operation.name": "chat",
                        "gen_ai.provider.name": "scripted",
                        "gen_ai.request.model": MODEL,
                        "gen_ai.input.messages": json.dumps(history),
                        "gen_ai.output.messages": json.dumps([_assistant(turn, ids)]),
                        "gen_ai.usage.input_tokens": 100 + number,
                        "gen_ai.usage.output_tokens": 20,
                    }
                )
            run.add_usage(100 + number, 20)
            history.append(_assistant(turn, ids))
            if not turn.calls:
                final = turn.text
            for call_number, (call_id, (name, args)) in enumerate(
                zip(ids, turn.calls, strict=True)
            ):
                with tracer.start_as_current_span(f"execute_tool {name}") as span:
                    span.set_attributes(
                        {
                            "gen_ai.operation.name": "execute_tool",
                            "gen_ai.tool.name": name,
                            "gen_ai.tool.call.id": call_id,
                            "gen_ai.tool.call.arguments": json.dumps(args),
                        }
                    )
                    thought = turn.text if call_number == 0 and turn.text else None
                    try:
                        result = tools[name](**args)
                    except KeyError as exc:
                        span.set_status(Status(StatusCode.ERROR, str(exc)))
                        run.step(name, args, thought=thought, error=str(exc))
                        result = {"error": str(exc)}
                    else:
                        text = result if isinstance(result, str) else json.dumps(result)
                        span.set_attribute("gen_ai.tool.call.result", text)
                        run.step(name, args, observation=result, thought=thought)
                history.append(
                    {
                        "role": "tool",
                        "parts": [
                            {"type": "tool_call_response", "id": call_id, "response": result}
                        ],
                    }
                )
        passed = shop.check()
        agent.set_attribute("app.passed", passed)
        run.finish(success=passed, final_answer=final)


def sdk_tracer() -> tuple[Any, Any]:
    """A tracer of the real SDK that keeps finished spans in memory, and its exporter."""
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "support-agent"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider.get_tracer("support-agent"), exporter


def otlp_json(spans: Any) -> str:
    """The finished spans as OTLP JSON, through the OTLP exporter's own protobuf encoder."""
    from google.protobuf.json_format import MessageToJson
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    return MessageToJson(encode_spans(spans))
