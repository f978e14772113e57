"""A scripted Sherwood Forest player: ``HeuristicAgent`` (a first version).

It reads only ``env.unwrapped.view(agent)`` and the action mask:

* Preparation: the church whenever it holds 3 bags or more (gold counts only as fame, and
  only sixth-round loot turns into fame by itself); the market in the first two rounds; one
  look at the inn per round; the merchant while it has fewer than two cards; then all its
  outlaws into the free ambush that the known travellers (face up or looked at) would reach
  first with a strength it can beat, forks preferred. With at most two outlaws left it
  first offers a joint ambush to the player with most outlaws in camp (2 outlaws, no card).
* Answers: accepts an offer asking at most half of its camp, promising its weakest cards.
* Attacks: leads the traveller whose first strong-enough ambush on its route is its own
  (or, failing that, one nobody robs); plays the strongest cards when they reach the
  traveller's strength; keeps the loot shares and comrades; stays with provisions; goes
  home under a forest cloak; never uses the messenger's clothes; (additions) names itself
  the informant and keeps an equipment promise while it holds weapons.
"""

from __future__ import annotations

import numpy as np

from ..core.agents import SeededAgent
from . import actions as A
from .components import RED_FORKS, ROUTES, WEAPON_STRENGTH


class HeuristicAgent(SeededAgent):
    name = "heuristic"

    def act(self, env, agent: str) -> int:
        game = env.unwrapped
        return self.choose(game.view(agent), game.action_mask(agent),
                           game.possible_agents.index(agent))

    # --- the decision -----------------------------------------------------------------------
    def choose(self, v: dict, mask: np.ndarray, seat: int) -> int:
        legal = np.flatnonzero(mask)
        kind = v["decision"]["kind"]
        pick = getattr(self, "_" + kind, None)
        action = pick(v, mask, seat) if pick else None
        if action is None or not mask[action]:
            action = int(legal[self.rng.integers(legal.size)])
        return int(action)

    def _prep(self, v, mask, seat):
        me = v["players"][seat]
        gold, camp = me["gold"], me["camp"]
        if gold > 5 or (gold >= 3 and mask[A.CHURCH.start + gold - 1]):
            return A.CHURCH.start + gold - 1
        if v["round"] <= 2 and camp >= 3 and mask[A.MARKET.start]:
            return A.MARKET.start
        peeked = any(s and s.get("peeked") for s in v["slots"])
        hidden = [i for i, s in enumerate(v["slots"]) if s and "card" not in s]
        if not peeked and hidden and camp >= 4:
            return A.INN.start + hidden[0]
        if me["hand_count"] < 2 and camp >= 3 and mask[A.MERCHANT.start]:
            return A.MERCHANT.start
        best = self._best_ambush(v, mask, seat, camp)
        if best is None:
            return None
        others = [(p["camp"], q) for q, p in enumerate(v["players"]) if q != seat and p["camp"] >= 2]
        if camp <= 2 and others and v["decision"]["data"]["offers_made"] == 0:
            joint = A.JOINT.id(best, camp - 1)
            if mask[joint]:
                self._partner = max(others)[1]
                return joint
        return A.AMBUSH.id(best, camp - 1)

    def _best_ambush(self, v, mask, seat, camp):
        free = [a for a in range(len(v["ambushes"])) if mask[A.AMBUSH.id(a, camp - 1)]]
        if not free:
            return None
        strength = camp + sum(sorted(self._weapons(v), reverse=True)[:camp])
        known = [s["card"] for s in v["slots"] if s and "card" in s]
        scores = {}
        for a in free:
            score = 0.3 if a in RED_FORKS else 0.0
            for c in known:
                if c["strength"] > strength:
                    continue
                route = c["route"]
                if a not in route:
                    continue
                first = route.index(a)
                if not any(v["ambushes"][b] and sum(v["ambushes"][b]["outlaws"]) >= c["strength"]
                           for b in route[:first]):
                    score += 2 * c["fame"] + c["gold"] + 2 * c["comrades"]
            scores[a] = score + 0.01 * self.rng.random()
        return max(scores, key=scores.get)

    def _weapons(self, v) -> list[int]:
        return [WEAPON_STRENGTH[k] for k in range(3) for _ in range(v["hand"][k])]

    def _ask(self, v, mask, seat):
        ally = v["decision"]["data"]["ally"]
        want = 2 if ally == getattr(self, "_partner", -1) else 0
        c = min(want, v["players"][ally]["camp"])
        action = A.ASK.id(c, 0)
        return action if mask[action] else None

    def _reveal(self, v, mask, seat):
        return A.REVEAL_NONE.start

    def _target(self, v, mask, seat):
        return A.TARGET_NONE.start

    def _terms(self, v, mask, seat):
        return A.TERMS.id(0, 0, 0)

    def _informant(self, v, mask, seat):
        return A.INFORMANT.start                 # itself

    def _pledge(self, v, mask, seat):
        # (Additions) keep its promise with its strongest cards; renounce with none left.
        for k in (2, 1, 0):
            if v["hand"][k]:
                return A.EQUIP.start + k
        return A.RENOUNCE.start

    def _answer(self, v, mask, seat):
        data = v["decision"]["data"]
        if data["outlaws"] * 2 > v["players"][seat]["camp"]:
            return A.DECLINE.start
        legal = [a for a in range(A.ACCEPT.start, A.ACCEPT.stop) if mask[a]]
        if not legal:
            return A.DECLINE.start
        return min(legal, key=lambda a: sum(w * s for w, s in zip(A.ACCEPT.index(a), WEAPON_STRENGTH)))

    def _lead(self, v, mask, seat):
        best, best_score = None, -1e9
        for s, slot in enumerate(v["slots"]):
            if not slot or not mask[A.LEAD.start + s]:
                continue
            if "card" not in slot:
                score = 0.0
            else:
                c = slot["card"]
                score = -0.5
                for b in ROUTES[(c["origin"], c["destination"])]:
                    e = v["ambushes"][b]
                    if e and sum(e["outlaws"]) >= c["strength"]:
                        score = 2 * c["fame"] + c["gold"] if e["outlaws"][seat] else -1.0
                        break
                else:
                    score = 0.1
            if score > best_score:
                best, best_score = A.LEAD.start + s, score
        return best

    def _equip(self, v, mask, seat):
        data = v["decision"]["data"]
        need = data["strength"] - data["total"]
        e = v["ambushes"][data["ambush"]]
        capacity = e["outlaws"][seat] - sum(e["promised"][seat]) - sum(v["played"][seat])
        weapons = sorted(self._weapons(v), reverse=True)[:max(capacity, 0)]
        if sum(weapons) < need and seat == data["leader"]:
            return A.EQUIP_PASS.start
        for k in (2, 1, 0):
            if v["hand"][k]:
                return A.EQUIP.start + k
        return A.EQUIP_PASS.start

    def _share(self, v, mask, seat):
        return A.SHARE.start

    def _comrade(self, v, mask, seat):
        return A.COMRADE.start

    def _provisions(self, v, mask, seat):
        return A.PROVISIONS.start

    def _cloak(self, v, mask, seat):
        return A.CLOAK.start + 1

    def _messenger(self, v, mask, seat):
        return A.MESSENGER_PASS.start
