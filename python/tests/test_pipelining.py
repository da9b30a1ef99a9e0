"""How the plugin tells a caller that enqueues calls ahead from one that waits for each (in a fresh
Python process, from the plugin's debug log): a GPU run polls briefly for its work only when its
caller is expected to wait at once (it waited for or read the previous call's results)."""

import re

from test_discovery import run

CODE = """
import sys, jax, jax.numpy as jnp, numpy as np
f = jax.jit(lambda x: jnp.sin(x) * 2)
x = jnp.ones((1000,))
def mark(m): print("=== " + m, file=sys.stderr, flush=True)
mark("first"); f(x).block_until_ready()
mark("ahead")
for _ in range(3): r = f(x)
r.block_until_ready()
mark("waited")
for _ in range(2): f(x).block_until_ready()
mark("ahead2")
for _ in range(2): r = f(x)
np.asarray(r)
mark("read")
for _ in range(2): np.asarray(f(x))
mark("end")
"""


def test_executions_say_whether_their_caller_waits():
    rc, out, err = run(CODE, JAX_PLATFORMS="oxhlo", OXHLO_LOG="debug")
    assert rc == 0, err[-3000:]
    phases = {}
    phase = None
    for line in err.splitlines():
        m = re.match(r"=== (\w+)", line)
        if m:
            phase = m.group(1)
        m = re.search(r"execute jit__lambda on devices .*caller_waits: (true|false)", line)
        if m and phase:
            phases.setdefault(phase, []).append(m.group(1) == "true")
    # The first call has no history; a call after one whose results were neither waited for nor read
    # is enqueued ahead; after a wait (block_until_ready: the buffer's ready event) or a read (a copy
    # to the host) the caller waits.
    assert phases.get("first") == [True], phases
    assert phases.get("ahead") == [True, False, False], phases
    assert phases.get("waited") == [True, True], phases
    assert phases.get("ahead2") == [True, False], phases
    assert phases.get("read") == [True, True], phases
