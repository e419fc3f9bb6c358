#!/usr/bin/env python3
"""gen_kernel.py -- random kernplug kernels as a self-checking C program (differential fuzzing).

    gen_kernel.py --seed 42 [--kernels 6] [--exclude warp,atomics,...] -o prog.c

The program holds each generated kernel body once and compiles it twice through
`#include __FILE__`: pass 1 as kernplug kernels (run by the runtime: CPU backend or GPU),
pass 2 as plain host functions with the device API redefined by fuzz_ref.h, a serial model
of the grid (blocks one after another, the threads of a block as coroutines that switch at
barriers and warp functions). main() launches each kernel, runs its reference on copies of
the same inputs and compares every output buffer byte for byte; it prints the first
difference and exits 1 on a mismatch (3 when the reference itself finds a generator bug).
`prog <k>` runs kernel k only. Compiled with -DFZ_REF_ONLY (plain clang, no plugin) it runs
the references alone, twice, which is how run_fuzz.sh --ubsan checks the generator for UB.

What the kernels are made of, all UB-free by construction (docs/internals.md, "Fuzzing"):
arithmetic over int8..uint64, float and double (signed +,-,* and shifts computed in unsigned
types, guarded / and %, guarded float->int conversions, NaN canonicalised on output);
if/else, switch, for/while/do loops with break/continue, thread-dependent branches and
early returns where legal; local arrays; helper device functions; static and dynamic shared
memory and a per-block global scratch area, used under per-phase access modes that make them
race-free (own slots / read anything / one atomic op); syncthreads() and
syncthreads_count/and/or in uniform control flow (uniform loops and ifs, `while
(syncthreads_or(p))` loops, device functions with barriers); warp shuffles, ballot/all/any
and syncwarp on full warps, also under branches the same across each warp (warpif); atomics on global accumulators, shared memory (only
order-independent combinations) and per-thread slots (return values used); grid-stride
loops; 1D/2D/3D grids and blocks; a struct passed by value.

Deterministic per seed (and option set): Python's random.Random(seed) only.
"""
import argparse
import os
import random
import sys

TYPES = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f32', 'f64']
CTYPE = dict(i8='int8_t', u8='uint8_t', i16='int16_t', u16='uint16_t', i32='int32_t',
             u32='uint32_t', i64='int64_t', u64='uint64_t', f32='float', f64='double')
BITS = dict(i8=8, u8=8, i16=16, u16=16, i32=32, u32=32, i64=64, u64=64, f32=32, f64=64)
ATOMIC_TYPES = ['i32', 'u32', 'i64', 'u64', 'f32', 'f64']
NIN = 1024      # elements of each input pool (a power of two: indices are masked)
NACC = 8        # elements of each global accumulator
PRIV = 2        # per-thread private atomic slots
FULL = '0xffffffffu'

FEATURES = ['barriers', 'counts', 'warp', 'atomics', 'shared', 'dynshared', 'gscratch',
            'gridstride', 'helpers', 'synchelpers', 'voteloops', 'localarrays', 'struct',
            'returns', 'floats', 'switch', 'fences', 'warpif']


def isf(t):
    return t[0] == 'f'


def iss(t):
    return t[0] == 'i'


def wrapty(t):
    return 'uint64_t' if BITS[t] == 64 else 'uint32_t'


class Var:
    def __init__(self, name, ty, uniform, writable=True):
        self.name, self.ty, self.uniform, self.writable = name, ty, uniform, writable


class Arr:
    """A shared array, a dynamic shared array or the global scratch area: m slots per thread."""

    def __init__(self, name, ty, m, kind, op=None, limit=None, exact=False):
        self.name, self.ty, self.m, self.kind = name, ty, m, kind
        self.op, self.limit, self.exact = op, limit, exact

    def base(self):  # index of this block's area
        return '(size_t)blin * %d + ' % (self.size_per_block) if self.kind == 'gscr' else ''


class Ctx:
    """Where a statement is generated."""

    def __init__(self, uniform=True, sync=False, loop=False, ret=False, ret_thread=False,
                 uloop=None):
        self.uniform = uniform  # control flow here is the same for the whole block
        self.sync = sync        # barriers / warp functions may go here
        self.loop = loop        # inside a thread-level loop: break/continue allowed
        self.ret = ret          # a return is allowed (block-uniform ones only, unless:)
        self.ret_thread = ret_thread  # a thread-dependent return is allowed
        self.uloop = uloop      # modes at the head of the enclosing uniform loop

    def but(self, **kw):
        c = Ctx(self.uniform, self.sync, self.loop, self.ret, self.ret_thread, self.uloop)
        for k, v in kw.items():
            setattr(c, k, v)
        return c


def flit(r, t):
    """A float/double literal (possibly special)."""
    k = r.random()
    if k < 0.06:
        s = r.choice(['INFINITY', '-INFINITY', 'NAN', '-0.0', '0.0'])
    elif k < 0.4:
        s = '%d.0' % r.randint(-20, 20)
    elif k < 0.5:
        s = float.hex(r.choice([1e-40, 3e-310, 1e30, 1e300, -2.5e-39]))
    else:
        s = float.hex(r.uniform(-1000, 1000))
    return '((%s)%s)' % (CTYPE[t], s)


def ilit(r, t):
    bits = BITS[t]
    k = r.random()
    if k < 0.4:
        v = r.randint(-8, 40) & ((1 << bits) - 1)
    elif k < 0.6:
        v = r.choice([0, 1, (1 << bits) - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1,
                      (1 << (bits - 1)) + 1])
    else:
        v = r.getrandbits(bits)
    return '((%s)0x%x%s)' % (CTYPE[t], v, 'ull' if bits == 64 else 'u')


def conv(e, s, t):
    """Converts expression text e of type s to type t without UB."""
    if s == t:
        return e
    if isf(s) and not isf(t):
        return 'fz_f2%s(%s)' % (t, e)
    return '((%s)(%s))' % (CTYPE[t], e)


