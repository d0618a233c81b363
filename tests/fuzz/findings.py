"""Minimal reproducers of the bug classes the issue-12 fuzz classes found (docs/fuzz_findings.md).

    python -m tests.fuzz.findings          # each reproducer's verdict today

Each is judged by the fuzz oracle (tests/fuzz/oracle.py): it must pass or be refused
before generated code runs. tests/test_fuzz_findings.py runs them; OPEN lists the ones
still failing on this branch (xfail, not strict: the fixes land on other branches). The
lead deletes names from OPEN as the fixes merge; a fixed finding then must stay fixed.
"""
from dataclasses import dataclass

import numpy as np

from .program import ARRAY, MATRIX, SCALAR, Case


@dataclass
class Finding:
    name: str
    bug: str           # the bug class (a heading of docs/fuzz_findings.md)
    found_by: str      # a fuzz case showing it: class:seed
    body: str          # module source after `import numpy as np`
    params: tuple      # kinds of f's parameters, in order
    rebinds: tuple = ()
    oracle: str = "gradient"       # or "forward": jvp and hvp (tests/fuzz/oracle_forward.py)
    options: tuple = ()            # (name, value) keyword arguments, not differentiated

    def case(self):
        names = [line for line in self.body.splitlines() if line.startswith("def f(")][0]
        names = names[len("def f("):names.index(")")].split(", *")[0].split(", ")
        source = "import numpy as np\n\n\n" + self.body.strip() + "\n"
        return Case(f"finding {self.name}", 0, source, list(zip(names, self.params)), 3,
                    list(self.rebinds), oracle=self.oracle, options=dict(self.options))


ND, AL, IP, LC, LS, NM, GL = ("no-derivative", "aliasing", "in-place", "loop-carried",
                              "list-reduction", "name-capture", "stale-global")
