"""BatchProducts on a typed loop built by hand (as reverse mode builds it): an outer
product into dW is batched, unless its cotangent is (a name bound to) one the loop
changes in place afterwards, which a batch holding it by reference would then see."""
import gast

from transform.ir.generated import AddProduct, ProductSum, typed_for
from transform.ir.nodes import load, store
from transform.ir.statements import Accumulate
from transform.ir.vocabulary import Vocabulary
from transform.optimize.batch_products import batch_products


def _loop(names, copy_of_changed):
    """for _ in reversed(steps): dt2 = <dv | g * 2>; dW = accumulate_into(dW,
    matmul_lhs(dt2, W, x)); dv += dt2 (dt2 an alias of dv when `copy_of_changed`)."""
    value = load("dv") if copy_of_changed else gast.BinOp(left=load("g"), op=gast.Mult(),
                                                          right=gast.Constant(2.0, None))
    product = names.call("matmul_lhs", load("dt2"), load("W"), load("x"))
    body = [Accumulate("dt2", value, "set"),
            Accumulate("dW", product, "accumulate_into"),
            Accumulate("dv", load("g"), "in_place")]
    return typed_for(store("_"), names.call("reversed", load("steps")), body)


def _batched(copy_of_changed):
    names = Vocabulary(set())
    backward = [_loop(names, copy_of_changed)]
    batch_products(backward, names)
    return [type(s).__name__ for s in backward], \
        [type(s).__name__ for s in backward[-2 if len(backward) > 1 else 0].body]


def test_an_outer_product_in_a_loop_is_batched():
    top, body = _batched(False)
    assert top == [ProductSum.__name__, "For", Accumulate.__name__]
    assert AddProduct.__name__ in body


def test_a_copy_of_a_cotangent_changed_in_place_is_not_batched():
    top, body = _batched(True)
    assert top == ["For"] and AddProduct.__name__ not in body