class Gen:
    def __init__(self, seed, nkernels, exclude, no_ptx_hint=False):
        self.seed = seed
        self.r = random.Random(seed)
        self.nkernels = nkernels
        self.exclude = set(exclude)
        self.helpers = []       # (name, ret, [(type)...], text)
        self.helper_text = []
        self.kernel_text = []
        self.host_text = []
        self.names = []         # names defined in the FZ_PASS section (renamed for pass 2)
        self.in_types = set()   # input pools used
        self.configs = []       # per kernel: the two (grid, block) launches
        self.struct_fields = []
        # Expressions of indices, arguments and constants only: no loads (inputs, shared
        # memory, the struct argument) and no helper calls. The code before a grid-stride
        # loop is generated so, which lets the CPU backend interchange the loop
        # (kernplug-grid-stride-interchange) and the fuzzer compare that path too.
        self.noload = False

    def on(self, f):
        return f not in self.exclude

    # ---------------------------------------------------------------- expressions
    def leaf(self, t, uni):
        r = self.r
        k = r.random()
        if k < 0.2:
            return flit(r, t) if isf(t) else ilit(r, t)
        if k < 0.55:
            vs = [v for v in self.visible() if (v.uniform or not uni)]
            if vs:
                v = r.choice(vs)
                return conv(v.name, v.ty, t)
        if k < 0.7:
            idx = self.index_leaf(uni)
            return conv(idx, 'u32', t)
        if k < 0.8 and self.kind == 'kernel' and self.on('struct') and self.struct_fields \
                and not self.noload:
            n, ft = r.choice(self.struct_fields)
            self.uses_struct = True
            return conv('sp.' + n, ft, t)
        if k < 0.88 and self.kind == 'kernel':
            self.uses_scalars = True
            n, ft = r.choice([('ua', 'i32'), ('ub', 'u32'), ('uf', 'f32'), ('ud', 'f64')])
            return conv(n, ft, t)
        if (self.kind == 'kernel' or self.kind == 'sfn') and not (uni and self.profile.get('strict')) \
                and not self.noload:
            return self.input_load(t, uni, 1)
        return flit(r, t) if isf(t) else ilit(r, t)

    def index_leaf(self, uni):
        r = self.r
        u = ['blockIdx.x', 'blockIdx.y', 'blockIdx.z', 'blockDim.x', 'blockDim.y', 'gridDim.x',
             'gridDim.y', 'gridDim.z', '(unsigned)gridsize(1)', '(unsigned)gridsize(3).z',
             '(unsigned)nthr', '(unsigned)blin']
        th = ['threadIdx.x', 'threadIdx.y', 'threadIdx.z', '(unsigned)tl', '(unsigned)gtid',
              '(unsigned)laneid()', '(unsigned)grid(1)', '(unsigned)grid(2).y',
              '(unsigned)grid(3).z']
        if self.kind == 'helper':
            return r.choice(u[:9])
        if uni or r.random() < 0.3:
            return r.choice(u)
        return r.choice(th)

    def input_load(self, t, uni, d):
        if self.kind == 'sfn':
            return flit(self.r, t) if isf(t) else ilit(self.r, t)
        self.in_types.add(t)
        self.kin.add(t)
        idx = self.expr(self.r.choice(['i32', 'u32', 'u16']), d - 1, uni)
        return 'in_%s[(unsigned)(%s) & %du]' % (t, idx, NIN - 1)

    def visible(self):
        out = []
        for sc in self.scopes:
            out.extend(sc)
        return out

    def expr(self, t, d, uni=False):
        r = self.r
        if d <= 0 or r.random() < 0.25:
            return self.leaf(t, uni)
        k = r.random()
        if k < 0.45:
            return self.binop(t, d, uni)
        if k < 0.55:
            return self.unop(t, d, uni)
        if k < 0.68:
            s = r.choice(TYPES if self.on('floats') else [x for x in TYPES if not isf(x)])
            return conv(self.expr(s, d - 1, uni), s, t)
        if k < 0.76:
            c = self.cond(d - 1, uni)
            return '((%s) ? (%s) : (%s))' % (c, self.expr(t, d - 1, uni), self.expr(t, d - 1, uni))
        strict = uni and self.profile.get('strict')
        if k < 0.84 and self.helpers and self.on('helpers') and self.kind != 'helper' \
                and not strict and not self.noload:
            name, ret, args, _ = r.choice(self.helpers)
            a = ', '.join(self.expr(at, d - 1, uni) for at in args)
            return conv('%s(%s)' % (name, a), ret, t)
        if k < 0.92 and not uni and not self.noload:
            m = self.mem_read(t, d)
            if m:
                return m
        if self.kind in ('kernel', 'sfn') and r.random() < 0.5 and not strict \
                and not self.noload:
            return self.input_load(t, uni, d)
        return self.leaf(t, uni)

    def cond(self, d, uni):
        r = self.r
        s = r.choice(TYPES if self.on('floats') else [x for x in TYPES if not isf(x)])
        a, b = self.expr(s, d, uni), self.expr(s, d, uni)
        k = r.random()
        if k < 0.7:
            return '(%s) %s (%s)' % (a, r.choice(['<', '<=', '>', '>=', '==', '!=']), b)
        if k < 0.85:
            return '(%s) && (%s)' % (self.cond(d - 1, uni) if d > 0 else a, b)
        return '!(%s)' % a

    def binop(self, t, d, uni):
        r = self.r
        a, b = self.expr(t, d - 1, uni), self.expr(t, d - 1, uni)
        c = CTYPE[t]
        if isf(t):
            k = r.random()
            fs = 'f' if t == 'f32' else ''
            if k < 0.7:
                return '(%s %s %s)' % (a, r.choice('+-*/'), b)
            if k < 0.85:
                return '%s(%s, %s)' % (r.choice(['fmin', 'fmax']) + fs, a, b)
            if k < 0.95:
                return 'fma%s(%s, %s, %s)' % (fs, a, b, self.expr(t, d - 1, uni))
            return '((%s) < (%s) ? (%s) : (%s))' % (a, b, a, b)
        w = wrapty(t)
        op = r.choice(['+', '-', '*', '&', '|', '^', '<<', '>>', '/', '%', 'cmp', '+', '*', '^'])
        if op in '+-*':
            return '((%s)((%s)(%s) %s (%s)(%s)))' % (c, w, a, op, w, b)
        if op in ('&', '|', '^'):
            return '((%s)((%s) %s (%s)))' % (c, a, op, b)
        if op == '<<':
            return '((%s)((%s)(%s) << ((unsigned)(%s) & %du)))' % (c, w, a, b, BITS[t] - 1)
        if op == '>>':
            return '((%s)((%s) >> ((unsigned)(%s) & %du)))' % (c, a, b, BITS[t] - 1)
        if op in '/%':
            return 'fz_%s%s(%s, %s)' % ('div' if op == '/' else 'mod', t, a, b)
        return '((%s)((%s) %s (%s)))' % (c, a, r.choice(['<', '>', '==', '!=']), b)

    def unop(self, t, d, uni):
        r = self.r
        a = self.expr(t, d - 1, uni)
        c = CTYPE[t]
        if isf(t):
            fs = 'f' if t == 'f32' else ''
            return r.choice(['(-(%s))' % a, 'fabs%s(%s)' % (fs, a), 'sqrt%s(%s)' % (fs, a),
                             'floor%s(%s)' % (fs, a), 'trunc%s(%s)' % (fs, a),
                             'ceil%s(%s)' % (fs, a)])
        return r.choice(['((%s)(-(%s)(%s)))' % (c, wrapty(t), a), '((%s)(~(%s)))' % (c, a),
                         '((%s)(!(%s)))' % (c, a)])

    # ---------------------------------------------------------------- memory
    def slot_own(self, arr):
        j = self.r.randrange(arr.m)
        return '%s[%stl * %d + %d]' % (arr.name, arr.base(), arr.m, j)

    def slot_any(self, arr, d):
        e = self.expr(self.r.choice(['u32', 'i32', 'u16']), max(d - 2, 0))
        n = '%d' % arr.size_per_block if self.r.random() < 0.7 else '(unsigned)(nthr * %d)' % arr.m
        return '%s[%s(unsigned)(%s) %% %s]' % (arr.name, arr.base(), e, n)

    def mem_read(self, t, d):
        r = self.r
        cands = []
        for a in self.arrays():
            mode = self.modes.get(a.name)
            if mode in ('own', 'read'):
                cands.append(a)
        las = [v for v in self.locals_arrays]
        if las and r.random() < 0.4:
            name, lt, n = r.choice(las)
            e = self.expr(r.choice(['u32', 'i32']), max(d - 2, 0))
            return conv('%s[(unsigned)(%s) & %du]' % (name, e, n - 1), lt, t)
        if not cands:
            return None
        a = r.choice(cands)
        s = self.slot_own(a) if self.modes[a.name] == 'own' else self.slot_any(a, d)
        return conv(s, a.ty, t)

    def arrays(self):
        return self.fn_arrays

    # ---------------------------------------------------------------- statements
    def emit(self, s):
        self.out.append('  ' * self.ind + s)

    def emit_thread_ids(self):
        """The thread's linear index in its block (tl), the block size (nthr), the block's
        linear index (blin) and the global thread index (gtid), as kernels and helpers use."""
        self.emit('const int tl = (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * '
                  'threadIdx.z));')
        self.emit('const int nthr = (int)(blockDim.x * blockDim.y * blockDim.z);')
        self.emit('const int blin = (int)(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * '
                  'blockIdx.z));')
        self.emit('const int gtid = blin * nthr + tl;')

    def writable(self, ctx, uniform_needed=None):
        vs = [v for v in self.visible() if v.writable]
        if not ctx.uniform:
            vs = [v for v in vs if not v.uniform]
        return vs

    def fresh(self, p):
        self.counter += 1
        return '%s%d' % (p, self.counter)

    def stmt(self, ctx, d):
        r = self.r
        choices = [('assign', 40), ('if', 10), ('loop', 8), ('temp', 5)]
        if self.on('switch'):
            choices.append(('switch', 3))
        if self.locals_arrays:
            choices.append(('lastore', 6))
        if any(self.modes.get(a.name) in ('own', 'atom') for a in self.arrays()):
            choices.append(('mem', 10))
        if self.kind == 'kernel' and self.on('atomics'):
            choices += [('gacc', 6), ('priv', 5)]
        if ctx.loop:
            choices.append(('brk', 4))
        if ctx.ret and (ctx.ret_thread or ctx.uniform) and self.on('returns'):
            choices.append(('ret', 1))
        if self.on('fences'):
            choices.append(('fence', 1))
        if ctx.sync and ctx.uniform:
            choices += self.sync_choices(ctx)
        tot = sum(w for _, w in choices)
        x = r.uniform(0, tot)
        for k, w in choices:
            x -= w
            if x <= 0:
                break
        if d <= 0 and k in ('if', 'loop', 'switch', 'temp', 'uif', 'uloop', 'vote'):
            k = 'assign'
        getattr(self, 'st_' + k)(ctx, d)

    def block(self, ctx, n, d):
        for _ in range(n):
            self.stmt(ctx, d)

    def mix(self, name, t, p=1.0):
        """Folds a value into the thread's checksum cs, which is an output: results that a
        later assignment overwrites still count."""
        if self.kind in ('kernel', 'sfn') and self.r.random() < p:
            h = 'fz_fbits_%s(%s)' % (t, name) if isf(t) else '(uint64_t)(%s)' % name
            self.emit('cs = fz_mix(cs, %s);' % h)

    def st_assign(self, ctx, d):
        vs = self.writable(ctx)
        if not vs:
            return
        v = self.r.choice(vs)
        e = self.expr(v.ty, self.r.randint(1, 4), v.uniform)
        if not isf(v.ty) and self.r.random() < 0.35:
            w = wrapty(v.ty)
            e = '(%s)((%s)%s %s (%s)(%s))' % (CTYPE[v.ty], w, v.name, self.r.choice('+^'), w, e)
        self.emit('%s = %s;' % (v.name, e))
        self.mix(v.name, v.ty, 0.4)

    def st_fence(self, ctx, d):
        self.emit(self.r.choice(['threadfence();', 'threadfence_block();', 'threadfence_system();']))

    def st_temp(self, ctx, d):
        t = self.pick_type()
        n = self.fresh('t')
        uni = ctx.uniform and self.r.random() < 0.3
        self.emit('{')
        self.ind += 1
        self.emit('%s %s = %s;' % (CTYPE[t], n, self.expr(t, 3, uni)))
        self.scopes.append([Var(n, t, uni)])
        self.block(ctx, self.r.randint(1, 3), d - 1)
        self.scopes.pop()
        self.ind -= 1
        self.emit('}')

    def st_if(self, ctx, d):
        r = self.r
        uni = ctx.uniform and ctx.sync and r.random() < 0.5
        c = self.cond(2, uni)
        inner = ctx if uni else ctx.but(uniform=False, sync=False)
        saved = dict(self.modes)
        self.emit('if (%s) {' % c)
        self.ind += 1
        self.block(inner, r.randint(1, 3), d - 1)
        self.restore(saved)
        self.ind -= 1
        if r.random() < 0.5:
            self.emit('} else {')
            self.ind += 1
            self.block(inner, r.randint(1, 3), d - 1)
            self.restore(saved)
            self.ind -= 1
        self.emit('}')

    def st_loop(self, ctx, d):
        r = self.r
        j = self.fresh('j')
        uni = ctx.uniform and ctx.sync and r.random() < 0.5
        if uni:
            bound = r.choice(['%d' % r.randint(1, 4),
                              '(int)((unsigned)(%s) %% 3u) + 1' % self.expr('u32', 2, True)])
        else:
            bound = r.choice(['%d' % r.randint(0, 6),
                              '(int)((unsigned)(%s) & 7u)' % self.expr('u32', 2, False)])
        inner = ctx.but(uloop=dict(self.modes)) if uni else ctx.but(uniform=False, sync=False,
                                                                    loop=True)
        saved = dict(self.modes)
        form = r.random()
        self.scopes.append([Var(j, 'i32', uni, writable=False)])
        if form < 0.6 or uni:
            self.emit('for (int %s = 0; %s < %s; %s++) {' % (j, j, bound, j))
            self.ind += 1
            self.block(inner, r.randint(1, 4), d - 1)
            self.restore(saved)
            self.ind -= 1
            self.emit('}')
        elif form < 0.8:
            self.emit('int %s = %s;' % (j, bound))
            self.emit('while (%s-- > 0) {' % j)
            self.ind += 1
            self.block(inner, r.randint(1, 4), d - 1)
            self.ind -= 1
            self.emit('}')
        else:
            self.emit('int %s = 0;' % j)
            self.emit('do {')
            self.ind += 1
            self.block(inner, r.randint(1, 4), d - 1)
            self.ind -= 1
            self.emit('} while (++%s < %s);' % (j, bound))
        self.scopes.pop()

    def st_brk(self, ctx, d):
        self.emit('if (%s) %s;' % (self.cond(1, False), self.r.choice(['break', 'continue'])))

    def st_ret(self, ctx, d):
        # rarely taken: only some blocks (or threads) return, the rest of the kernel still runs
        who = '(unsigned)gtid' if ctx.ret_thread and self.r.random() < 0.7 else '(unsigned)blin'
        m = self.r.randint(2, 5)
        self.emit('if (%s %% %du == %du && (%s)) return;' % (who, m, self.r.randrange(m),
                                                         self.cond(1, not ctx.ret_thread)))

    def st_switch(self, ctx, d):
        r = self.r
        inner = ctx.but(uniform=False, sync=False)
        self.emit('switch ((unsigned)(%s) & 3u) {' % self.expr('u32', 2))
        for case in ['case 0:', 'case 1:', 'case 2:', 'default:']:
            self.emit(case + ' {')
            self.ind += 1
            self.block(inner, r.randint(0, 2), d - 1)
            if r.random() < 0.8 or case == 'default:':
                self.emit('break;')
            self.ind -= 1
            self.emit('}')
        self.emit('}')

    def st_lastore(self, ctx, d):
        name, t, n = self.r.choice(self.locals_arrays)
        e = self.expr(self.r.choice(['u32', 'i32']), 2)
        self.emit('%s[(unsigned)(%s) & %du] = %s;' % (name, e, n - 1, self.expr(t, 3)))

    def st_mem(self, ctx, d):
        r = self.r
        cands = [a for a in self.arrays() if self.modes.get(a.name) in ('own', 'atom')]
        a = r.choice(cands)
        if self.modes[a.name] == 'own':
            self.emit('%s = %s;' % (self.slot_own(a), self.value_for(a, 3)))
        else:
            self.emit('%s;' % self.atomic_call(a.op, a.ty, '&' + self.slot_any(a, 3), a))

    def value_for(self, a, d):
        """A value to store into array a (exact small integers where float adds need them)."""
        if a.exact:
            return '(%s)((int)((unsigned)(%s) & 1023u) - 512)' % (CTYPE[a.ty],
                                                                  self.expr('u32', d))
        return self.expr(a.ty, d)

    def atomic_operand(self, op, t, a=None):
        if op in ('inc', 'dec'):
            return '(%s)%du' % (CTYPE[t], a.limit)
        if isf(t):
            if op in ('add', 'sub'):
                return '(%s)((int)((unsigned)(%s) & 15u))' % (CTYPE[t], self.expr('u32', 2))
            fs = 'f32' if t == 'f32' else 'f64'
            return 'fz_nz_%s(%s)' % (fs, self.expr(t, 2))
        return self.expr(t, 2)

    def atomic_call(self, op, t, ptr, a=None):
        return 'atomic_%s(%s, %s)' % (op, ptr, self.atomic_operand(op, t, a))

    def st_gacc(self, ctx, d):
        r = self.r
        if not self.gaccs or (len(self.gaccs) < 4 and r.random() < 0.3):
            t = r.choice(ATOMIC_TYPES if self.on('floats') else ATOMIC_TYPES[:4])
            ops = self.acc_ops(t)
            op = r.choice(ops)
            name = 'gacc_%d' % len(self.gaccs)
            lim = r.randint(3, 200)
            self.gaccs.append(Arr(name, t, 0, 'gacc', op, lim))
        a = r.choice(self.gaccs)
        idx = '(unsigned)(%s) %% %du' % (self.expr('u32', 2), NACC)
        self.emit('%s;' % self.atomic_call(a.op, a.ty, '&%s[%s]' % (a.name, idx), a))

    def acc_ops(self, t):
        if isf(t):
            return ['add', 'sub', 'max', 'min', 'nanmax', 'nanmin']
        ops = ['add', 'sub', 'and', 'or', 'xor', 'max', 'min']
        if t in ('u32', 'u64'):
            ops += ['inc', 'dec']
        return ops

    def st_priv(self, ctx, d):
        r = self.r
        t = r.choice(ATOMIC_TYPES if self.on('floats') else ATOMIC_TYPES[:4])
        self.privs.add(t)
        j = r.randrange(PRIV)
        ptr = '&priv_%s[(size_t)gtid * %d + %d]' % (t, PRIV, j)
        ops = ['add', 'sub', 'max', 'min', 'exch', 'cas', 'nanmax', 'nanmin']
        if not isf(t):
            ops += ['and', 'or', 'xor']
        if t in ('u32', 'u64'):
            ops += ['inc', 'dec']
        op = r.choice(ops)
        if op == 'cas':
            # floats: expect the stored value itself (cas compares bits, and the sign of a NaN
            # an operation makes is unspecified)
            exp = ('priv_%s[(size_t)gtid * %d + %d]' % (t, PRIV, j)
                   if r.random() < 0.5 or isf(t) else self.expr(t, 2))
            call = 'atomic_cas(%s, %s, %s)' % (ptr, exp, self.expr(t, 2))
        elif op in ('inc', 'dec'):
            call = 'atomic_%s(%s, (%s)%du)' % (op, ptr, CTYPE[t], r.randint(0, 300))
        else:
            call = 'atomic_%s(%s, %s)' % (op, ptr, self.expr(t, 2))
        vs = self.writable(ctx)
        vs = [v for v in vs if not v.uniform]
        if vs and r.random() < 0.8:
            v = r.choice(vs)
            self.emit('%s = %s;' % (v.name, conv(call, t, v.ty)))
            self.mix(v.name, v.ty)
        else:
            self.emit('%s;' % call)

    # ---------------------------------------------------------------- barriers and warps
    def sync_choices(self, ctx):
        c = []
        if self.on('barriers') and self.profile['barriers']:
            c += [('bar', 6), ('uif', 3), ('uloop', 3)]
            if self.on('counts') and self.profile['counts']:
                c.append(('barcount', 5))
            if self.on('voteloops') and self.profile['counts']:
                c.append(('vote', 1))
            if self.sfns and self.kind == 'kernel':
                c.append(('sfncall', 3))
        if self.profile['warp'] and self.on('warp'):
            c += [('warp', 14), ('uloop', 2)]
            if self.on('warpif'):
                c.append(('warpif', 4))
            if self.sfns and self.kind == 'kernel':
                c.append(('sfncall', 2))
        return c

    def new_modes(self):
        r = self.r
        for a in self.arrays():
            k = r.random()
            if a.op and k < 0.3:
                self.modes[a.name] = 'atom'
            elif k < 0.65:
                self.modes[a.name] = 'read'
            else:
                self.modes[a.name] = 'own'

    def restore(self, saved):
        """Ends a compound with barriers: its last phase must use the modes it started with."""
        if self.modes != saved:
            self.emit('syncthreads();')
            self.modes.clear()
            self.modes.update(saved)

    def st_bar(self, ctx, d):
        self.emit('syncthreads();')
        self.new_modes()

    def st_barcount(self, ctx, d):
        r = self.r
        p = self.cond(2, False)
        f = r.choice(['syncthreads_count', 'syncthreads_and', 'syncthreads_or'])
        vs = [v for v in self.writable(ctx) if v.uniform] if r.random() < 0.6 else []
        if not vs:
            vs = self.writable(ctx)
        if vs:
            v = r.choice(vs)
            self.emit('%s = (%s)%s(%s);' % (v.name, CTYPE[v.ty], f, p))
            self.mix(v.name, v.ty)
        else:
            self.emit('(void)%s(%s);' % (f, p))
        self.new_modes()

    def st_uif(self, ctx, d):
        self.st_if(ctx, d)

    def st_uloop(self, ctx, d):
        self.st_loop(ctx, d)

    def st_vote(self, ctx, d):
        r = self.r
        n = self.fresh('w')
        f = r.choice(['syncthreads_or', 'syncthreads_count'])
        p = self.cond(1, False)
        lim = r.randint(1, 3)
        self.emit('int %s = 0;' % n)
        saved = dict(self.modes)
        test = '%s(%s < %d && (%s))' % (f, n, lim, p)
        self.emit('while (%s) {' % test)
        self.ind += 1
        self.scopes.append([Var(n, 'i32', True, writable=False)])
        self.block(ctx.but(uloop=dict(saved)), r.randint(1, 3), d - 1)
        self.restore(saved)  # the test at the head may read memory under the modes of before
        self.scopes.pop()
        self.emit('%s++;' % n)
        self.ind -= 1
        self.emit('}')
        self.modes.clear()
        self.modes.update(saved)

    def st_warp(self, ctx, d):
        r = self.r
        k = r.random()
        vs = [v for v in self.writable(ctx) if not v.uniform]
        if not vs:
            return
        v = r.choice(vs)
        if k < 0.7:
            st = r.choice(TYPES)
            val = self.expr(st, 2)
            val = '(%s)(%s)' % (CTYPE[st], val)
            f = r.choice(['shfl_sync', 'shfl_up_sync', 'shfl_down_sync', 'shfl_xor_sync'])
            if f == 'shfl_sync':
                lane = r.choice(['%d' % r.randint(0, 63),
                                 '(int)((unsigned)(%s) & 63u)' % self.expr('u32', 2)])
            elif f == 'shfl_xor_sync':
                lane = r.choice(['%d' % (1 << r.randint(0, 4)), '%d' % r.randint(0, 31),
                                 '(int)((unsigned)(%s) & 31u)' % self.expr('u32', 2)])
            else:
                lane = r.choice(['%du' % r.randint(0, 31),
                                 '((unsigned)(%s) & 31u)' % self.expr('u32', 2)])
            rt = st if st in ('i32', 'u32', 'i64', 'u64', 'f32', 'f64') else 'i32'
            self.emit('%s = %s;' % (v.name, conv('%s(%s, %s, %s)' % (f, FULL, val, lane), rt,
                                                 v.ty)))
            self.mix(v.name, v.ty)
        elif k < 0.9:
            f = r.choice(['ballot_sync', 'all_sync', 'any_sync'])
            rt = 'u32' if f == 'ballot_sync' else 'i32'
            self.emit('%s = %s;' % (v.name, conv('%s(%s, %s)' % (f, FULL, self.cond(2, False)),
                                                 rt, v.ty)))
            self.mix(v.name, v.ty)
        else:
            self.emit('syncwarp(%s);' % FULL)

    # ---- warpsplit helper (issue 15): warp functions under a branch that is the same across
    # each warp but not across the block, which the CPU split runs warp by warp. Kept apart
    # from the other generators on purpose.
    def st_warpif(self, ctx, d):
        r = self.r
        lin = '(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))'
        # Every block shape of a warp profile (pick_dims) keeps these the same across a warp:
        # threadIdx.x < 32 holds for whole rows of 32 or more, and for all of a row of 16 or
        # less; the linear id's warp number is a warp's by definition.
        cond = r.choice(['threadIdx.x < 32u', '(%s / 32u) %% 2u == %du' % (lin, r.randint(0, 1)),
                         '%s >= 32u' % lin, '(%s >> 5) != 1u' % lin])
        self.emit('if (%s) {' % cond)
        self.ind += 1
        for _ in range(r.randint(1, 3)):
            self.st_warp(ctx, d - 1)
        self.ind -= 1
        self.emit('}')

    def st_sfncall(self, ctx, d, which=None):
        r = self.r
        name, ret, args, _ = which or r.choice(self.sfns)
        self.sfn_called.add(name)
        vs = self.writable(ctx)
        vs = [v for v in vs if not v.uniform]
        a = ', '.join(self.expr(t, 2) for t in args)
        if vs:
            v = r.choice(vs)
            self.emit('%s = %s;' % (v.name, conv('%s(%s)' % (name, a), ret, v.ty)))
            self.mix(v.name, v.ty)
        else:
            self.emit('(void)%s(%s);' % (name, a))

    # ---------------------------------------------------------------- functions
    def pick_type(self):
        ts = TYPES if self.on('floats') else [t for t in TYPES if not isf(t)]
        return self.r.choice(ts)

    def reset_fn(self, kind):
        self.kind = kind
        self.out = []
        self.ind = 1
        self.scopes = [[]]
        self.modes = {}
        self.fn_arrays = []
        self.locals_arrays = []
        self.counter = 0

    def gen_helper(self, i):
        """A pure device function: arithmetic, control flow and a local array."""
        r = self.r
        self.reset_fn('helper')
        self.profile = dict(barriers=False, counts=False, warp=False)
        ret = self.pick_type()
        args = [self.pick_type() for _ in range(r.randint(1, 3))]
        name = 'fz_h%d' % i
        params = ['%s a%d' % (CTYPE[t], k) for k, t in enumerate(args)]
        for k, t in enumerate(args):
            self.scopes[0].append(Var('a%d' % k, t, False))
        for k in range(r.randint(0, 2)):
            t = self.pick_type()
            self.emit('%s l%d = %s;' % (CTYPE[t], k, self.expr(t, 2)))
            self.scopes[0].append(Var('l%d' % k, t, False))
        if self.on('localarrays') and r.random() < 0.4:
            t = self.pick_type()
            self.emit('%s hl[4] = {%s};' % (CTYPE[t], ', '.join(self.expr(t, 1) for _ in range(4))))
            self.locals_arrays.append(('hl', t, 4))
        ctx = Ctx(uniform=False, sync=False)
        for _ in range(r.randint(1, 4)):
            self.stmt(ctx, 2)
        self.emit('return %s;' % self.expr(ret, 3))
        attr = r.choice(['static FZ_DEVICE', 'static inline', 'static'])
        text = '%s %s %s(%s) {\n%s\n}\n' % (attr, CTYPE[ret], name, ', '.join(params),
                                             '\n'.join(self.out))
        self.helpers.append((name, ret, args, text))
        self.helper_text.append(text)
        self.names.append(name)

    def gen_sfn(self, knum, i, profile):
        """A device function with barriers and/or warp functions and its own shared array."""
        r = self.r
        self.reset_fn('sfn')
        self.profile = dict(profile)
        ret = self.pick_type()
        args = [self.pick_type() for _ in range(r.randint(1, 2))]
        name = 'fz_s%d_%d' % (knum, i)
        for k, t in enumerate(args):
            self.scopes[0].append(Var('a%d' % k, t, False))
        self.emit_thread_ids()
        self.emit('(void)gtid;')
        rt = self.pick_type()
        self.emit('%s res = %s;' % (CTYPE[rt], self.expr(rt, 2)))
        self.emit('uint64_t cs = 0;')
        self.scopes[0].append(Var('res', rt, False))
        if self.on('shared') and r.random() < 0.8:
            t = self.pick_type()
            a = self.new_arr('fsh', t, 'static')
            self.emit('FZ_SHARED %s fsh[%d];' % (CTYPE[t], a.size_per_block))
            for j in range(a.m):
                self.emit('fsh[tl * %d + %d] = %s;' % (a.m, j, self.value_for(a, 2)))
            self.fn_arrays.append(a)
            self.modes['fsh'] = 'own'
        saved = dict(self.modes)
        ctx = Ctx(uniform=True, sync=True)
        self.block(ctx, r.randint(2, 5), 2)
        # at least one collective, so that the function is what it claims to be
        if profile['barriers'] and self.on('barriers'):
            self.st_bar(ctx, 0)
        elif profile['warp'] and self.on('warp'):
            self.st_warp(ctx, 0)
        self.block(ctx, r.randint(0, 2), 1)
        self.restore(saved)
        self.mix('res', rt)
        self.emit('return %s;' % conv('(cs ^ %s)' % conv(self.expr(ret, 2), ret, 'u64'), 'u64',
                                      ret))
        text = 'static FZ_DEVICE %s %s(%s) {\n%s\n}\n' % (
            CTYPE[ret], name, ', '.join('%s a%d' % (CTYPE[t], k) for k, t in enumerate(args)),
            '\n'.join(self.out))
        self.names.append(name)
        return (name, ret, args, text)

    def new_arr(self, name, t, kind):
        r = self.r
        m = r.randint(1, 3)
        op = None
        exact = False
        if self.on('atomics') and t in ATOMIC_TYPES and r.random() < 0.6:
            op = r.choice(self.acc_ops(t))
            exact = isf(t) and op in ('add', 'sub')
        a = Arr(name, t, m, kind, op, r.randint(3, 200), exact)
        a.size_per_block = self.nthr * m
        return a

    def pick_dims(self, profile):
        r = self.r
        if profile['warp']:
            blocks = [(32, 1, 1), (64, 1, 1), (96, 1, 1), (128, 1, 1), (32, 2, 1), (16, 4, 1),
                      (8, 4, 2), (32, 2, 2), (256, 1, 1), (4, 4, 4), (64, 3, 1)]
        else:
            blocks = [(1, 1, 1), (7, 1, 1), (32, 1, 1), (33, 1, 1), (64, 1, 1), (100, 1, 1),
                      (5, 3, 1), (16, 16, 1), (3, 3, 3), (8, 4, 2), (256, 1, 1), (17, 2, 3),
                      (128, 1, 1), (2, 2, 2)]
        b = r.choice(blocks)
        if profile['gridstride'] or r.random() < 0.4:
            b = (b[0] * b[1] * b[2], 1, 1)
        g = r.choice([(1, 1, 1), (2, 1, 1), (3, 1, 1), (5, 1, 1), (8, 1, 1), (2, 2, 1),
                      (3, 2, 1), (2, 2, 2), (1, 3, 2), (4, 1, 3)])
        if profile['gridstride']:
            g = (g[0] * g[1] * g[2], 1, 1)
        return g, b

    def gen_kernel(self, knum):
        r = self.r
        kinds = ['plain', 'split', 'sync', 'warp', 'gridstride', 'mixed']
        pk = r.choice(kinds)
        profile = dict(barriers=pk in ('split', 'sync', 'mixed'),
                       counts=pk in ('sync', 'mixed'), warp=pk in ('warp', 'mixed'),
                       gridstride=pk == 'gridstride',
                       # block-uniform values from indices, arguments and constants only
                       # (no loads or calls), which the CPU backend's split can prove uniform
                       strict=pk == 'split')
        if not self.on('barriers'):
            profile['barriers'] = profile['counts'] = False
        if not self.on('warp'):
            profile['warp'] = False
        if not self.on('gridstride'):
            profile['gridstride'] = False
        self.profile = profile
        g, b = self.pick_dims(profile)
        self.nthr = b[0] * b[1] * b[2]
        nblocks = g[0] * g[1] * g[2]
        ntot = self.nthr * nblocks
        sync_any = profile['barriers'] or profile['warp']
        self.sfns = []
        if sync_any and self.on('synchelpers') and r.random() < 0.5:
            for i in range(r.randint(1, 2)):
                self.sfns.append(self.gen_sfn(knum, i, profile))
        self.profile = profile
        self.reset_fn('kernel')
        self.sfn_called = set()
        self.kin = set()
        self.gaccs = []
        self.privs = set()
        self.uses_struct = False
        self.uses_scalars = True
        small = pk == 'split' and r.random() < 0.7
        # a grid-stride kernel whose code before the loop loads nothing and that has no shared
        # memory or local arrays: the CPU backend runs it interchanged
        pure = profile['gridstride'] and r.random() < 0.6
        self.emit_thread_ids()
        # shared memory and scratch
        arrs = []
        if self.on('shared') and not pure and r.random() < (0.8 if sync_any else 0.3):
            for i in range(r.randint(1, 2)):
                t = self.pick_type()
                a = self.new_arr('sh%d' % i, t, 'static')
                self.emit('FZ_SHARED %s sh%d[%d];' % (CTYPE[t], i, a.size_per_block))
                arrs.append(a)
        dyn = None
        if self.on('dynshared') and not pure and r.random() < (0.4 if sync_any else 0.15):
            t = self.pick_type()
            dyn = self.new_arr('dsh', t, 'dyn')
            self.emit('%s *dsh = kp_dynamic_shared(%s);' % (CTYPE[t], CTYPE[t]))
            arrs.append(dyn)
        gscr = None
        if self.on('gscratch') and not pure and r.random() < 0.35:
            t = self.pick_type()
            gscr = self.new_arr('gscr', t, 'gscr')
            arrs.append(gscr)
        # variables
        nv = r.randint(2, 4) if small else r.randint(3, 6 if pure else 9)
        self.noload = pure
        for i in range(nv):
            t = self.pick_type()
            self.emit('%s v%d = %s;' % (CTYPE[t], i, self.expr(t, 2)))
            self.scopes[0].append(Var('v%d' % i, t, False))
        if sync_any:
            for i in range(r.randint(0, 2)):
                t = self.pick_type()
                self.emit('%s u%d = %s;' % (CTYPE[t], i, self.expr(t, 2, True)))
                self.scopes[0].append(Var('u%d' % i, t, True))
        self.noload = False
        self.emit('uint64_t cs = 0;')
        if self.on('localarrays') and not pure and r.random() < (0.3 if small else 0.6):
            t = self.pick_type()
            n = r.choice([4, 8, 16])
            self.emit('%s la[%d];' % (CTYPE[t], n))
            self.emit('for (int q = 0; q < %d; q++) la[q] = %s;' % (
                n, conv('(unsigned)q * 2654435761u + (unsigned)gtid', 'u32', t)))
            self.locals_arrays.append(('la', t, n))
        for a in arrs:
            for j in range(a.m):
                self.emit('%s = %s;' % ('%s[%stl * %d + %d]' % (a.name, a.base(), a.m, j),
                                        self.value_for(a, 2)))
            self.modes[a.name] = 'own'
        self.fn_arrays = arrs
        # body
        ctx = Ctx(uniform=True, sync=sync_any, ret=True, ret_thread=not sync_any)
        gs = None
        if profile['gridstride']:
            gs = self.pick_type()
            self.emit('for (int i = grid(1); i < fz_n; i += gridsize(1)) {')
            self.ind += 1
            self.scopes.append([Var('i', 'i32', False, writable=False)])
            if r.random() < 0.5:
                self.block(ctx.but(uniform=False, sync=False, ret=False), r.randint(0, 2), 1)
            self.emit('gs_out[i] = %s;' % self.canon(self.expr(gs, 3), gs))
            self.scopes.pop()
            self.ind -= 1
            self.emit('}')
            if r.random() < 0.5:
                self.block(ctx, r.randint(1, 3), 2)
        else:
            nst = r.randint(3, 8) if small else r.randint(4, 14)
            self.block(ctx, nst, 3)
            for sf in self.sfns:  # every device function with collectives is called
                if sf[0] not in self.sfn_called:
                    self.st_sfncall(ctx, 0, sf)
            if sync_any and self.on('returns') and r.random() < 0.3:
                # the final region: no collective after this, thread-dependent return allowed
                fctx = Ctx(uniform=False, sync=False, ret=True, ret_thread=True)
                self.st_ret(fctx, 0)
                self.block(fctx, r.randint(1, 3), 2)
        # outputs
        outs = {}
        for sc in self.scopes:
            for v in sc:
                outs.setdefault(v.ty, []).append(v.name)
        outs.setdefault('u64', []).append('cs')
        for name, t, n in self.locals_arrays:
            for q in range(n):
                outs.setdefault(t, []).append('%s[%d]' % (name, q))
        for t in sorted(outs):
            for j, e in enumerate(outs[t]):
                self.emit('out_%s[(size_t)gtid * %d + %d] = %s;' % (t, len(outs[t]), j,
                                                                   self.canon(e, t)))
        body = self.out
        # signature and buffers
        params, bufs = [], []   # bufs: (name, ctype, count, init, role)
        for t in TYPES:
            if t in self.kin:
                params.append(('const %s *' % CTYPE[t], 'in_%s' % t))
        for t in sorted(outs):
            params.append(('%s *' % CTYPE[t], 'out_%s' % t))
            bufs.append(('out_%s' % t, t, 'ntot * %d' % len(outs[t]), 'fill', 'out'))
        for a in self.gaccs:
            params.append(('%s *' % CTYPE[a.ty], a.name))
            bufs.append((a.name, a.ty, str(NACC), 'acc:%s:%d' % (a.op, a.limit), 'acc'))
        for t in sorted(self.privs):
            params.append(('%s *' % CTYPE[t], 'priv_%s' % t))
            bufs.append(('priv_%s' % t, t, 'ntot * %d' % PRIV, 'rand', 'priv'))
        if gscr:
            params.append(('%s *' % CTYPE[gscr.ty], 'gscr'))
            bufs.append(('gscr', gscr.ty, 'nblk * %d' % gscr.size_per_block, 'fill', 'gscr'))
        fz_n = 0
        if gs:
            fz_n = r.choice([ntot // 2 + 1, ntot, ntot * 3 + 7, 1, 0])
            params.append(('%s *' % CTYPE[gs], 'gs_out'))
            bufs.append(('gs_out', gs, str(max(fz_n, 1)), 'fill', 'gs'))
        scal = [('int', 'fz_n', str(fz_n)), ('int32_t', 'ua', str(r.randint(-100, 100))),
                ('uint32_t', 'ub', '%du' % r.getrandbits(32)),
                ('float', 'uf', flit(r, 'f32')), ('double', 'ud', flit(r, 'f64'))]
        for ct, n, v in scal:
            params.append((ct, n))
        if self.uses_struct:
            params.append(('struct fz_sp', 'sp'))
        name = 'fz_k%d' % knum
        self.names.append(name)
        sig = ', '.join('%s%s%s' % (ct, '' if ct.endswith('*') else ' ', n) for ct, n in params)
        pre = ['(void)tl;', '(void)nthr;', '(void)blin;', '(void)gtid;']
        for ct, n, v in scal:
            pre.append('(void)%s;' % n)
        text = ''
        for s in self.sfns:
            text += s[3] + '\n'
        text += '/* kernel %d: profile %s, grid %s, block %s */\n' % (knum, pk, g, b)
        text += 'FZ_KERNEL void %s(%s) {\n' % (name, sig)
        text += '\n'.join(body[:4]) + '\n'
        text += '\n'.join('  ' + p for p in pre) + '\n'
        text += '\n'.join(body[4:]) + '\n}\n'
        self.kernel_text.append(text)
        shbytes = dyn.size_per_block * BITS[dyn.ty] // 8 if dyn else 0
        # a second launch: another grid and another block shape of as many threads (the
        # kernel's shared arrays are sized for them)
        g2, b2 = self.pick_dims(profile)
        if not profile['gridstride']:
            divs = [(x, y, self.nthr // (x * y)) for x in range(1, self.nthr + 1)
                    for y in range(1, 17) if self.nthr % (x * y) == 0 and self.nthr // (x * y) <= 64]
            b2 = r.choice(divs)
        else:
            b2 = b
        self.host_kernel(knum, name, params, bufs, scal, sync_any, shbytes)
        self.configs.append(((g, b), (g2, b2)))

    def canon(self, e, t):
        if t == 'f32':
            return 'fz_canon_f32(%s)' % e
        if t == 'f64':
            return 'fz_canon_f64(%s)' % e
        return e

    # ---------------------------------------------------------------- host side
    def host_kernel(self, knum, name, params, bufs, scal, sync_any, shbytes):
        L = []
        L.append('static int fz_run_%d(kp_dim3 g, kp_dim3 b) {' % knum)
        L.append('  int bad = 0;')
        L.append('  const size_t nblk = (size_t)g.x * g.y * g.z, ntot = nblk * b.x * b.y * b.z;')
        L.append('  (void)ntot, (void)nblk;')
        bufnames = {}
        for bn, t, n, init, role in bufs:
            ct = CTYPE[t]
            L.append('  %s *h_%s = fz_alloc(%s * sizeof(%s));' % (ct, bn, n, ct))
            if init == 'fill':
                L.append('  memset(h_%s, 0x5a, %s * sizeof(%s));' % (bn, n, ct))
            elif init == 'rand':
                L.append('  for (size_t i = 0; i < %s; i++) h_%s[i] = fz_rand_%s();' % (n, bn, t))
            else:
                _, op, lim = init.split(':')
                L.append('  for (size_t i = 0; i < %s; i++) h_%s[i] = %s;' % (
                    n, bn, self.acc_init(op, t, int(lim))))
            L.append('  %s *r_%s = fz_alloc(%s * sizeof(%s));' % (ct, bn, n, ct))
            L.append('  memcpy(r_%s, h_%s, %s * sizeof(%s));' % (bn, bn, n, ct))
            bufnames[bn] = (ct, n)
        L.append('#ifndef FZ_REF_ONLY')
        for bn, (ct, n) in bufnames.items():
            L.append('  %s *d_%s = device_array(%s, %s);' % (ct, bn, ct, n))
            L.append('  copy_to_device(d_%s, h_%s, %s);' % (bn, bn, n))
        args = []
        for ct, n in params:
            if n.startswith('in_'):
                args.append('(const %s *)fz_d_%s' % (CTYPE[n[3:]], n))
            elif n in bufnames:
                args.append('d_' + n)
            elif n == 'sp':
                args.append('fz_sp_value')
            else:
                args.append(dict((s[1], s[2]) for s in scal)[n])
        L.append('  launch(%s, g, b, %d, 0)(%s);' % (name, shbytes, ', '.join(args)))
        L.append('  kp_synchronize();')
        for bn, (ct, n) in bufnames.items():
            L.append('  copy_to_host(h_%s, d_%s, %s);' % (bn, bn, n))
            L.append('  kp_free(d_%s);' % bn)
        L.append('#endif')
        # reference
        rargs = []
        for ct, n in params:
            if n.startswith('in_'):
                rargs.append('fz_h_%s' % n)
            elif n in bufnames:
                rargs.append('r_' + n)
            elif n == 'sp':
                rargs.append('fz_sp_value')
            else:
                rargs.append(dict((s[1], s[2]) for s in scal)[n])
        L.append('  fz_ref_args_%d = (struct fz_ref_args_%d){%s};' % (knum, knum,
                                                                    ', '.join(rargs)))
        L.append('  fzr_launch(g, b, fz_ref_entry_%d, %d);' % (knum, 1 if sync_any else 0))
        L.append('#ifdef FZ_SELFTEST_BREAK /* a wrong reference, which the check must report */')
        L.append('  *(unsigned char *)r_%s ^= 1;' % bufs[0][0])
        L.append('#endif')
        L.append('#ifdef FZ_REF_ONLY')
        L.append('  /* the reference again, on the other copies: it must be deterministic */')
        L.append('  fz_ref_args_%d = (struct fz_ref_args_%d){%s};' % (
            knum, knum, ', '.join('h_' + a[2:] if a.startswith('r_') else a for a in rargs)))
        L.append('  fzr_launch(g, b, fz_ref_entry_%d, %d);' % (knum, 1 if sync_any else 0))
        L.append('#endif')
        for bn, (ct, n) in bufnames.items():
            L.append('  bad |= fz_compare(%d, "%s", "%s", h_%s, r_%s, %s, sizeof(%s), %d);' % (
                knum, name, bn, bn, bn, n, ct, 1 if ct in ('float', 'double') else 0))
            L.append('  free(h_%s);' % bn)
            L.append('  free(r_%s);' % bn)
        L.append('  return bad;')
        L.append('}')
        fields = '; '.join('%s%s%s' % (ct, '' if ct.endswith('*') else ' ', 'p%d' % i)
                           for i, (ct, n) in enumerate(params))
        ref = ['struct fz_ref_args_%d { %s; };' % (knum, fields),
               'static struct fz_ref_args_%d fz_ref_args_%d;' % (knum, knum),
               'static void fz_ref_entry_%d(void) {' % knum,
               '  struct fz_ref_args_%d *a = &fz_ref_args_%d;' % (knum, knum),
               '  ref_%s(%s);' % (name, ', '.join('a->p%d' % i for i in range(len(params)))),
               '}']
        self.host_text.append('\n'.join(ref + L) + '\n')

    def acc_init(self, op, t, lim):
        if isf(t):
            if op in ('add', 'sub'):
                return '(%s)(int)(fz_next() %% 64)' % CTYPE[t]
            return 'fz_rand_%s()' % t
        if op in ('inc', 'dec'):
            return '(%s)(fz_next() %% %du)' % (CTYPE[t], lim + 1)
        if op == 'and':
            return '(%s)~(fz_next() & 0x1010101010101010ull)' % CTYPE[t]
        return 'fz_rand_%s()' % t

    # ---------------------------------------------------------------- program
    def program(self, ref_h, cmdline):
        r = self.r
        if self.on('struct'):
            for i in range(r.randint(1, 4)):
                self.struct_fields.append(('f%d' % i, self.pick_type()))
        if self.on('helpers'):
            for i in range(r.randint(1, 4)):
                self.gen_helper(i)
        for k in range(self.nkernels):
            self.gen_kernel(k)
        part1, part2 = ref_h.split('#ifdef FZR_REDEFINE_API', 1)
        P = []
        P.append('/* Generated by tests/fuzz/gen_kernel.py: %s\n'
                 ' * Reproduce: kpcc -O2 -ffp-contract=off this.c -lm -o prog && KP_BACKEND=cpu'
                 ' ./prog [kernel]\n'
                 ' * (also at -O0 and with -fplugin-arg-kernplug-cpu-barriers=fibers); see\n'
                 ' * docs/internals.md, "Fuzzing". */' % cmdline)
        P.append('#ifndef FZ_PASS')
        P.append('#include <kernplug.h>')
        P.append('#include <math.h>')
        P.append('#include <stdint.h>')
        P.append('#include <stdio.h>')
        P.append('#include <stdlib.h>')
        P.append('#include <string.h>')
        P.append(part1)
        P.append(PRELUDE)
        if self.struct_fields:
            P.append('struct fz_sp { %s; };' % '; '.join(
                '%s %s' % (CTYPE[t], n) for n, t in self.struct_fields))
        P.append('static const uint64_t fz_seed = %du;' % (self.seed & ((1 << 64) - 1)))
        P.append('#ifndef FZ_REF_ONLY')
        P.append('#define FZ_PASS 1')
        P.append('#define FZ_KERNEL __attribute__((kernel))')
        P.append('#define FZ_DEVICE __attribute__((device))')
        P.append('#define FZ_SHARED static __attribute__((shared))')
        P.append('#include __FILE__')
        P.append('#undef FZ_PASS')
        P.append('#undef FZ_KERNEL')
        P.append('#undef FZ_DEVICE')
        P.append('#undef FZ_SHARED')
        P.append('#endif')
        P.append('/* pass 2: the same text as the serial reference */')
        P.append('#define FZR_REDEFINE_API')
        P.append('#ifdef FZR_REDEFINE_API' + part2)
        P.append('#define FZ_PASS 2')
        P.append('#define FZ_KERNEL static')
        P.append('#define FZ_DEVICE')
        P.append('#define FZ_SHARED static')
        for n in self.names:
            P.append('#define %s ref_%s' % (n, n))
        P.append('#include __FILE__')
        for n in self.names:
            P.append('#undef %s' % n)
        P.append(HOST_PRELUDE)
        if self.struct_fields:
            vals = []
            for n, t in self.struct_fields:
                vals.append(flit(r, t) if isf(t) else ilit(r, t))
            P.append('static const struct fz_sp fz_sp_value = {%s};' % ', '.join(vals))
        for t in TYPES:
            if t in self.in_types:
                P.append('static %s fz_h_in_%s[%d];' % (CTYPE[t], t, NIN))
                P.append('static %s *fz_d_in_%s;' % (CTYPE[t], t))
        P.extend(self.host_text)
        P.append('int main(int argc, char **argv) {')
        P.append('  int only = argc > 1 ? atoi(argv[1]) : -1, bad = 0;')
        P.append('  fz_rng = fz_seed;')
        for t in TYPES:
            if t in self.in_types:
                P.append('  for (int i = 0; i < %d; i++) fz_h_in_%s[i] = fz_rand_%s();' % (
                    NIN, t, t))
                P.append('#ifndef FZ_REF_ONLY')
                P.append('  fz_d_in_%s = to_device(fz_h_in_%s, %d);' % (t, t, NIN))
                P.append('#endif')
        P.append('  for (int k = 0; k < %d; k++) {' % self.nkernels)
        P.append('    if (only >= 0 && k != only) continue;')
        P.append('    int b = 0;')
        P.append('    switch (k) {')
        for k in range(self.nkernels):
            (g, b), (g2, b2) = self.configs[k]
            P.append('    case %d:' % k)
            P.append('      fz_launch_no = 1, b = fz_run_%d((kp_dim3){%d, %d, %d}, (kp_dim3){%d, %d, %d});'
                     % ((k,) + g + b))
            P.append('      fz_launch_no = 2, b |= fz_run_%d((kp_dim3){%d, %d, %d}, (kp_dim3){%d, %d, %d});'
                     % ((k,) + g2 + b2))
            P.append('      break;')
        P.append('    }')
        P.append('    bad += b != 0;')
        P.append('  }')
        P.append('  printf("fuzz seed %%llu: %%d kernel(s), %%d mismatch(es)\\n", '
                 '(unsigned long long)fz_seed, %d, bad);' % self.nkernels)
        P.append('  return bad ? 1 : 0;')
        P.append('}')
        P.append('#else /* FZ_PASS: the kernels, compiled once per pass */')
        P.extend(self.helper_text)
        P.extend(self.kernel_text)
        P.append('#endif')
        return '\n'.join(P) + '\n'


PRELUDE = r'''
/* ---- UB-free arithmetic, shared by kernels and references ---- */
#define FZ_SDIV(N, T, MIN)                                                                     \
  static inline T fz_div##N(T a, T b) { return (b == 0 || (a == MIN && b == -1)) ? a : (T)(a / b); } \
  static inline T fz_mod##N(T a, T b) { return (b == 0 || (a == MIN && b == -1)) ? a : (T)(a % b); }
#define FZ_UDIV(N, T)                                                                          \
  static inline T fz_div##N(T a, T b) { return b == 0 ? a : (T)(a / b); }                       \
  static inline T fz_mod##N(T a, T b) { return b == 0 ? a : (T)(a % b); }
FZ_SDIV(i8, int8_t, INT8_MIN)
FZ_SDIV(i16, int16_t, INT16_MIN)
FZ_SDIV(i32, int32_t, INT32_MIN)
FZ_SDIV(i64, int64_t, INT64_MIN)
FZ_UDIV(u8, uint8_t)
FZ_UDIV(u16, uint16_t)
FZ_UDIV(u32, uint32_t)
FZ_UDIV(u64, uint64_t)
/* float -> integer: the value when in range, else (NaN, infinities, too large) the low bits of
 * the double's bit pattern, so that information still flows */
static inline uint64_t fz_dbits(double x) {
  union { double f; uint64_t u; } b = {x != x ? 0.0 : x};
  return b.u ^ (b.u >> 32);
}
#define FZ_F2I(N, T, LO, HI)                                                                   \
  static inline T fz_f2##N(double x) { return (x > (LO) && x < (HI)) ? (T)x : (T)fz_dbits(x); }
FZ_F2I(i8, int8_t, -129.0, 128.0)
FZ_F2I(u8, uint8_t, -1.0, 256.0)
FZ_F2I(i16, int16_t, -32769.0, 32768.0)
FZ_F2I(u16, uint16_t, -1.0, 65536.0)
FZ_F2I(i32, int32_t, -2147483649.0, 2147483648.0)
FZ_F2I(u32, uint32_t, -1.0, 4294967296.0)
FZ_F2I(i64, int64_t, -9223372036854775808.0 - 1.0, 9223372036854775808.0)
FZ_F2I(u64, uint64_t, -1.0, 18446744073709551616.0)
/* NaN to one bit pattern when stored, so that a NaN's sign and payload do not count */
static inline float fz_canon_f32(float x) { return x != x ? __builtin_nanf("") : x; }
static inline double fz_canon_f64(double x) { return x != x ? __builtin_nan("") : x; }
/* operands of float atomic max/min: never a zero (+0 and -0 compare equal) */
static inline float fz_nz_f32(float x) { return x == 0 ? 1.0f : x; }
static inline double fz_nz_f64(double x) { return x == 0 ? 1.0 : x; }
/* the thread's checksum of results (cs) */
static inline uint64_t fz_mix(uint64_t h, uint64_t v) {
  h = (h ^ v) * 0x100000001b3ull;
  return h ^ (h >> 29);
}
static inline uint64_t fz_fbits_f32(float x) {
  union { float f; uint32_t u; } b = {fz_canon_f32(x)};
  return b.u;
}
static inline uint64_t fz_fbits_f64(double x) {
  union { double f; uint64_t u; } b = {fz_canon_f64(x)};
  return b.u;
}
'''

HOST_PRELUDE = r'''
/* ---- host side ---- */
static uint64_t fz_rng;
static uint64_t fz_next(void) { /* splitmix64 */
  uint64_t z = (fz_rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static double fz_rand_double(void) {
  uint64_t k = fz_next() % 100;
  if (k < 3) return (double[]){INFINITY, -INFINITY, NAN, -0.0, 0.0, 1e-310}[fz_next() % 6];
  if (k < 40) return (double)((int)(fz_next() % 41) - 20);
  if (k < 50) { double d; uint64_t u = fz_next(); memcpy(&d, &u, 8); return d; }
  return ((double)(int64_t)fz_next() / 9.2233720368547758e18) * 1000.0;
}
static float fz_rand_f32(void) { return (float)fz_rand_double(); }
static double fz_rand_f64(void) { return fz_rand_double(); }
#define FZ_RAND_INT(N, T)                                                                      \
  static T fz_rand_##N(void) {                                                                 \
    uint64_t k = fz_next() % 4;                                                                \
    return k == 0 ? (T)((int)(fz_next() % 41) - 20) : (T)fz_next();                            \
  }
FZ_RAND_INT(i8, int8_t)
FZ_RAND_INT(u8, uint8_t)
FZ_RAND_INT(i16, int16_t)
FZ_RAND_INT(u16, uint16_t)
FZ_RAND_INT(i32, int32_t)
FZ_RAND_INT(u32, uint32_t)
FZ_RAND_INT(i64, int64_t)
FZ_RAND_INT(u64, uint64_t)

static void *fz_alloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) abort();
  return p;
}

static int fz_launch_no; /* which of a kernel's two launches is being checked */
/* Two elements of a buffer the same? Bit for bit, except that any two NaNs are the same (the
 * sign and payload of a NaN that an operation makes are unspecified: x86 and LLVM's constant
 * folding differ, and stored values are canonicalised only where the generator can). */
static int fz_same(const void *a, const void *b, size_t elem, int is_float) {
  if (memcmp(a, b, elem) == 0) return 1;
  if (!is_float) return 0;
  if (elem == 4) {
    float x, y;
    memcpy(&x, a, 4), memcpy(&y, b, 4);
    return x != x && y != y;
  }
  double x, y;
  memcpy(&x, a, 8), memcpy(&y, b, 8);
  return x != x && y != y;
}
/* got: the kernel's buffer, want: the reference's; bytewise. */
static int fz_compare(int knum, const char *kname, const char *buf, const void *got,
                      const void *want, size_t n, size_t elem, int is_float) {
  if (memcmp(got, want, n * elem) == 0) return 0;
  size_t bad = 0, first = n;
  for (size_t i = 0; i < n; i++)
    if (!fz_same((const char *)got + i * elem, (const char *)want + i * elem, elem, is_float)) {
      if (first == n) first = i;
      bad++;
    }
  if (!bad) return 0;
  uint64_t g = 0, w = 0;
  memcpy(&g, (const char *)got + first * elem, elem);
  memcpy(&w, (const char *)want + first * elem, elem);
  fprintf(stderr, "MISMATCH kernel %d (%s) launch %d buffer %s: %zu of %zu elements differ; first "
          "at [%zu]: kernel 0x%llx, reference 0x%llx\n", knum, kname, fz_launch_no, buf, bad, n, first,
          (unsigned long long)g, (unsigned long long)w);
  return 1;
}
#ifdef FZ_REF_ONLY
#define device_array(T, n) ((T *)0)
#endif
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--kernels', type=int, default=6, help='kernels in the program (6)')
    ap.add_argument('--exclude', default='',
                    help='comma-separated features to leave out: ' + ','.join(FEATURES))
    ap.add_argument('-o', '--output', default='-')
    a = ap.parse_args()
    exclude = [x for x in a.exclude.split(',') if x]
    for x in exclude:
        if x not in FEATURES:
            ap.error('unknown feature %r (known: %s)' % (x, ','.join(FEATURES)))
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, 'fuzz_ref.h')) as f:
        ref_h = f.read()
    cmd = '--seed %d --kernels %d%s' % (a.seed, a.kernels,
                                        ' --exclude ' + ','.join(exclude) if exclude else '')
    text = Gen(a.seed, a.kernels, exclude).program(ref_h, cmd)
    if a.output == '-':
        sys.stdout.write(text)
    else:
        with open(a.output, 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
