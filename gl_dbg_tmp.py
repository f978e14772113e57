import numpy as np
from forest_envs import playthrough as P
import sys
target = sys.argv[1]; stepno = int(sys.argv[2]); seat = int(sys.argv[3])
from pathlib import Path
text = Path(target).read_text()
def hook(env):
    if env.num_steps != stepno: return
    st = env.engine_state
    lay = env.game.layout
    legal = st.legal_actions()
    outs = {}
    for a in legal:
        n = st.clone(); n.apply(a)
        outs[a] = (n.observation(seat), n)
    names = {a: env.action_to_string(a) for a in legal}
    print("decision", st.decision_view())
    keys = list(outs)
    for i,a in enumerate(keys):
        for b in keys[i+1:]:
            if np.array_equal(outs[a][0], outs[b][0]) and env.describe_action(a, f"player_{seat}") != env.describe_action(b, f"player_{seat}"):
                print("SAME OBS:", names[a], "|", names[b], "next decision", outs[a][1].decision_view(), outs[b][1].decision_view())
                ga = outs[a][1].global_state(); gb = outs[b][1].global_state()
                diff = np.flatnonzero(ga != gb)
                for name, blk in lay.blocks.items():
                    idx = [d for d in diff if blk.offset <= d < blk.offset + blk.size]
                    if idx: print("   state block differs:", name, getattr(blk,'see',None), [(d-blk.offset, ga[d], gb[d]) for d in idx][:6])
                return
P.replay_text(text, on_step=hook)
