import sys, time
from forest_envs import playthrough as P
t=time.time()
for f in P.golden_files("/tmp/gl_out"):
    if f.parent.name not in sys.argv[1:]: continue
    found=[]
    t0=time.time()
    P.replay_text(f.read_text(), on_step=lambda env: found.extend(P.disclosure_problems(env)))
    print(f.name, round(time.time()-t0,2), len(found))
    if found: print("   ", found[0])
print(time.time()-t)
