"""Draws the pictures of docs/images/ (README and each game's docs page): each game's default
table, seed 0, after its heuristic agents played a fixed number of moves, as seat 0 sees it.

    python tools/doc_images.py            # rewrites docs/images/<game>.png
    python tools/doc_images.py --out DIR  # somewhere else, to compare
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (env id, image name, heuristic moves played before the picture): a position in mid-game
# with something on every part of the table.
PICTURES = (("chickwood_v0", "chickwood", 40), ("roundforest_v0", "roundforest", 60),
            ("sherwood_v0", "sherwood", 30))


def draw(env_id: str, moves: int):
    from PIL import Image

    import forest_envs
    from forest_envs.agents import make_agent

    env = forest_envs.make_raw(env_id)
    env.reset(seed=0)
    agents = {a: make_agent(env_id, "heuristic", seed=i) for i, a in enumerate(env.possible_agents)}
    for _ in range(moves):
        agent = env.agent_selection
        env.step(agents[agent].act(env, agent))
    return Image.fromarray(env.render_image(env.possible_agents[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join("docs", "images"), help="folder (docs/images)")
    args = parser.parse_args()
    for env_id, name, moves in PICTURES:
        path = os.path.join(args.out, f"{name}.png")
        draw(env_id, moves).save(path, optimize=True)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
