"""Programs a red team wrote against session 31's issue-19 rewrites (round 31c): unbroadcasts
written out as sums and partial spreads as views (nbody31), np.linalg.solve of a Cholesky
factor as a triangular solve with a BLAS Cholesky cotangent (gp31), np.mean's divided
cotangent (logit31). Each targets a way the rewrite could go wrong (the factor written
into before or between solves, the same cotangent spread twice, negative and tuple axes,
size-1 axes, loop-carried reductions, shapes growing in a loop, a batched factor); all
passed in round 31c and keep guarding. Each runs against finite differences under every
policy like the rest of the corpus."""
import numpy as np

from .case import case, floats, mixed, positive


# ---- partial reductions' spreads and unbroadcasts (nbody31) ----------------------------

@case(mixed(floats((5, 3)), positive((5,), low=1.0)), wrt=(0, 1))
def softened_forces_kept_r2(x, m):
    d = x[:, None, :] - x[None, :, :]
    r2 = np.sum(d * d, axis=-1, keepdims=True) + 0.1
    f = np.sum(m[None, :, None] * d / r2 ** 1.5, axis=1)
    return np.sum(f ** 2)


@case(floats((4, 3)), wrt=0)
def row_sum_spread_three_ways(x):
    s = np.sum(x, axis=1)
    return np.sum(s * x[:, 0]) + np.sum((x - s[:, None]) ** 2) + np.sum(s ** 3)


@case(floats((3, 4, 2)), wrt=0)
def negative_tuple_axes_and_max(x):
    s = np.sum(x, axis=(-1, 0), keepdims=True)
    t = np.max(x, axis=-2)
    return np.sum(x * s) + np.sum(t[:, None, :] * x)


@case(floats((4, 1)), wrt=0)
def reduced_axis_of_size_one(x):
    s = np.sum(x, axis=1)
    return np.sum(x * s[:, None] * 2.0) + np.sum(s)


@case(floats((4, 3), ()), wrt=(0, 1))
def column_mean_times_scalar(x, c):
    s = np.mean(x, axis=0)
    return np.sum(s * c * x) + np.sum(s + c)


@case(floats((5, 3)), wrt=0)
def sliding_row_energies(x):
    out = 0.0
    for i in range(3):
        s = np.sum(x[i:i + 2] ** 2, axis=1)
        out = out + np.sum(s[:, None] * x[i:i + 2])
    return out


@case(floats((3, 2)), wrt=0)
def rows_appended_in_a_loop(x):
    out = 0.0
    for _ in range(3):
        x = np.concatenate([x, x[:1] * 0.5])
        s = np.sum(x, axis=1)
        out = out + np.sum(s[:, None] * x)
    return out


@case(floats((3, 4), scale=0.5), wrt=0)
def spread_cotangent_reused(x):
    y = np.sum(x, axis=1) ** 2
    return np.sum(y[:, None] * x) + np.sum(y[:, None] - x) + np.sum(np.sin(y))


@case(floats((3, 4), scale=0.5), wrt=0)
def kept_sum_written_into_its_accumulator(x):
    acc = x * 0.0
    for _ in range(3):
        s = np.sum(acc + x, axis=1, keepdims=True)
        acc = acc + s * x
        acc[0] += s[0]
    return np.sum(acc ** 2)


@case(floats((3, 4), scale=0.5), wrt=0)
def column_sums_stored_by_row(x):
    acc = np.zeros_like(x)
    for k in range(3):
        s = np.sum(x * (k + 1.0), axis=0)
        acc[k] = acc[k] + s * x[k]
    return np.sum(acc ** 2) + np.sum(acc * x)


@case(floats((4, 4), (4,), (3, 4)), wrt=(0, 1, 2))
def recurrence_by_row_sums(W, h, xs):
    for k in range(3):
        h = np.tanh(np.sum(W * h[None, :], axis=1) + xs[k])
    return np.sum(h ** 2)


@case(floats((4, 4), (4, 1), scale=0.5), wrt=(0, 1))
def kept_sum_of_itself(W, s):
    for _ in range(3):
        s = np.tanh(np.sum(s * W + s, axis=1, keepdims=True))
    return np.sum(s ** 2)


# ---- np.mean's cotangent (logit31) -----------------------------------------------------

@case(floats((4, 4), (3, 4), scale=0.5), wrt=(0, 1))
def normalised_layers(W, X):
    h = X
    for _ in range(3):
        h = np.tanh(h @ W)
        h = h - np.mean(h, axis=1, keepdims=True)
        h = h / np.sqrt(np.mean(h * h, axis=1, keepdims=True) + 1e-3)
    return np.sum(h ** 2 * np.arange(h.shape[1]))


