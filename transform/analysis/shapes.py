"""Stage 5, analyze: which names certainly have the same shape, so `unbroadcast` can go.

    t1 = x * 0.999          t1 ~ x        (a scalar constant broadcasts to x's shape)
    t2 = math.sin(x)        t2 ~ scalar
    x = t1 + t3             x ~ x         (every definition of x agrees)

In the adjoint of `x = t1 + t3`, `unbroadcast(dx, t1)` is then just `dx`, and
the tape need not keep t1 for its shape. A name with definitions that
disagree gets a class of its own (sound, not clever).
"""
import operator

import gast
import numpy as np

from runtime import TEMPLATE_NAMESPACE
from runtime.traits import PRIMITIVE

from .activity import defined, walk
from .complex_seeds import has_complex_literal, is_seed_call
from .index_shapes import indexing_rule, joining_rule, literal_axis, reducing_rule
from ..ir import statements as ir
from ..ir.nodes import walk as walk_node
from ..ir.primitives import rule_for

SCALAR = "scalar"
UNKNOWN = "unknown yet"
# facts about primitives, declared beside their rules (runtime/traits.py)
_ELEMENTWISE = PRIMITIVE["elementwise"]
_SCALAR_RESULT = PRIMITIVE["scalar_result"]
_SCALAR_ARGS = PRIMITIVE["scalar_args"]
_FULL_REDUCTIONS = PRIMITIVE["full_reduction"]
_PRODUCT_OR_REPEAT = TEMPLATE_NAMESPACE["product_or_repeat"]
_JOINS = {np.concatenate: False, np.stack: True}        # the join adds an axis?
# reverse mode's cotangent helpers, which forward mode meets in the flat gradient (hvp
# forward over reverse, transform/flat_gradient.py): the cotangent of an argument has
# that argument's shape (`matmul_lhs(g, a, b)`, a's in `a @ b`)
_COTANGENT_OF = {TEMPLATE_NAMESPACE[name]: param for name, param in (
    ("matmul_lhs", "a"), ("matmul_rhs", "b"), ("unbroadcast", "x"), ("unreduce", "x"),
    ("extremum_vjp", "a"), ("getitem_vjp", "x"), ("product_or_repeat_vjp", "x"))}


def _complex_seed(statement, prim):
    """Whether the statement may make a complex value from real ones (complex_seeds.py)."""
    if prim is None:            # `t = 1j`: normalized statements hold atoms only
        value = getattr(statement, "value", None)
        return isinstance(value, gast.Constant) and has_complex_literal(value)
    if prim.kind == "rule" and is_seed_call(prim.fn):
        return True
    return any(has_complex_literal(atom) for atom in prim.inputs.values())


def _definition(s, prim):
    """What a typed statement's definition of a name computes: SCALAR (`s = 0.0`),
    SETITEM (`x[i] = v`), its Prim (an assignment), else None."""
    node = s.node
    if isinstance(node, gast.Assign) and isinstance(node.value, gast.Constant) \
            and type(node.value.value) in (int, float):
        return SCALAR
    if isinstance(s, ir.SetItem):
        return SETITEM
    return prim if isinstance(node, gast.Assign) and prim else None


def _reduces_everything(prim):
    """np.sum(x) with axis=None and keepdims=False: a scalar whatever x's shape."""
    axis, keep = prim.inputs.get("axis"), prim.inputs.get("keepdims")
    none = isinstance(axis, gast.Constant) and axis.value is None
    flat = keep is None or isinstance(keep, gast.Constant) and keep.value is False
    return none and flat


# rules whose cotangents are arrays or numbers (never containers)
NUMERIC = PRIMITIVE["numeric"]


SETITEM = "setitem"   # a definition `x[i] = v`: keeps the shape of an array x


def _array_shape(cls):
    """Whether `cls` is the concrete shape of an array (so an item write keeps it)."""
    return isinstance(cls, str) and cls.startswith("shape:")


class Element:
    """The definition of a loop target: one element of the sequence `seq`."""

    def __init__(self, seq):
        self.seq = seq


