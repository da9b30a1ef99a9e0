"""SASS of a program's row kernel, compiled here (no GPU): the row kernel `dump_rows` prints for a program,
compiled by NVRTC for sm_90 to CUBIN and disassembled by cuobjdump (PyPI's nvidia-cuda-cuobjdump and
nvidia-cuda-nvdisasm wheels: `pip download --no-deps nvidia-cuda-cuobjdump==13.2.51
nvidia-cuda-nvdisasm==13.2.51`, unzip, and put their bin/ on PATH). Prints the instruction count, the
count of each opcode and the registers, shared, stack and local memory a thread; `--sass FILE` keeps the listing. The kernel is the one `OXHLO_CUDA_ROW_*` settings in
the environment render.

Usage: python3 scripts/row_sass.py prog.mlir [--sass out.sass]
(run `cargo build --release -p oxhlo-cuda --example dump_rows` first; NVRTC from
scripts/requirements-test.txt's nvidia wheels.)
"""
import collections, ctypes, glob, os, re, subprocess, sys, tempfile
import nvidia

lib = os.path.join(list(nvidia.__path__)[0], "cu13", "lib")
here = os.path.dirname(os.path.abspath(__file__))
dump = os.path.join(here, "..", "target", "release", "examples", "dump_rows")
env = dict(os.environ, SRC="1", LD_LIBRARY_PATH=lib + ":" + os.environ.get("LD_LIBRARY_PATH", ""))
out = subprocess.run([dump, sys.argv[1]], env=env, capture_output=True, text=True, check=True).stdout
start = out.find("__device__ __forceinline__ float oxh_f16_to_f")
src = "\n".join(l for l in out[start:].splitlines() if not l.startswith("// op")).encode()
# NVRTC opens its builtins library by name: loaded first, from the wheel, it is found.
ctypes.CDLL(sorted(glob.glob(os.path.join(lib, "libnvrtc-builtins.so.*")))[-1], mode=ctypes.RTLD_GLOBAL)
nvrtc = ctypes.CDLL(os.path.join(lib, "libnvrtc.so.13"))
prog = ctypes.c_void_p()
assert nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, b"row.cu", 0, None, None) == 0
opts = [b"--gpu-architecture=sm_90", b"-default-device"]
if nvrtc.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts)) != 0:
    n = ctypes.c_size_t(); nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value); nvrtc.nvrtcGetProgramLog(prog, log)
    sys.exit(log.value.decode())
n = ctypes.c_size_t(); nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(n))
cubin = ctypes.create_string_buffer(n.value); nvrtc.nvrtcGetCUBIN(prog, cubin)
with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
    f.write(cubin.raw); f.flush()
    sass = subprocess.run(["cuobjdump", "-sass", f.name], capture_output=True, text=True, check=True).stdout
    usage = subprocess.run(["cuobjdump", "-res-usage", f.name], capture_output=True, text=True, check=True).stdout
ops = re.findall(r"^\s+/\*[0-9a-f]{4}\*/\s+(?:@!?U?P[0-9T]\s+)?([A-Z0-9]+)", sass, re.M)
print(f"{len(ops)} instructions")
print("  ".join(f"{op} {c}" for op, c in collections.Counter(ops).most_common()))
print(" ".join(re.findall(r"REG:\d+|SHARED:\d+|STACK:\d+|LOCAL:\d+", usage)))
if "--sass" in sys.argv:
    open(sys.argv[sys.argv.index("--sass") + 1], "w").write(sass)
