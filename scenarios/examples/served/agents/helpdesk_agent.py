"""A helpdesk agent as a team writes it in Python: the official `openai` package for the model,
its own HTTP tool on the standard library (urllib), its own retries. faultline starts it as a
`command` agent and gives it, in its environment, where everything is:

- OPENAI_BASE_URL, OPENAI_API_KEY: the model API (faultline's scripted stand-in), read by `OpenAI()`;
- FAULTLINE_HELPDESK_URL: the helpdesk service, in its own REST shape (`POST /tickets`);
- FAULTLINE_TASK: the task; FAULTLINE_RESULT: the file to write the outcome and claims to.

Two planted defects, each a flag: `--no-idempotency-key` (a resend opens a second ticket) and
`--ignore-retry-after` (it resends after a fixed 100 ms, whatever the 429 said). With `--stream`
it asks the model with `stream=True` and puts each reply together from its deltas, asking again
when a stream breaks off.
"""
import http.client
import json
import os
import sys
import time
import urllib.error
import urllib.request

from openai import APIConnectionError, OpenAI

NO_KEY = "--no-idempotency-key" in sys.argv
IGNORE_RETRY_AFTER = "--ignore-retry-after" in sys.argv
STREAM = "--stream" in sys.argv
HELPDESK = os.environ["FAULTLINE_HELPDESK_URL"]

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "open_ticket",
            "description": "Open a support ticket. requestId is your business id for it.",
            "parameters": {
                "type": "object",
                "properties": {"requestId": {"type": "string"}, "subject": {"type": "string"}},
                "required": ["requestId", "subject"],
            },
        },
    }
]


def open_ticket(args):
    """POST /tickets with one Idempotency-Key per ticket, resent on 429, 5xx and lost answers."""
    headers = {"content-type": "application/json"}
    if not NO_KEY:
        headers["idempotency-key"] = "ticket-" + args["requestId"]
    for attempt in range(3):
        request = urllib.request.Request(HELPDESK + "/tickets", data=json.dumps(args).encode(), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                return response.read().decode()
        except urllib.error.HTTPError as error:
            body = error.read().decode()
            if error.code != 429 and error.code < 500:
                return body
            hinted = error.headers.get("retry-after")
            time.sleep(0.1 if IGNORE_RETRY_AFTER or hinted is None else float(hinted))
        except (urllib.error.URLError, http.client.HTTPException, OSError):
            # The connection dropped or the answer never came: the ticket may exist; the key makes the resend safe.
            time.sleep(0.1)
    return json.dumps({"error": "gave up after 3 tries"})


def final_of(text):
    """The model's last word: faultline's stand-in answers with {"outcome", "message", "claims"}."""
    try:
        value = json.loads(text or "")
    except ValueError:
        value = None
    if isinstance(value, dict) and value.get("outcome") in ("completed", "failed", "handoff", "unknown"):
        return {"outcome": value["outcome"], "message": value.get("message") or "", "claims": value.get("claims") or []}
    return {"outcome": "completed", "message": text or ""}


def whole_turn(client, messages):
    """One model turn, as the assistant message to keep: its text and its tool calls."""
    reply = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    return reply.choices[0].message.model_dump(exclude_none=True)


def streamed_turn(client, messages):
    """One model turn with stream=True, put together from its deltas. A stream that breaks off
    (the SDK raises from its iterator) or ends with no finish_reason is no answer: asked again."""
    for _try in range(3):
        text, calls, finished = "", {}, None
        try:
            with client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS, stream=True) as stream:
                for chunk in stream:
                    if not chunk.choices:
                        continue
                    choice = chunk.choices[0]
                    text += choice.delta.content or ""
                    for part in choice.delta.tool_calls or []:
                        call = calls.setdefault(part.index, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
                        call["id"] = part.id or call["id"]
                        if part.function is not None:
                            call["function"]["name"] += part.function.name or ""
                            call["function"]["arguments"] += part.function.arguments or ""
                    finished = choice.finish_reason or finished
        except (APIConnectionError, ValueError) as error:  # a dropped connection; an event that is not JSON
            print(f"the stream broke off: {type(error).__name__}: {error}", file=sys.stderr)
            continue
        if finished is None:
            continue
        message = {"role": "assistant", "content": text or None}
        if calls:
            message["tool_calls"] = [calls[i] for i in sorted(calls)]
        return message
    raise RuntimeError("the model's stream broke off three times")


def main():
    client = OpenAI()
    messages = [{"role": "user", "content": os.environ["FAULTLINE_TASK"]}]
    result = {"outcome": "failed", "message": "ran out of turns"}
    for _turn in range(6):
        message = streamed_turn(client, messages) if STREAM else whole_turn(client, messages)
        messages.append(message)
        if not message.get("tool_calls"):
            result = final_of(message.get("content"))
            break
        for call in message["tool_calls"]:
            content = open_ticket(json.loads(call["function"]["arguments"]))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
    with open(os.environ["FAULTLINE_RESULT"], "w") as out:
        out.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
