"""Template helper for np.einsum: the cotangent of an operand is another einsum."""
import numpy as np

from ..registry import template_helper
from .einsum_paths import cached_einsum
from .shape_helpers import sum_to_shape


def einsum_terms(subscripts):
    """The input terms and the output term of `subscripts`, the output made explicit
    (implicit mode: an ellipsis if any, then the labels used once, in ASCII order)."""
    text = subscripts.replace(" ", "")
    inputs, arrow, output = text.partition("->")
    inputs = inputs.split(",")
    if not arrow:
        labels = "".join(inputs).replace(".", "")
        once = sorted(c for c in set(labels) if labels.count(c) == 1)
        output = ("..." if "..." in text else "") + "".join(once)
    return inputs, output


def _label_sizes(term, shape):
    """Size of each label of `term` in an operand of `shape`, and the ellipsis' shape."""
    before, _, after = term.partition("...")
    sizes = dict(zip(before, shape[:len(before)]))
    sizes.update(zip(after, shape[len(shape) - len(after):]))
    return sizes, tuple(shape[len(before):len(shape) - len(after)])


@template_helper
def einsum_vjp(g, k, subscripts, operands):
    """Cotangent of operand `k` of np.einsum(subscripts, *operands) (string subscripts).

    The einsum of `g` with the other operands onto operand k's distinct labels;
    then labels only operand k has are broadcast, dimensions it had as size 1
    (or lacked, under an ellipsis) are summed, and a repeated label (a diagonal)
    is written back through a writeable einsum view of zeros.
    """
    inputs, output = einsum_terms(subscripts)
    x = np.asarray(operands[k])
    term = inputs[k]
    others = inputs[:k] + inputs[k + 1:]
    rest = operands[:k] + operands[k + 1:]
    labels = term.replace("...", "")
    distinct = "".join(dict.fromkeys(labels))
    known = output + "".join(others)
    found = "".join(c for c in distinct if c in known)
    ellipsis = "..." if "..." in known else ""
    spec = ",".join([output] + others) + "->" + ellipsis + found
    cot = cached_einsum(spec, g, *rest, optimize=len(rest) > 1)
    lead = cot.shape[:cot.ndim - len(found)]
    found_sizes = dict(zip(found, cot.shape[len(lead):]))
    cot = cot.reshape(lead + tuple(found_sizes.get(c, 1) for c in distinct))
    sizes, ellipsis_shape = _label_sizes(term, x.shape)
    target = ellipsis_shape + tuple(sizes[c] for c in distinct)
    full = np.broadcast_to(sum_to_shape(cot, target), target)
    x_ellipsis = "..." if "..." in term else ""
    if len(distinct) == len(labels):  # no diagonal: a transpose of `full`
        return np.einsum(x_ellipsis + distinct + "->" + term, full)
    out = np.zeros(x.shape, dtype=full.dtype)
    np.einsum(term + "->" + x_ellipsis + distinct, out)[...] = full
    return out
