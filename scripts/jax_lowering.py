"""Shared by the test-data generators (`crates/*/tests/*/generate.py`): writes JAX's StableHLO lowering
of each case as `<name>.mlir`, its location annotations stripped, headed by the JAX version and a note."""
import re
import jax


def write_lowerings(out_dir, cases):
    """`cases`: (name, function, arguments (arrays or jax.ShapeDtypeStruct), note) tuples."""
    for name, f, args, note in cases:
        text = jax.jit(f).lower(*args).as_text()
        text = '\n'.join(l for l in text.splitlines() if not l.lstrip().startswith('#loc'))
        text = re.sub(r' loc\(#loc\d*\)', '', text)
        with open(f'{out_dir}/{name}.mlir', 'w') as fh:
            fh.write(f'// JAX {jax.__version__}: {note}\n' + text + '\n')
