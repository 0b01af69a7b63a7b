#!/usr/bin/env python3
"""Reference values for the statistics of `replay compare` (Tests/CompareTests/Statistics).

Every value that a Swift test in this folder hard-codes is printed here, under the name of the
test that uses it, with the library call that computed it:
    python3 Tests/CompareTests/Statistics/reference.py
Needs scipy 1.17.1 and numpy (installed on the build machine) and statsmodels (`pip install
statsmodels`; 0.15.0 was used). None of them is a dependency of the package: this script only
computes the numbers the tests check against.

The paired bootstrap has no library equivalent with the same random draws, so it is written out
here from its documentation in PairedBootstrap.swift, independently of the Swift code:
xoshiro256** seeded by four SplitMix64 outputs of the seed, Lemire's multiply-high bounded draw with
rejection, clusters in ascending order of their id, G draws with replacement per replicate, the
statistic of new minus the statistic of base over the drawn clusters' items, a linear (numpy)
percentile interval, the sample (ddof=1) standard deviation of the replicate differences, and
p = min(1, 2 * min(share <= 0, share >= 0)).
"""
import math
import sys

import numpy as np
import scipy
import scipy.stats
import statsmodels
import statsmodels.api as sm
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

MASK = (1 << 64) - 1


def show(name, value):
    print(f"  {name} = {value!r}")


# ---------------------------------------------------------------------------------------------
# Data sets shared with the Swift tests (PairedSamples.swift builds the same ones, bit for bit).

# (base, new, cluster): twelve latencies in four threads of three items each.
SMALL = [
    (120.0, 110.0, 17), (95.0, 97.5, 3), (130.0, 121.0, 17), (88.0, 90.0, 42),
    (101.0, 99.0, 3), (150.0, 139.0, 900), (77.0, 80.0, 42), (143.0, 128.0, 900),
    (110.0, 104.0, 17), (99.0, 101.5, 42), (160.0, 149.0, 900), (105.0, 100.0, 3),
]


def large():
    """1000 items in 32 threads of uneven size (thread k holds items k*k ..< (k+1)*(k+1)).

    Every value is a multiple of 1/8, so Swift and Python build bit-identical doubles."""
    pairs = []
    for i in range(1000):
        cluster = math.isqrt(i)
        base = ((i * 37) % 101) / 4
        new = base + ((i * 53) % 23) / 8 - 1.25 + (cluster % 5) / 4
        pairs.append((base, new, cluster))
    return pairs


LARGE = large()

# Sorted values for the percentile tests.
PERCENTILE_VALUES = [-3.5, -1.0, 0.0, 0.25, 2.0, 2.0, 7.5, 10.0, 12.125, 40.0]
PERCENTILE_QS = [0.0, 1e-12, 0.025, 0.1, 0.25, 1 / 3, 0.5, 0.9, 0.95, 0.975, 1 - 1e-12, 1.0]


# ---------------------------------------------------------------------------------------------
def normal():
    print("NormalDistributionTests")
    print(" cdf: scipy.stats.norm.cdf(z)")
    for z in [-37.0, -10.0, -5.0, -1.959963984540054, -1.0, 0.0, 0.5, 1.959963984540054, 3.0, 8.3, 40.0]:
        show(f"cdf({z!r})", float(scipy.stats.norm.cdf(z)))
    print(" quantile: scipy.stats.norm.ppf(p)")
    for p in [1e-300, 1e-12, 1e-6, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999999, 1 - 1e-12]:
        show(f"quantile({p!r})", float(scipy.stats.norm.ppf(p)))


def normal_beyond_scipy():
    """Values quoted in NormalDistributionTests' comments, which say how far scipy and glibc are
    from the exact tail: mpmath 1.3.0 (installed with scipy) at 50 digits."""
    import mpmath
    mpmath.mp.dps = 50
    print(" mpmath.ncdf(z) and mpmath.findroot(lambda z: mpmath.ncdf(z) - p, norm.ppf(p))")
    show("ncdf(-37)", mpmath.nstr(mpmath.ncdf(-37), 17))
    show("quantile(1e-100)", mpmath.nstr(mpmath.findroot(lambda z: mpmath.ncdf(z) - mpmath.mpf(1e-100),
                                                          scipy.stats.norm.ppf(1e-100)), 17))


def percentile():
    print("PercentileTests")
    print(f" numpy.quantile(values, q, method='linear') over {PERCENTILE_VALUES}")
    for q in PERCENTILE_QS:
        show(f"of(values, {q!r})", float(np.quantile(PERCENTILE_VALUES, q, method="linear")))


def mcnemar_cases():
    print("McNemarTests")
    print(" statsmodels.stats.contingency_tables.mcnemar([[a, b], [c, d]], exact=True).pvalue (a = d = 5)")
    for b, c in [(0, 0), (0, 1), (1, 0), (3, 10), (10, 3), (0, 12), (5, 5), (7, 8), (12, 30),
                 (2400, 2600), (2000, 3000), (2500, 2500), (1500, 3500), (0, 1000), (0, 5000)]:
        show(f"exactPValue({b}, {c})", float(mcnemar([[5, b], [c, 5]], exact=True).pvalue))


def holm():
    print("HolmTests")
    print(" statsmodels.stats.multitest.multipletests(p, method='holm')[1]")
    for p in [[0.01, 0.04, 0.03, 0.005], [0.02, 0.02, 0.5, 0.01], [0.3, 0.6, 0.9, 0.45],
              [0.04], [0.001, 0.2, 0.001, 0.2, 0.8, 0.05], [0.01, 0.04]]:
        show(f"adjust({p})", [float(x) for x in multipletests(p, method="holm")[1]])


