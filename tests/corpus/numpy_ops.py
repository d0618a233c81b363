"""NumPy elementwise functions, reductions, products, shapes, indexing and norms."""
import numpy as np

from .case import case, floats, positive


@case(floats((4,)))
def sin_cos(x):
    return np.sum(np.sin(x) * np.cos(2.0 * x))


@case(floats((4,)))
def tanh_exp(x):
    return np.sum(np.tanh(x) + np.exp(0.3 * x))


@case(positive((4,)))
def log_sqrt(x):
    return np.sum(np.log(x) * np.sqrt(x))


@case(floats((3,)))
def square_negative(x):
    return np.sum(np.square(x) - np.negative(x))


@case(floats((2, 3)))
def sum_axis(x):
    return np.sum(np.sum(x, axis=0) ** 2) + np.sum(np.sum(x, axis=1) ** 3)


@case(floats((2, 3)))
def mean_all_and_axis(x):
    return np.mean(x) * np.sum(np.mean(x, axis=0) ** 2)


@case(floats((2, 3)))
def sum_keepdims(x):
    return np.sum(x / (1.0 + np.sum(x * x, axis=1, keepdims=True)))


@case(floats((3,), (3,)))
def dot_vectors(a, b):
    return np.dot(a, b) * np.dot(a, a)


@case(floats((2, 3), (3,)))
def dot_matrix_vector(A, x):
    return np.sum(np.dot(A, x) ** 2)


@case(floats((2, 3), (3, 2)))
def np_matmul(A, B):
    return np.sum(np.matmul(A, B) ** 2)


@case(floats((3,), (2,)))
def outer_product(a, b):
    return np.sum(np.outer(a, b) ** 2)


@case(floats((2, 3)))
def transpose_attribute(A):
    return np.sum(A.T @ A)


@case(floats((2, 3)))
def transpose_function(A):
    return np.sum(np.transpose(A) * np.arange(6.0).reshape(3, 2))


@case(floats((6,)))
def reshape_function(x):
    return np.sum(np.reshape(x, (2, 3)) @ np.ones(3) * np.array([1.0, 2.0]))


@case(floats((6,)))
def reshape_method(x):
    M = x.reshape(3, 2)
    return np.sum(M * M[:, :1])


@case(floats((5,)))
def integer_index(x):
    return x[0] * x[3] + x[-1]


@case(floats((3, 4)))
def index_2d(A):
    return A[1, 2] * A[0, 0] + np.sum(A[2] ** 2)


@case(floats((6,)))
def slicing(x):
    return np.sum(x[1:4] * x[:3]) + np.sum(x[::2])


@case(floats((3, 4)))
def slicing_2d(A):
    return np.sum(A[:, 1:3] ** 2) + np.sum(A[1:, :] * A[:-1, :])


@case(floats((4,)))
def norm_vector(x):
    return np.linalg.norm(x)


@case(floats((2, 3)))
def norm_matrix(A):
    return np.linalg.norm(A) ** 2 + np.linalg.norm(A[0])


@case(floats((4,)))
def maximum_minimum(x):
    return np.sum(np.maximum(x, 0.1) + np.minimum(x, -0.2) * x)


@case(floats((4,)))
def where_select(x):
    return np.sum(np.where(x > 0, x * x, -x))


@case(floats((4,)))
def clip_values(x):
    return np.sum(np.clip(x, -0.5, 0.5) * x)


@case(floats((4,)))
def abs_array(x):
    return np.sum(np.abs(x) * x)


@case(floats((4,), (4,)))
def arctan2_hypot(y, x):
    return np.sum(np.arctan2(y, x) + np.hypot(y, x))


@case(floats((4,)))
def logaddexp(x):
    return np.sum(np.logaddexp(x, 0.5 * x))


@case(positive((3,)))
def power_function(x):
    return np.sum(np.power(x, 1.5) + np.power(2.0, x))


@case(floats((3,)))
def shape_attribute(x):
    n = x.shape[0]
    return np.sum(x * x) / n


@case(floats((2, 3), (3, 2)))
def chained_products(A, B):
    return np.sum(np.tanh(A @ B) @ A)


@case(floats((4,)), wrt="x")
def softmax_like(x):
    e = np.exp(x - 1.0)
    return np.sum(e / np.sum(e) * x)


@case(floats((3, 3)))
def sum_method(A):
    return A.sum() + (A * A).sum(axis=0)[1]