class ShapeClasses:
    """Shape classes of names. `signature` (param -> class, from `shape_key` on the
    arguments of a call) makes parameters' shapes concrete, so derived shapes can be
    computed (`W @ x` with W 10x10 and x of 10 is a 10-vector)."""

    def __init__(self, body, params, signature=None):
        self.defs = {}
        scalar_args = self._definitions(body)
        known = signature or {}
        self.param_class = {p: known.get(p) or "param:" + p for p in params}
        self.cls = dict(self.param_class)
        self.params = set(params)
        self.derived = {}        # (rule, input classes) -> the class of its result
        self._solve()
        self._scalar_evidence(scalar_args)

    def _definitions(self, body):
        """Fill self.defs (name -> what each definition computes) in one scan of the
        typed body; returns the atoms passed to `math.sin` & co."""
        defs, scalar_args = self.defs, []
        self.may_complex = False        # docs/complex.md: a scalar's 0.0 stand-in is real
        self.stood_in = False           # set when a template took that stand-in
        self.unguarded = False          # set when a rule's complex guard was left out
        for s, _ in walk(body):
            prim = getattr(s, "prim", None)         # any statement's, as defined or not
            if not self.may_complex:
                self.may_complex = _complex_seed(s.node, prim)
            if isinstance(s, ir.RuleCall) and prim.fn in _SCALAR_ARGS:
                scalar_args.extend(s.inputs.values())
            if isinstance(s, ir.For):
                element = isinstance(s.target, gast.Name) and getattr(s, "iter_kind", "") == "seq"
                for name in _names(s.target):
                    defs.setdefault(name, []).append(Element(s.seqs[0]) if element else None)
                continue
            names, prim = defined(s)
            for name in names:
                defs.setdefault(name, []).append(_definition(s, prim))
        return scalar_args

    def _scalar_evidence(self, atoms):
        """A uniform class with a member passed to `math.sin` & co. (`atoms`) is scalar
        throughout."""
        scalar = {c for c in map(self.of, atoms) if c.startswith("param:")}
        if scalar:
            self.cls = {n: SCALAR if c in scalar else c for n, c in self.cls.items()}

    def _solve(self):
        """Optimistic fixpoint: a name starts unknown and settles on the class all its
        definitions agree on (a loop-carried `s = s + t` is scalar if `s = 0.0` and t are)."""
        for _ in range(50):
            changed = False
            for name, prims in self.defs.items():
                new = self._class_of_defs(name, prims)
                if self.cls.get(name, UNKNOWN) != new:
                    self.cls[name] = new
                    changed = True
            if not changed:
                break
        self.cls = {n: ("own:" + n if c == UNKNOWN else c) for n, c in self.cls.items()}

    def _class_of_defs(self, name, prims):
        if len(prims) == 1 and name not in self.params:     # most names: one definition
            return self._class_of(prims[0], name)
        classes = {self._class_of(prim, name) for prim in prims if prim is not SETITEM}
        classes.discard(UNKNOWN)
        if name in self.params:
            classes.add(self.param_class[name])
        if not classes:
            return UNKNOWN
        one = classes.pop() if len(classes) == 1 else "own:" + name
        if SETITEM in prims and not _array_shape(one):
            return "own:" + name        # `xs[1:] = [...]` may change a list's length
        return one

    def _class_of(self, prim, name):
        if prim is SCALAR:
            return SCALAR
        if prim is None or prim is SETITEM:      # SETITEM alone: a name bound elsewhere
            return "own:" + name
        if isinstance(prim, Element):
            return element_class(self.cls.get(prim.seq, UNKNOWN), name)
        if prim.kind == "copy":
            return self.of(prim.args[0])
        if prim.kind == "rule" and prim.fn is np.copy and prim.inputs:
            same = self.of(next(iter(prim.inputs.values())))
            return same if same == UNKNOWN or _array_shape(same) else "own:" + name
        if prim.kind != "rule":
            return "own:" + name
        fn, atoms = prim.fn, list(prim.inputs.values())
        if fn in _COTANGENT_OF and _COTANGENT_OF[fn] in prim.inputs:
            return self.of(prim.inputs[_COTANGENT_OF[fn]])
        if fn in _SCALAR_RESULT or fn in _FULL_REDUCTIONS and _reduces_everything(prim):
            return SCALAR
        if reducing_rule(prim) is not None and atoms:       # `np.sum(t, axis=1)`
            return derived_class(reducing_rule(prim), (self.of(atoms[0]),), name)
        arity = len(prim.rule.params) if fn in _ELEMENTWISE or self._numeric_product(prim) \
            else 0
        if arity == 1 and atoms:
            return self.of(atoms[0])
        if arity == 2 and len(atoms) >= 2:
            a, b = self.of(atoms[0]), self.of(atoms[1])
            if UNKNOWN in (a, b):
                return UNKNOWN
            if b == SCALAR or a == b:
                return a
            if a == SCALAR:
                return b
            return derived_class(np.broadcast_shapes, (a, b), name, self.derived)
        if fn in (operator.matmul, np.matmul) and len(atoms) >= 2:
            return derived_class(matmul_shape, (self.of(atoms[0]), self.of(atoms[1])), name,
                                 self.derived)
        if fn is operator.getitem and len(atoms) >= 2:
            if isinstance(atoms[1], gast.Constant) and type(atoms[1].value) is int:
                part = part_class(self.of(atoms[0]), atoms[1].value, name)
                if part is not None:             # `W = params[0]` of a tuple of arrays
                    return part
            rule = indexing_rule(atoms[1])
            if rule is not None:
                return derived_class(rule, (self.of(atoms[0]),), name)
        if fn in _JOINS:
            return self._joined(prim, name)
        return "own:" + name

    def _numeric_product(self, prim):
        """`2 * t` may repeat a list, but not when both operands are of known shape
        (arrays or numbers): then it multiplies, elementwise."""
        return prim.fn is _PRODUCT_OR_REPEAT and \
            all(shape_of(self.of(a)) is not None for a in prim.inputs.values())

    def settle_products(self, body):
        """`2 * t` of two operands of known shape multiplies: its statement gets the rule
        of `*` (whose adjoint reads neither operand to tell a list from an array).

            t3 = 2 * t2    # product_or_repeat, t2 shape:254  ->  operator.mul
        """
        mul = rule_for(operator.mul)
        for s, _ in walk(body):
            if isinstance(s, ir.RuleCall) and self._numeric_product(s.prim):
                s.prim.fn, s.prim.rule = operator.mul, mul

    def _joined(self, prim, name):
        """np.concatenate/np.stack of a list display bound once, on a literal axis."""
        arrays, axis = prim.inputs.get("arrays"), literal_axis(prim.inputs.get("axis"))
        defs = self.defs.get(arrays.id) if isinstance(arrays, gast.Name) else None
        if axis is None or not defs or len(defs) != 1 or arrays.id in self.params \
                or getattr(defs[0], "kind", None) != "pack" or not defs[0].args:
            return "own:" + name
        parts = tuple(self.of(a) for a in defs[0].args)
        return derived_class(joining_rule(axis, _JOINS[prim.fn]), parts, name)

    def of(self, atom):
        """The shape class of an atom (a Name or a Constant)."""
        if isinstance(atom, gast.Constant):
            value = atom.value
            return SCALAR if isinstance(value, (int, float)) and not isinstance(value, bool) \
                else "const"
        if isinstance(atom, gast.Name):
            return self.cls.get(atom.id, UNKNOWN)
        return "unknown"

    def same(self, atom, name):
        """Whether `atom` certainly has the shape of the name `name`."""
        a = self.of(atom)
        return a not in ("unknown", "const", UNKNOWN) and a == self.cls.get(name) \
            and not a.startswith(("items:", "parts:"))      # lists: `+` concatenates