def paired(name, pairs, alpha=0.05, own_clusters=False):
    d = np.array([n - b for b, n, _ in pairs])
    groups = np.arange(len(pairs)) if own_clusters else np.array([g for _, _, g in pairs])
    fit = sm.OLS(d, np.ones(len(d))).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=False)
    lower, upper = fit.conf_int(alpha=alpha)[0]
    se = float(fit.bse[0])
    g = "arange(n)" if own_clusters else "g"
    print(f" {name}: sm.OLS(d, ones).fit(cov_type='cluster', cov_kwds={{'groups': {g}}}, use_t=False),"
          f" conf_int(alpha={alpha})")
    show("baseMean (numpy.mean)", float(np.mean([b for b, _, _ in pairs])))
    show("newMean (numpy.mean)", float(np.mean([n for _, n, _ in pairs])))
    show("difference (params[0])", float(fit.params[0]))
    show("standardError (bse[0])", se)
    show("lower", float(lower))
    show("upper", float(upper))
    show("pValue (pvalues[0])", float(fit.pvalues[0]))
    show("minimumDetectable ((norm.ppf(0.975) + norm.ppf(0.8)) * bse[0])",
         float((scipy.stats.norm.ppf(0.975) + scipy.stats.norm.ppf(0.8)) * se))
    return fit


def paired_difference():
    print("PairedDifferenceTests")
    show("scipy.stats.norm.ppf(0.975) + scipy.stats.norm.ppf(0.8)",
         float(scipy.stats.norm.ppf(0.975) + scipy.stats.norm.ppf(0.8)))
    paired("SMALL", SMALL)
    paired("SMALL at 90%", SMALL, alpha=0.10)
    paired("SMALL, each item its own cluster", SMALL, own_clusters=True)
    paired("LARGE", LARGE)


# ---------------------------------------------------------------------------------------------
class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


class Xoshiro256StarStar:
    def __init__(self, seed):
        mixer = SplitMix64(seed)
        self.s = [mixer.next() for _ in range(4)]

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, n):
        """Lemire's nearly divisionless draw: the high word of x * n, rejecting a biased low word."""
        m = self.next() * n
        if (m & MASK) < n:
            threshold = ((1 << 64) - n) % n
            while (m & MASK) < threshold:
                m = self.next() * n
        return m >> 64


def bootstrap(pairs, statistic, seed=20_261_201, replicates=2000):
    ids = sorted({g for _, _, g in pairs})
    members = {g: [(b, n) for b, n, c in pairs if c == g] for g in ids}
    base = statistic([b for b, _, _ in pairs])
    new = statistic([n for _, n, _ in pairs])
    if base is None or new is None:
        return None
    rng = Xoshiro256StarStar(seed)
    diffs = []
    for _ in range(replicates):
        drawn = [ids[rng.below(len(ids))] for _ in ids]
        items = [item for g in drawn for item in members[g]]
        b = statistic([x for x, _ in items])
        n = statistic([y for _, y in items])
        if b is not None and n is not None:
            diffs.append(n - b)
    if not diffs:
        return None
    diffs = np.array(diffs)
    se = float(np.std(diffs, ddof=1)) if len(diffs) > 1 else 0.0
    share_low = float(np.mean(diffs <= 0))
    share_high = float(np.mean(diffs >= 0))
    return {
        "base": float(base), "new": float(new), "difference": float(new - base),
        "lower": float(np.quantile(diffs, 0.025, method="linear")),
        "upper": float(np.quantile(diffs, 0.975, method="linear")),
        "pValue": min(1.0, 2 * min(share_low, share_high)),
        "standardError": se,
        "minimumDetectable": float((scipy.stats.norm.ppf(0.975) + scipy.stats.norm.ppf(0.8)) * se),
    }


def mean(values):
    return math.fsum(values) / len(values) if values else None


def quantile(q):
    return lambda values: float(np.quantile(values, q, method="linear")) if values else None


def mean_unless_more_than_1000(values):
    return mean(values) if len(values) <= 1000 else None


def paired_bootstrap():
    print("PairedBootstrapTests")
    print(" SplitMix64(seed 1234567), first five outputs")
    mixer = SplitMix64(1234567)
    show("splitMix", [mixer.next() for _ in range(5)])
    print(" Xoshiro256StarStar(seed 20261201), first five outputs")
    rng = Xoshiro256StarStar(20_261_201)
    show("next", [rng.next() for _ in range(5)])
    print(" Xoshiro256StarStar(seed 7), below(n) for n in 1, 3, 10, 2**63 + 1, 4, 1000")
    rng = Xoshiro256StarStar(7)
    show("below", [rng.below(n) for n in [1, 3, 10, 2**63 + 1, 4, 1000]])
    cases = [
        ("SMALL mean, seed 20261201, 200 replicates", SMALL, mean, 20_261_201, 200),
        ("SMALL p50, seed 20261201, 200 replicates", SMALL, quantile(0.5), 20_261_201, 200),
        ("SMALL p95, seed 7, 500 replicates", SMALL, quantile(0.95), 7, 500),
        ("LARGE mean unless more than 1000 items, seed 11, 300 replicates", LARGE,
         mean_unless_more_than_1000, 11, 300),
        ("LARGE p95, seed 20261201, 2000 replicates", LARGE, quantile(0.95), 20_261_201, 2000),
    ]
    for name, pairs, statistic, seed, replicates in cases:
        print(f" {name} (the procedure above, numpy.quantile for percentiles)")
        for key, value in bootstrap(pairs, statistic, seed, replicates).items():
            show(key, value)


if __name__ == "__main__":
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"statsmodels {statsmodels.__version__}")
    normal()
    normal_beyond_scipy()
    percentile()
    mcnemar_cases()
    holm()
    paired_difference()
    paired_bootstrap()
