"""Make a database with today's main (release 0.1.0, commit 8721bf9): several tokens,
matches in every phase, finished hands, a finished match, an abandoned one."""
import json, sys, warnings
from concurrent.futures import ThreadPoolExecutor
warnings.simplefilter("ignore")
from fastapi.testclient import TestClient
from hearts.server.app import create_app

def main() -> None:
    path = sys.argv[1]
    c = TestClient(create_app(f"sqlite:///{path}", seed=7, executor=ThreadPoolExecutor(1)))
    c.__enter__()
    out = {}
    def player(level):
        t = c.post("/api/players").json()["token"]
        h = {"Authorization": f"Bearer {t}"}
        c.put("/api/settings", headers=h, json={"level": level})
        return t, h
    def adv(h, s):
        hand = s["hand"]
        if hand["phase"] == "pass" and hand["passed"] is None:
            r = c.post("/api/pass", headers=h, json={"version": s["version"], "cards": hand["cards"][-3:]})
        elif hand["turn"] == "S":
            r = c.post("/api/play", headers=h, json={"version": s["version"], "card": hand["legal"][0]})
        else:
            r = c.post("/api/step", headers=h, json={"version": s["version"]})
        assert r.status_code == 200, r.text
        return r.json()
    def hand(h, s):
        while s["hand"]["phase"] != "done":
            s = adv(h, s)
        return s
    # 1: in the pass phase of its first hand
    t, h = player("easy"); s = c.get("/api/state", headers=h).json(); out["pass"] = (t, s)
    # 2: mid-play of hand 1 (trick 5)
    t, h = player("medium"); s = c.get("/api/state", headers=h).json()
    while len(s["hand"]["tricks"]) < 5: s = adv(h, s)
    out["midplay"] = (t, s)
    # 3: two hands done, third dealt and mid-play
    t, h = player("easy"); s = c.get("/api/state", headers=h).json()
    for _ in range(2):
        s = hand(h, s); s = c.post("/api/next-hand", headers=h, json={"version": s["version"]}).json()
    while len(s["hand"]["tricks"]) < 2: s = adv(h, s)
    out["hand3"] = (t, s)
    # 4: a whole match played to the end, then left on the table
    t, h = player("easy"); s = c.get("/api/state", headers=h).json()
    while True:
        s = hand(h, s)
        if s["match"]["over"]: break
        s = c.post("/api/next-hand", headers=h, json={"version": s["version"]}).json()
    out["over"] = (t, s)
    # 5: a match abandoned for a new one, the new one at the end of hand 1 (done)
    t, h = player("hard"); s = c.get("/api/state", headers=h).json()
    s = adv(h, s)
    s = c.post("/api/new-match", headers=h, json={"version": s["version"]}).json()
    c.put("/api/settings", headers=h, json={"level": "easy", "quick": True})
    s = c.get("/api/state", headers=h).json()
    s = hand(h, s)
    out["abandoned_then_done"] = (t, s)
    # 6: a token made but never used
    t = c.post("/api/players").json()["token"]; out["unused"] = (t, None)
    stats = {}
    for k, (t, s) in out.items():
        if s is not None:
            stats[k] = c.get("/api/stats", headers={"Authorization": f"Bearer {t}"}).json()
    c.__exit__(None, None, None)
    json.dump({"made_by": "hearts 0.1.0 at commit 8721bf9 (tests/data/make_release_db.py of that commit)",
               "players": {k: {"token": t, "state": s, "stats": stats.get(k)} for k, (t, s) in out.items()}},
              open(sys.argv[2], "w"), ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