@case(floats((2, 3, 4)), wrt=0)
def means_over_negative_tuples(x):
    m = np.mean(x, axis=(-1, 0), keepdims=True)
    return np.sum((x - m) ** 2) + np.sum(x.mean(axis=(2, 1)) ** 3) + np.mean(x, axis=())[0, 0, 0]


@case(floats((3, 4)), wrt=0)
def mean_method_axis_in_a_loop(x):
    t = 0.0
    for k in range(1, 3):
        t = t + np.sum(x.mean(axis=k - 1) ** 2) + x.mean() * k
    return t


@case(mixed(floats((3, 4), (5, 3)), lambda rng: [np.array([0, 1, 3, 2, 1])]), wrt=0)
def softmax_cross_entropy_mean(W, X, y):
    z = X @ W
    z = z - np.max(z, axis=1, keepdims=True)
    return np.mean(np.log(np.sum(np.exp(z), axis=1)) - z[np.arange(len(y)), y])


# ---- solves with a Cholesky factor (gp31) ----------------------------------------------

def _spd(A):
    return A @ A.T + 3.0 * np.eye(A.shape[0])


@case(floats((4, 4), (4, 2)), wrt=(0, 1))
def whitened_then_back(A, B):
    L = np.linalg.cholesky(_spd(A))
    return np.sum(np.linalg.solve(L.T, np.linalg.solve(L, B)) * B)


@case(floats((4, 4), (4,)), wrt=(0, 1))
def factor_entries_overwritten_before_the_solve(A, b):
    L = np.linalg.cholesky(_spd(A))
    L[0, 0] = 2.0 * L[0, 0]
    L[1, 0] = 1.5
    L += 0.25
    return np.sum(np.linalg.solve(L, b) ** 2)


@case(floats((4, 4), (4,)), wrt=(0, 1))
def factor_made_full_between_solves(A, b):
    L = np.linalg.cholesky(_spd(A))
    t = 0.0
    for i in range(2):
        t = t + np.sum(np.linalg.solve(L, b) ** 2)
        L[0, 1] = 0.5 * (i + 1)
    return t


@case(mixed(floats((4, 4), (4,)), lambda rng: [True]), wrt=(0, 1))
def factor_replaced_in_a_branch(A, b, dense):
    S = _spd(A)
    L = np.linalg.cholesky(S)
    if dense:
        L = S + 0.0
    return np.sum(np.linalg.solve(L, b) ** 2)


@case(floats((4, 4), (4,)), wrt=(0, 1))
def upper_factor_solved(A, b):
    U = np.linalg.cholesky(_spd(A), upper=True)
    return np.sum(np.linalg.solve(U, b) ** 2) + np.sum(np.log(np.diag(U)))


@case(floats((2, 3, 3), (2, 3)), wrt=(0, 1))
def stacked_factors_solved(A, b):
    S = A @ np.swapaxes(A, -1, -2) + 3.0 * np.eye(3)
    L = np.linalg.cholesky(S)
    return np.sum(np.linalg.solve(L, b[..., None]) ** 2)


@case(floats((4, 4), (4, 2)), wrt=(0, 1))
def factor_solved_in_a_generator(A, B):
    L = np.linalg.cholesky(_spd(A))
    return sum(np.sum(np.linalg.solve(L, B[:, k]) ** 2) for k in range(B.shape[1]))


@case(floats((4, 4), (4,)), wrt=(0, 1))
def factor_of_a_strided_matrix(A, b):
    L = np.linalg.cholesky(_spd(A).T[::2, ::2])
    return np.sum(np.linalg.solve(L, b[::2]) ** 2) + np.sum(L[1:, :1])


@case(floats((6, 3), (6,)), wrt=(0, 1), rtol=1e-4)
def nearly_singular_factor_entries(A, b):
    L = np.linalg.cholesky(A @ A.T + 1e-3 * np.eye(6))
    return np.sum(L * b[:, None])


# ---- vector outputs (a cotangent whose unbroadcast is the cotangent itself) and 0-d means

@case(floats((3, 4), (3, 4)), wrt=(0, 1))
def kept_sum_plus_scaled_input(x, w):
    s = np.sum(x, axis=1, keepdims=True)
    return s + w * x + s * 2.0


@case(floats((3, 4)), wrt=0)
def row_sums_added_back(x):
    return np.sum(x, axis=1)[:, None] + x


@case(mixed(floats((3, 4)), lambda rng: [np.array(1.3)]), wrt=(0, 1))
def means_of_a_zero_d_array(x, c):
    return np.mean(x * c) * np.mean(c) + np.mean(c, keepdims=True)[()] + np.mean(c, axis=())


@case(floats((3, 4)), wrt=0)
def whole_mean_kept_and_row_mean(x):
    m = x.mean(axis=None, keepdims=True)
    return np.sum((x - m) ** 2) + np.sum(np.mean(x[0], axis=0) * x)
