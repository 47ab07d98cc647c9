"""An agent on Python's standard library that keeps its operation record (R22) in SQLite.

Each order is written `pending` (and committed) before it is sent, and `done` once its answer
came. The database lives in the trial's working folder (FAULTLINE_WORKDIR), which survives a
crash; after a restart (FAULTLINE_RESTART=1) a pending order is reconciled through a status
query (find_order_by_reference, R21) before anything is sent again.
"""
import json
import os
import sqlite3
import urllib.request

ORDERS = [
    {"clientReference": "po-1", "item": "printer", "quantity": 1, "amountCents": 12900},
    {"clientReference": "po-2", "item": "toner", "quantity": 2, "amountCents": 4800},
]


def call(tool, payload):
    request = urllib.request.Request(
        f"{os.environ['FAULTLINE_ORDERS_URL']}/tools/{tool}",
        data=json.dumps(payload).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def main():
    db = sqlite3.connect(os.path.join(os.environ["FAULTLINE_WORKDIR"], "operations.db"))
    db.execute("create table if not exists operations (ref text primary key, status text, order_id text)")
    for order in ORDERS:
        ref = order["clientReference"]
        row = db.execute("select status from operations where ref = ?", (ref,)).fetchone()
        if row and row[0] == "pending":
            found = call("find_order_by_reference", {"clientReference": ref})
            if found:
                with db:
                    db.execute("update operations set status = 'done', order_id = ? where ref = ?", (found[0]["orderId"], ref))
                row = ("done",)
        if row and row[0] == "done":
            continue
        with db:
            db.execute("insert or replace into operations values (?, 'pending', null)", (ref,))
        created = call("create_order", order)
        with db:
            db.execute("update operations set status = 'done', order_id = ? where ref = ?", (created["orderId"], ref))
    restarts = os.environ.get("FAULTLINE_RESTART_COUNT")
    message = f"placed {len(ORDERS)} orders" + (f" after {restarts} restart(s)" if restarts else "")
    claims = [{"subject": f"orders:{o['clientReference']}", "status": "succeeded"} for o in ORDERS]
    with open(os.environ["FAULTLINE_RESULT"], "w") as result:
        json.dump({"outcome": "completed", "message": message, "claims": claims}, result)


main()
