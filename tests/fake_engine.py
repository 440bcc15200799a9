"""An engine for the tests of ``--bot exec:``, well-behaved or not.

    python tests/fake_engine.py BEHAVIOUR PIDFILE

It writes its process id (and that of any child it starts) to PIDFILE, one per
line, so that a test can check that nothing of it is left, and its process id
to PIDFILE.asked for each request it reads, so that a test can wait for one;
it plays by the protocol of docs/bots.md, except as BEHAVIOUR says:

good       answers the first legal move at once; leaves at ``quit``
late       answers after three times its budget
silent     reads every request and never answers
deaf       never reads its input
illegal    answers a move that is not legal
garbage    writes a line that is not JSON
notjsonrpc writes JSON that is no JSON-RPC answer
wrongid    answers with another request's id
error      answers with a JSON-RPC error
crash      writes a last word on standard error and exits with status 3
huge       writes 3 MiB without a newline, then waits
flood      writes notifications without end, never an answer
stubborn   plays well, but ignores ``quit``, the end of its input and SIGTERM
spawner    starts a child that sleeps, then plays well and leaves at ``quit``
escaper    starts a child in a session of its own (setsid), then plays as spawner
later      answers its first request well and its second late
chatty     writes log notifications and blank lines before each answer
analyst    answers ``analyse`` too (the others have only ``choose``)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time


def main() -> None:
    behaviour, pidfile = sys.argv[1], sys.argv[2]
    with open(pidfile, "a", encoding="utf-8") as out:
        out.write(f"{os.getpid()}\n")
    if behaviour == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if behaviour in ("spawner", "escaper"):
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(600)"],
            start_new_session=behaviour == "escaper",
        )
        with open(pidfile, "a", encoding="utf-8") as out:
            out.write(f"{child.pid}\n")
    if behaviour == "deaf":
        time.sleep(600)
    asked = 0
    for line in sys.stdin:
        request = json.loads(line)
        with open(f"{pidfile}.asked", "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        if request.get("method") == "quit":
            if behaviour == "stubborn":
                continue
            return
        asked += 1
        answer(behaviour, request, asked)
    if behaviour == "stubborn":
        time.sleep(600)


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(behaviour: str, request: dict[str, object], asked: int) -> None:
    params = request["params"]
    assert isinstance(params, dict)
    if request["method"] == "analyse" and behaviour == "analyst":
        listed = [
            {"move": m, "value": 0.9 - i / 10, "visits": 9 - i}
            for i, m in enumerate(params["moves"][:3])
        ]
        send({"jsonrpc": "2.0", "id": request["id"], "result": {"candidates": listed}})
        return
    if request["method"] != "choose":
        error = {"code": -32601, "message": f"there is no method {request['method']}"}
        send({"jsonrpc": "2.0", "id": request["id"], "error": error})
        return
    good = {"jsonrpc": "2.0", "id": request["id"], "result": {"move": params["moves"][0]}}
    if behaviour == "late" or (behaviour == "later" and asked == 2):
        time.sleep(3 * float(params["seconds"]))
    elif behaviour == "silent":
        return
    elif behaviour == "illegal":
        good["result"] = {"move": "a1-a1,a1"}
    elif behaviour == "garbage":
        sys.stdout.write("thinking... e5 looks good\n")
        sys.stdout.flush()
        return
    elif behaviour == "notjsonrpc":
        send({"move": params["moves"][0]})
        return
    elif behaviour == "wrongid":
        good["id"] = 1000 + int(str(request["id"]))
    elif behaviour == "error":
        good = {"jsonrpc": "2.0", "id": request["id"], "error": {"code": 1, "message": "no idea"}}
    elif behaviour == "crash":
        sys.stderr.write("Traceback: something broke\nValueError: boom\n")
        sys.stderr.flush()
        sys.exit(3)
    elif behaviour == "huge":
        sys.stdout.write("x" * (3 << 20))
        sys.stdout.flush()
        time.sleep(600)
    elif behaviour == "flood":
        while True:
            send({"jsonrpc": "2.0", "method": "log", "params": {"text": "x" * 100}})
    elif behaviour == "chatty":
        send({"jsonrpc": "2.0", "method": "log", "params": {"text": "considering"}})
        sys.stdout.write("\n\n")
    send(good)


if __name__ == "__main__":
    main()