# ---- concrete shapes (from the arguments of a call) ---------------------------------
def shape_key(value):
    """What an argument says about shapes, cheaply (a call's cache key): an array's
    shape, () for a float, ("items", shape) for a list of arrays of one shape,
    ("parts", shapes) for a tuple (or other list) of arrays and floats, or None."""
    if type(value) is np.ndarray:
        return value.shape
    if type(value) is float or isinstance(value, np.floating):
        return ()
    if (type(value) is list or type(value) is tuple) and value:
        return _container_key(value)
    if isinstance(value, np.ma.MaskedArray):
        from ..public.boundary import refuse_masked      # values imports runtime: resolve it late
        refuse_masked(value)
    return None


def signature_of(args):
    """What positional arguments say about shapes (`shape_key`), or None."""
    ndarray = np.ndarray                                   # arrays and floats: no call
    signature = tuple([a.shape if type(a) is ndarray else () if type(a) is float
                       else shape_key(a) for a in args])
    return None if signature.count(None) == len(signature) else signature


_MAX_PARTS = 8          # longer containers are data (a list of samples), not parameters


def _container_key(value):
    """("items", shape) or ("parts", shapes) for a list or tuple (see shape_key)."""
    if type(value) is list and type(value[0]) is np.ndarray:
        shape = value[0].shape
        if all(type(v) is np.ndarray and v.shape == shape for v in value):
            return ("items", shape)
    if len(value) > _MAX_PARTS:
        return None
    shapes = tuple([v.shape if type(v) is np.ndarray else () if type(v) is float else None
                    for v in value])
    return None if None in shapes else ("parts", shapes)