VS = "view-read-then-stored"      # issue 13's widened fuzzer (docs/fuzz_findings.md, part 2)
CC = "complex-cotangent-of-real"  # session 27's classes (docs/testing.md, "The fuzzer")
SD, SH = "spread-default", "spread-holds-source"   # session 30 (docs/testing.md, fuzz30)
LA, MN = "list-rebound-to-array", "metadata-cotangent-none"   # session 32 (fix)
CK, FW, KO = "checkpointed-loop", "forward-mode", "keyword-only-rebound"   # session 33
S, A, M = SCALAR, ARRAY, MATRIX
FINDINGS = [
    # ---- no-derivative table: a differentiated value gets a zero ---------------------
    Finding("full_fill_value", ND, "no_derivative:20261181",
            "def f(x):\n    return np.sum(np.full(3, x) ** 2)", (S,)),
    Finding("full_like_fill_value", ND, "no_derivative",
            "def f(x, a):\n    return np.sum(np.full_like(a, x) * a)", (S, A)),
    Finding("linspace_endpoints", ND, "no_derivative:20261657",
            "def f(x):\n    return np.sum(np.linspace(x, 2.0, 3) ** 2)", (S,)),
    Finding("geomspace_endpoints", ND, "no_derivative",
            "def f(x):\n    return np.sum(np.geomspace(np.exp(x), 3.0, 3))", (S,)),
    Finding("logspace_endpoints", ND, "no_derivative",
            "def f(x):\n    return np.sum(np.logspace(0.3 * x, 0.5, 3))", (S,)),
    Finding("mod_dividend", ND, "no_derivative:20261132",
            "def f(a):\n    return np.sum(np.sin(a % 1.7))", (A,)),
    Finding("generator_draw_location_scale", ND, "no_derivative",
            "def f(x):\n    rng = np.random.default_rng(0)\n"
            "    return np.sum(rng.normal(x, np.exp(x), size=3))", (S,)),
    Finding("r_concatenation", ND, "no_derivative",
            "def f(x, a):\n    return np.sum(np.r_[a, x * a] ** 2)", (S, A)),
    Finding("fill_local", ND, "no_derivative",
            "def f(x):\n    z = np.zeros(3)\n    z.fill(x)\n    return np.sum(z * z)", (S,)),
    Finding("nondiff_use_leaves_adjoint_unset", ND, "no_derivative:90098",
            "def f(a):\n    b = 2.0 * a\n    rng = np.random.default_rng(0)\n"
            "    d = rng.normal(a[1], 1.0, size=2)\n    return np.sum(b * b) + np.sum(d)", (A,)),
    Finding("global_random_draw_refused_inside", ND, "no_derivative:20261166",
            "def f(x):\n    np.random.seed(0)\n"
            "    return np.sum(np.random.logistic(0.0, np.exp(x), size=3))", (S,)),
    # ---- aliasing: a view taken before a write ----------------------------------------
    Finding("slice_view_then_write", AL, "alias_write:20261428",
            "def f(x, a):\n    b = a.copy()\n    s = b[:2]\n    b[0] = x\n"
            "    return np.sum(s * s)", (S, A)),
    Finding("write_through_transpose", AL, "alias_write:20261286",
            "def f(x, a):\n    b = a.copy()\n    s = b.T\n    s[0] = x\n    return np.sum(b * b)",
            (S, A)),
    Finding("slice_view_then_augmented", AL, "alias_write",
            "def f(x, a):\n    b = a.copy()\n    s = b[:2]\n    b += x\n    return np.sum(s * s)",
            (S, A)),
    Finding("reshape_view_sorted", AL, "alias_write",
            "def f(a):\n    b = np.tanh(a)\n    v = b.reshape(-1)\n    v.sort()\n"
            "    return np.sum(b * a)", (A,)),
    Finding("container_then_augmented", AL, "alias_write:20261488",
            "def f(x, a):\n    b = a.copy()\n    d = {'w': b}\n    b += x\n"
            "    return np.sum(d['w'] ** 2)", (S, A)),
    Finding("list_item_augmented", AL, "alias_write:3360",
            "def f(x, a):\n    b = np.array(a)\n    s = b[1:]\n    h = [b]\n"
            "    h[0] *= np.cos(x * np.sum(a))\n"
            "    return np.sum(np.sin(s)) + np.sum(np.sin(h[0])) + np.sum(b * a) + x", (S, A)),
    Finding("list_item_augmented_unknown_type", AL, "alias_write:20263771",
            "def f(x, a):\n    b = np.tanh(a)\n    h = [b]\n    h[0] += -1.2\n"
            "    return np.sum(np.sin(h[0])) + np.sum(b * a) + x", (S, A)),
    Finding("row_views_symplectic", AL, "alias_write:20261136",
            "def f(x, a):\n    S = np.stack([a, a * x])\n    p = S[0]\n    q = S[1]\n"
            "    S[1] = q - 0.5 * x * p\n    S[0] = p + 0.5 * q\n    return np.sum(S * S)",
            (S, A)),
    Finding("ndarray_view_refused_inside", AL, "alias_write:20261273",
            "def f(a):\n    b = a * 1.0\n    v = b.view()\n    return np.sum(v * v)", (A,)),
    # ---- in-place methods and augmented assignment ------------------------------------
    Finding("sort_argument_mutates_caller", IP, "inplace:20261350",
            "def f(a):\n    a.sort()\n    return a[0] + 2.0 * a[-1]", (A,)),
    Finding("sort_local_gradient", IP, "inplace:20261690",
            "def f(a):\n    b = np.sin(a)\n    b.sort()\n    return b[0] + 2.0 * b[-1]", (A,)),
    Finding("fill_keeps_old_contents_gradient", IP, "inplace:20263252",
            "def f(a):\n    b = 2.0 * a\n    b.fill(0.5)\n    return np.sum(b * b) + np.sum(a)",
            (A,)),
    Finding("clip_out_not_differentiated", IP, "inplace:20263362",
            "def f(a):\n    b = 2.0 * a\n    np.clip(b, -0.6, 0.6, out=b)\n"
            "    return np.sum(b * b)", (A,)),
    Finding("augmented_argument_runtime_typeerror", IP, "inplace:20261143",
            "def f(x, a):\n    a -= x\n    return np.sum(a * a)", (S, A)),
    # ---- loop-carried values: the backward sweep reads an unset adjoint ---------------
    Finding("prev_cur", LC, "loop_carried:20261131",
            "def f(x):\n    total = 0.0\n    prev = x\n    for i in range(2):\n"
            "        cur = 2.0 * x\n        total = total + cur * prev\n        prev = cur\n"
            "    return total", (S,)),
    Finding("temporary_read_twice", LC, "loop_carried",
            "def f(x):\n    u = x\n    t = 0.0\n    for i in range(2):\n"
            "        h = np.tanh(u * u)\n        t = t + h\n        u = np.tanh(u + h)\n"
            "    return t", (S,)),
    Finding("allocated_in_body", LC, "loop_carried",
            "def f(x):\n    s = 0.0\n    for i in range(2):\n        v = np.zeros(2)\n"
            "        v[0] = x\n        s = s + np.sum(v * v)\n    return s", (S,)),
    Finding("copy_write_rebind", LC, "loop_carried",
            "def f(a):\n    u = a.copy()\n    for i in range(2):\n        un = u.copy()\n"
            "        un[1:] = u[1:] + 0.1 * u[:-1]\n        u = un\n    return np.sum(u * u)",
            (A,)),
    # ---- lists of arrays reduced by NumPy ---------------------------------------------
    Finding("np_sum_of_appended_list", LS, "array_lists:20261290",
            "def f(a):\n    xs = []\n    for i in range(2):\n        xs.append(a * i)\n"
            "    return np.sum(xs)", (A,)),
    Finding("np_mean_of_comprehension", LS, "array_lists:20261153",
            "def f(a):\n    xs = [a * i for i in range(2)]\n    return np.mean(xs)", (A,)),
    # ---- user names the generated code uses ------------------------------------------
    Finding("global_named_like_a_runtime_class", NM, "vocabulary:20262984",
            "MatmulLhsSum = 0.7\n\n\ndef f(x):\n    return np.tanh(MatmulLhsSum * x)", (S,)),
    Finding("param_named_iterable", NM, "vocabulary:70035",
            "def f(iterable):\n    t = 0.0\n    for v in iterable:\n        t = t + np.sin(v)\n"
            "    return t", (A,)),
    Finding("loop_variable_named_own", NM, "vocabulary:70162",
            "def f(x, a):\n    s = 0.0\n    for own in a:\n        s = np.tanh(s * x)\n"
            "    return s + x", (S, A)),
    Finding("param_named_tape", NM, "vocabulary:70083",
            "def f(tape):\n    s = 0.0\n    for i in range(2):\n        s = np.sin(s + tape[0])\n"
            "    return s", (A,)),
    Finding("loop_over_param_named_tape", NM, "vocabulary:20265695",
            "def f(x, tape):\n    s = 0.0\n    for v in tape:\n        s = np.tanh(s + x * v)\n"
            "    return s", (S, A)),
    Finding("global_named_pullback", NM, "vocabulary:20262133",
            "pullback = 1.5\n\n\ndef f(x):\n    return np.tanh(pullback * x)", (S,)),
    Finding("local_named_pop_holding_a_tuple", NM, "vocabulary:20261975",
            "def cell(a, b):\n    return np.sin(a * b), b\n\n\n"
            "def f(x, a):\n    cur = np.zeros(3)\n    for v in a:\n        pop = cell(x, cur + a)\n"
            "        cur = pop[1]\n    return np.sum(cur * cur)", (S, A)),
    Finding("local_named_accum_nested", NM, "vocabulary:70233",
            "def f(x):\n    accum_nested = np.sin(x)\n    return accum_nested * x + x", (S,)),
    Finding("local_named_underscore", NM, "vocabulary:70365",
            "def f(x):\n    _ = 0.0\n    for i in range(2):\n        _ = np.sin(_ + x)\n"
            "    return _ * _", (S,)),
    Finding("helper_named_like_runtime_helper", NM, "vocabulary:70461",
            "def not_shared_array(w, h):\n    return np.tanh(w * h), h\n\n\n"
            "def f(x):\n    h, c = not_shared_array(0.5, 2.0)\n    return x * h + c", (S,)),
    Finding("helper_named_reversed", NM, "vocabulary:70021",
            "def reversed(a, b):\n    return np.sin(a) * b, b\n\n\n"
            "def f(x):\n    s = x\n    for i in range(2):\n        s, t = reversed(s, x)\n"
            "    return s", (S,)),
    # ---- globals rebound between calls ------------------------------------------------
    Finding("scalar_global_rebound", GL, "global_rebind:20261195",
            "lam = 0.5\n\n\ndef f(x):\n    return np.sin(lam * x)", (S,), ("lam = 1.5",)),
    Finding("array_global_rebound", GL, "global_rebind:90020",
            "W = np.linspace(-0.5, 0.8, 3)\n\n\ndef f(a):\n    return np.sum(np.tanh(W * a))",
            (A,), ("W = W * 2.0 + 0.1",)),
    Finding("callable_global_rebound", GL, "global_rebind:20261186",
            "act = np.tanh\n\n\ndef f(x):\n    return act(x)", (S,), ("act = np.sin",)),
    # ---- issue 13: a view the backward sweep reads, changed by a later element store --
    Finding("slice_scaled_in_place", VS, "tensors:1068",
            "def f(x, a):\n    b = a * 1.0\n    b[:2] *= x\n    return np.sum(np.tanh(b))",
            (S, A)),
    Finding("row_read_then_overwritten", VS, "tensors:1068",
            "def f(x, a):\n    S = np.zeros((2, 3))\n    S[0] = a\n    S[1] = S[0] * x\n"
            "    S[0] = S[1] * x\n    return np.sum(np.tanh(S))", (S, A)),
    Finding("store_through_view_of_a_read_base", VS, "tensors:101277",
            "def f(a):\n    v = a * 1.0\n    w = v.reshape(-1)\n    w[::-1] += np.cos(v)\n"
            "    return np.sum(np.tanh(w))", (A,)),
    # ---- session 27: np.array(x, dtype=complex) gave a real x a complex cotangent ------
    Finding("complex_array_of_real_with_a_second_path", CC, "complex_values:270245",
            "def f(x, a):\n    v2 = np.array(a * 1.0, dtype=complex)\n"
            "    v3 = a * x + 1j * np.cos(a)\n    return np.sum(np.real(v2)) + np.sum(np.imag(v3))",
            (S, A)),
    # ---- session 30: f(*xs) leaving a default; {**p} / [*xs] taken to hold p / xs -----
    Finding("spread_leaves_a_default_unfilled", SD, "idioms (gen_operators._spread_call)",
            "def h(p, q, r=0.5):\n    return np.tanh(p * q) + r\n\n\n"
            "def f(x, a):\n    xs = [a * x]\n    for k in range(1, min(len(a), 3) - 1):\n"
            "        xs.append(x + k)\n    return np.sum(h(*xs))", (S, A)),
    Finding("dict_spread_then_source_merged", SH, "idioms (gen_operators._dict_merge)",
            "def f(x, a):\n    p = {'w': a * x, 'b': np.tanh(x)}\n    q = {**p, 'c': x}\n"
            "    p |= {'b': x * x}\n    return q['b'] * p['b'] + np.sum(q['w']) * q['c']",
            (S, A)),
    # ---- session 32: a list's name rebound to its array; `.shape` of an unknown kind ---
    Finding("appended_list_rebound_to_its_array", LA, "array_lists (_rebound_to_array)",
            "def f(x, a):\n    xs = [a, a * x]\n    for k in range(2):\n"
            "        xs.append(xs[-1] * 0.5)\n    xs = np.array(xs)\n"
            "    return np.sum(xs[:, 0] ** 2) + np.sum(xs[-1] * a)", (S, A)),
    Finding("shape_of_a_list_entry_then_used", MN, "array_lists (_rebound_to_array)",
            "def f(x, a):\n    parts = [a, a * x]\n    q = parts[0]\n"
            "    return np.sum(q * q) * np.tanh(np.sum(q)) / q.shape[0]", (S, A)),
    # ---- session 33 (fuzz): checkpointed loops and forward mode in the fuzzer ----------
    Finding("checkpointed_loop_carries_closures", CK, "checkpointed_loops:1023",
            "from transform import checkpointed\n\n\ndef f(x, a):\n    fs = []\n    w = a * x\n"
            "    for t in checkpointed(range(2), snapshots=2):\n"
            "        fs.append(lambda v, t=t: v * w[t])\n    return sum(g(x) for g in fs)",
            (S, A)),
    Finding("while_inside_a_checkpointed_loop", CK, "checkpointed_loops:330054",
            "from transform import checkpointed\n\n\ndef f(x):\n"
            "    for t in checkpointed(range(2), snapshots=1):\n        k = 0\n"
            "        while k < 2:\n            x = np.sin(x)\n            k += 1\n    return x",
            (S,)),
    Finding("checkpointed_body_changes_an_object", CK, "checkpointed_loops:330861",
            "from transform import checkpointed\n\n\nclass Cell:\n    def __init__(self, w):\n"
            "        self.w = w\n        self.h = 0.0\n\n    def step(self, x):\n"
            "        self.h = np.tanh(self.w * x + self.h * 0.5)\n        return self.h\n\n\n"
            "def f(x, a):\n    c = Cell(a * x)\n"
            "    for t in checkpointed(range(3), snapshots=3):\n        c.step(x + t * 0.1)\n"
            "    return np.sum(c.h)", (S, A)),
    Finding("keyword_only_parameter_rebound", KO, "forward_mode:4238 (hvp)",
            "def f(x, *, k):\n    t = k * x\n    k = t\n    return np.sum(k * x)", (A,),
            options=(("k", np.array([1.5, 0.4, -0.3])),)),
    Finding("argument_rebound_twice_hvp", KO, "forward_mode:4238",
            "def f(a):\n    a = np.exp(a)\n    a = np.tanh(a)\n    return np.sum(a)", (A,),
            oracle="forward"),
    Finding("loop_target_over_a_range_tangent", FW, "forward_mode:3161",
            "def f(x, a):\n    y = a * x\n    for y in range(1):\n        x = x * 1.0\n"
            "    return x * y + np.sum(a)", (S, A), oracle="forward"),
    Finding("enumerate_index_reuses_a_name_tangent", FW, "forward_mode:3161",
            "def f(x, a):\n    y = a * x\n    for y, z in enumerate([a, a]):\n"
            "        x = x * 1.0\n    return np.sum(y * a) + x", (S, A), oracle="forward"),
    Finding("lstsq_tangent_from_both_operands", FW, "forward_mode:3096",
            "def f(x, b):\n    m = 1.5 * np.eye(3) + 0.2 * np.tanh(x * np.ones((3, 3)))\n"
            "    return np.sum(np.sin(np.linalg.lstsq(m, b, rcond=None)[0]))", (S, A),
            oracle="forward"),
    Finding("active_name_from_inactive_difference", FW, "forward_mode:3215",
            "def f(x, a):\n    y = a - a\n    s = np.sum(y * x)\n"
            "    for y in [a * x, a]:\n        s = s + np.sum(np.tanh(y * x))\n"
            "    return s + np.sum(y * x)", (S, A), oracle="forward"),
    # session 34 (fuzzgen)
    Finding("list_entry_nothing_reads_hvp", FW, "forward_mode:34221",
            "def f(x, a):\n    out = [0.0, 0.0]\n    for k in range(2):\n"
            "        out[k] = x * x * np.sum(a)\n    return out[0]", (S, A), oracle="forward"),
    Finding("frozen_distribution_of_two_values_tangent", FW, "forward_mode:34072",
            "import scipy.stats\n\n\ndef f(x, y):\n"
            "    return scipy.stats.norm(x, 1.5 + np.tanh(y)).pdf(0.3)", (S, S),
            oracle="forward"),
    # session 37 (starred): hvp route forward_over_reverse judged by the forward oracle
    Finding("rows_without_tangent_joined_first_hvp_fr", FW, "forward_mode:3749",
            "def f(x, a):\n    rows = [np.cos(a), a * 0.5]\n    w = np.stack([*rows, a * x])\n"
            "    return np.sum(w ** 2 * np.arange(1.0, 4.0)[:, None])", (S, A),
            oracle="forward"),
    Finding("starred_rest_of_appended_list_unread", LS, "forward_mode:4704",
            "def f(x, a):\n    ys = []\n    for k in range(2):\n"
            "        ys.append(np.tanh(a * (k + 0.5)))\n    *rest, last = [*ys, a * x]\n"
            "    return np.sum(np.tanh(last)) * (1.0 + len(rest))", (S, A)),
    Finding("ndarray_named_fields_hvp_fr_wrong", FW, "forward_mode:3795",
            "class V2:\n    def __init__(self, w, b):\n        self.ndim = w * b\n"
            "        self.real = b\n\n    def dot(self, t):\n"
            "        return np.dot(self.ndim, t) * self.real\n\n\n"
            "def f(x, a):\n    v = V2(x * np.linspace(0.5, 1.5, 3) * a, np.tanh(x))\n"
            "    return np.sum(v.dot(a)) + np.sum(v.ndim * a)", (S, A), oracle="forward"),
]
# (ndarray_named_fields_hvp_fr_wrong: forward over reverse took `v.ndim` of the value
# `rule_call` returned as an array's, with no tangent; also a TypeError when it ran,
# forward_mode:20261145, 3860, 4020, 4031; fixed: receiver_kinds asks the rule)
OPEN = set()            # every finding is fixed: right, or refused before code runs


def main():
    from .oracle import judge
    for finding in FINDINGS:
        verdict = judge(finding.case())
        print(f"{finding.bug:<15} {finding.name:<38} {verdict.outcome:<8} {verdict.kind}")


if __name__ == "__main__":
    main()
