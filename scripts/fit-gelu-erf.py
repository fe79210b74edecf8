#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The coefficients of the float gelu_erf (include/ck_tile/ops/common/activation.hpp).

    scripts/fit-gelu-erf.py [--degree 6] [--range 5.5] [--points 300] [--iterations 80]

gelu_erf(x) = x Phi(x) = x / (1 + 2^(x R(x^2))) with R(x^2) = log2(Phi(-x) / Phi(x)) / x, which
is even and smooth in x. R is fitted as a polynomial in s = x^2 on 0 < x <= range, on Chebyshev
points, minimising the largest error of the result in units of 2e-6 |gelu(x)| + 1e-6 (on the
negative side, where the result is x Phi(x) with Phi(x) small, an error dR in R is a relative
error of about ln(2) x dR). Weighted least squares, reweighted towards the largest errors
(Lawson's algorithm); the best iterate is kept. Prints the coefficients, lowest degree first,
and the largest error in those units. Needs mpmath (Debian: python3-mpmath).
"""

import argparse

import mpmath as mp


def target(x):
    """R at x: log2(Phi(-x) / Phi(x)) / x."""
    return mp.log(mp.ncdf(-x) / mp.ncdf(x), 2) / x


def fit(degree, x_max, points, iterations):
    xs = [x_max * (1 - mp.cos(mp.pi * (i + 0.5) / points)) / 2 for i in range(points)]
    ys = [target(x) for x in xs]
    # dR costs x Phi(-x) ln(2) x dR of the result at -x; in units of 2e-6 |result| + 1e-6.
    weights = [x * mp.log(2) * x * mp.ncdf(-x) / (2e-6 * x * mp.ncdf(-x) + 1e-6) for x in xs]
    powers = [[(x * x) ** k for k in range(degree + 1)] for x in xs]
    lam = [mp.mpf(1) / points] * points
    best = None
    for _ in range(iterations):
        a = mp.matrix(degree + 1, degree + 1)
        b = mp.matrix(degree + 1, 1)
        for p, y, w, l in zip(powers, ys, weights, lam):
            for i in range(degree + 1):
                b[i] += l * w * w * p[i] * y
                for j in range(degree + 1):
                    a[i, j] += l * w * w * p[i] * p[j]
        c = mp.lu_solve(a, b)
        errors = [w * abs(sum(c[k] * p[k] for k in range(degree + 1)) - y)
                  for p, y, w in zip(powers, ys, weights)]
        worst = max(errors)
        if best is None or worst < best[0]:
            best = (worst, [c[k] for k in range(degree + 1)])
        total = sum(l * e for l, e in zip(lam, errors))
        lam = [l * e / total for l, e in zip(lam, errors)]
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--degree", type=int, default=6)
    ap.add_argument("--range", type=float, default=5.5, dest="x_max")
    ap.add_argument("--points", type=int, default=300)
    ap.add_argument("--iterations", type=int, default=80)
    args = ap.parse_args()
    mp.mp.dps = 40
    worst, coefficients = fit(args.degree, args.x_max, args.points, args.iterations)
    for k, c in enumerate(coefficients):
        print(f"c{k} = {float(c)!r}")
    print(f"largest error: {float(worst):.3g} units of 2e-6 |gelu(x)| + 1e-6 "
          f"(x^2 held at {args.x_max ** 2!r} beyond x = {args.x_max!r})")


if __name__ == "__main__":
    main()
