# kernplug-gdb.py — gdb helpers for kernels running on kernplug's CPU backend.
#
#   (gdb) source <prefix>/share/kernplug/kernplug-gdb.py
#   (gdb) kp                          the kernel, block and thread of the selected frame
#   (gdb) break k.c:12 if $kp_block_idx(0) == 2 && $kp_thread_idx(0) == 7
#
# Where the indices live (docs/debugging.md): a kernel run by its block entry (<k>.kp.cpu_block,
# a loop over the block's threads) keeps them in that frame's artificial variable `kp_thread`;
# a kernel run as fibers or by its per-thread entry finds them in the runtime's thread-local
# `kp_cpu_state`, which the fiber scheduler updates at every switch.
import gdb

_DIMS = "xyz"


def _indices(frame):
    """(kernel, threadIdx, blockIdx, blockDim, gridDim) for frame, or None outside kernels."""
    block_loop = False
    f = frame
    while f is not None:
        name = f.name() or ""
        if name.endswith(".kp.cpu_block"):
            block_loop = True
            try:
                v = f.read_var("kp_thread")
                pick = lambda field: tuple(int(v[field][d]) for d in range(3))
                return (name[: -len(".kp.cpu_block")], pick("threadIdx"), pick("blockIdx"),
                        pick("blockDim"), pick("gridDim"))
            except (gdb.error, ValueError):
                break  # optimised out: the block indices are in the state, the thread's not
        f = f.older()
    try:
        s = gdb.parse_and_eval("kp_cpu_state")
        if int(s["kernel"]) == 0:
            return None
        pick = lambda field: tuple(int(s[field][d]) for d in range(3))
        kernel = s["kernel"]["name"].string()
        # A block loop's thread index lives in its loop (kp_thread), never in the state.
        tid = None if block_loop else pick("tid")
        return (kernel, tid, pick("ctaid"), pick("ntid"), pick("nctaid"))
    except gdb.error:
        return None


def _current():
    try:
        frame = gdb.selected_frame()
    except gdb.error:
        raise gdb.GdbError("kp: the program is not running")
    found = _indices(frame)
    if found is None:
        raise gdb.GdbError("kp: the selected thread is not running a kernel")
    return found


class KpCommand(gdb.Command):
    """Print the kernel, block and thread the selected frame runs (kernplug CPU backend)."""

    def __init__(self):
        super().__init__("kp", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        kernel, tid, ctaid, ntid, nctaid = _current()
        fmt = lambda t: "(%d, %d, %d)" % t if t is not None else "(optimised out: -O0 keeps it)"
        print("kernel %s: block %s of %s, thread %s of %s"
              % (kernel, fmt(ctaid), fmt(nctaid), fmt(tid), fmt(ntid)))


class _IndexFunction(gdb.Function):
    def __init__(self, name, position, doc):
        super().__init__(name)
        self.position = position
        self.__doc__ = doc

    def invoke(self, dim=0):
        d = int(dim)
        if d not in (0, 1, 2):
            raise gdb.GdbError("$%s: the dimension is 0 (x), 1 (y) or 2 (z)" % self.name)
        found = _indices(gdb.selected_frame())
        if found is None or found[self.position] is None:
            return -1  # outside kernels or optimised out: matches no index
        return found[self.position][d]


for _name, _pos, _doc in (("kp_thread_idx", 1, "threadIdx of the current GPU thread"),
                          ("kp_block_idx", 2, "blockIdx of the current GPU thread"),
                          ("kp_block_dim", 3, "blockDim of the running kernel"),
                          ("kp_grid_dim", 4, "gridDim of the running kernel")):
    _IndexFunction(_name, _pos, "$%s(dim): %s (dim 0, 1, 2 = x, y, z)." % (_name, _doc))
KpCommand()