def class_of_key(key):
    """The shape class a `shape_key` stands for: `parts:` lists its parts' classes."""
    if key and key[0] == "items":
        return "items:" + concrete(key[1])
    if key and key[0] == "parts":
        return "parts:" + "|".join(map(concrete, key[1]))
    return concrete(key)


def part_class(seq_class, index, name):
    """The class of `seq[index]` (a constant int) for a `parts:` sequence, else None."""
    if not (isinstance(seq_class, str) and seq_class.startswith("parts:")):
        return None
    parts = seq_class[6:].split("|")
    return parts[index] if -len(parts) <= index < len(parts) else "own:" + name


def concrete(shape):
    return SCALAR if shape == () else "shape:" + ",".join(map(str, shape))


def shape_of(cls):
    """The tuple a concrete class stands for, else None."""
    if cls == SCALAR:
        return ()
    if isinstance(cls, str) and cls.startswith("shape:"):
        return tuple(int(n) for n in cls[6:].split(","))
    return None


def derived_class(rule, classes, name, known=None):
    """The class of a result whose shape `rule` computes from concrete input shapes;
    from parameters' shapes not known yet, a class naming the computation (two names
    computed alike from the same parameters' shapes have one shape). `known`: the
    answers found so far, (rule, classes) -> class (OWN: the result's own)."""
    if UNKNOWN in classes:
        return UNKNOWN
    found = known.get((rule, classes)) if known is not None else None
    if found is None:
        found = _derived(rule, classes, known)
        if known is not None:
            known[(rule, classes)] = found
    return "own:" + name if found is OWN else found


OWN = "own"          # a result of no class another name can share


def _derived(rule, classes, known):
    shapes = [shape_of(c) for c in classes]
    if any(s is None for s in shapes):
        return OWN if known is None else _symbolic(rule, classes, len(known))
    try:
        return concrete(tuple(rule(*shapes)))
    except (ValueError, IndexError):
        return OWN


# the rules a symbolic class may name (a lambda's name would not tell two apart)
_SYMBOLIC = {"broadcast_shapes": "broadcast", "matmul_shape": "matmul"}


def _symbolic(rule, classes, number):
    """`of:matmul1` (numbered in the order first met): sound because each input class
    is one shape for the whole call (a parameter's, a concrete one, or another such
    computation), never `own:` (a name whose shape may change from one definition to
    the next)."""
    tag = _SYMBOLIC.get(getattr(rule, "__name__", None))
    if tag is None or not all(c == SCALAR or c.startswith(("param:", "shape:", "of:"))
                              for c in classes):
        return OWN
    return f"of:{tag}{number}"


def element_class(seq_class, name):
    """The class of one element of a sequence of class `seq_class`."""
    if seq_class == UNKNOWN:
        return UNKNOWN
    if isinstance(seq_class, str) and seq_class.startswith("items:"):
        return seq_class[6:]
    shape = shape_of(seq_class)
    return concrete(shape[1:]) if shape else "own:" + name


def matmul_shape(a, b):
    """np.matmul's result shape for operand shapes a and b (ValueError if they clash)."""
    if not a or not b:
        raise ValueError("matmul of a scalar")
    a2, b2 = (1,) + a if len(a) == 1 else a, b + (1,) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ValueError("matmul: inner dimensions differ")
    shape = np.broadcast_shapes(a2[:-2], b2[:-2]) + (a2[-2], b2[-1])
    if len(a) == 1:
        shape = shape[:-2] + shape[-1:]
    if len(b) == 1:
        shape = shape[:-1]
    return shape


def _names(target):
    return [n.id for n in walk_node(target) if isinstance(n, gast.Name)]
