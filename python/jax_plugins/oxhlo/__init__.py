"""JAX plugin for oxhlo: registers oxhlo's PJRT plugin (liboxhlo_pjrt.so) as the JAX platform "oxhlo".

JAX imports this module at startup (it is in the `jax_plugins` namespace package and advertised as a
`jax_plugins` entry point) and calls `initialize()`. Select the platform with `JAX_PLATFORMS=oxhlo`
(or `oxhlo,cpu`); without JAX_PLATFORMS, oxhlo's priority makes it the default backend.

Environment:
  OXHLO_PLUGIN_PATH    use this liboxhlo_pjrt.so (or a directory holding one) instead of the bundled one
  OXHLO_PRIORITY       backend priority (default 400; JAX's CPU backend has 0)
  OXHLO_NUM_DEVICES    number of oxhlo devices (default 1)
  OXHLO_LOG            "debug" logs every PJRT call on stderr, "info" compiles, runs and errors
"""

import logging
import os
from pathlib import Path

__all__ = ["initialize", "library_path", "PLATFORM", "__version__"]
__version__ = "0.1.0"

PLATFORM = "oxhlo"
_LIB = "liboxhlo_pjrt.so"
_DEFAULT_PRIORITY = 400

logger = logging.getLogger(__name__)


def library_path() -> str:
    """The plugin library to load: OXHLO_PLUGIN_PATH if set, else the one bundled in this package."""
    override = os.environ.get("OXHLO_PLUGIN_PATH")
    if override:
        p = Path(override).expanduser()
        if p.is_dir():
            p = p / _LIB
        if not p.is_file():
            raise FileNotFoundError(f"OXHLO_PLUGIN_PATH={override!r}: no plugin library at {p}")
        return str(p.resolve())
    p = Path(__file__).resolve().parent / _LIB
    if not p.is_file():
        raise FileNotFoundError(
            f"the oxhlo plugin library is missing ({p}); reinstall with `pip install ./python` "
            "or point OXHLO_PLUGIN_PATH at a built liboxhlo_pjrt.so")
    return str(p)


def _priority() -> int:
    v = os.environ.get("OXHLO_PRIORITY", "")
    try:
        return int(v) if v.strip() else _DEFAULT_PRIORITY
    except ValueError:
        logger.warning("OXHLO_PRIORITY=%r is not an integer; using %d", v, _DEFAULT_PRIORITY)
        return _DEFAULT_PRIORITY


def _enable_donation() -> None:
    """Lets JAX donate buffers to oxhlo programs (oxhlo deletes donated inputs, as XLA does)."""
    try:
        from jax._src.interpreters import mlir

        platforms = getattr(mlir, "_platforms_with_donation", None)
        if isinstance(platforms, list) and PLATFORM not in platforms:
            platforms.append(PLATFORM)
    except Exception:  # noqa: BLE001 - a JAX without this hook simply does not donate
        logger.debug("oxhlo: could not enable buffer donation", exc_info=True)


def initialize() -> None:
    """Registers the oxhlo PJRT plugin with JAX (called by JAX's plugin discovery)."""
    from jax._src import xla_bridge

    try:
        path = library_path()
    except FileNotFoundError as e:
        logger.warning("oxhlo: not registering the JAX plugin: %s", e)
        return
    _enable_donation()
    xla_bridge.register_plugin(PLATFORM, priority=_priority(), library_path=path, options=None)
    from . import callbacks, lowerings

    lowerings.register(PLATFORM)
    try:
        callbacks.register()
    except Exception:  # noqa: BLE001 - a JAX whose internals moved: callbacks stay unavailable
        logger.warning("oxhlo: could not enable Python callbacks", exc_info=True)
