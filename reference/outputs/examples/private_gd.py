"""FZ21 Algorithms 7 and 8 on a small synthetic logistic-regression problem (seeded, generated in code).

Algorithm 7 (private GD): clip every gradient to C, add N(0, sigma^2 C^2) noise, k steps: k/(2 sigma^2)-zCDP.
Algorithm 8 (private GD with individual filtering): clip point i's gradient to min(C, sqrt(B_norm - spent_i)), which
is FZ21's individual filter with per-step individual RDP alpha ||g_t(X_i)||^2/(2 sigma^2 C^2) (Example 2.7 with the
noise scale sigma C) and budget alpha B_norm/(2 sigma^2 C^2); with B_norm = k C^2 it has the same (alpha, B) as
Algorithm 7 for every alpha, and may run k_max > k steps.  Run: python -m dpbounds.outputs.examples.private_gd
"""

from __future__ import annotations

import numpy as np

from dpbounds.accounting.individual import IndividualFilter


def make_data(n: int = 2000, d: int = 10, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    w = rng.normal(size=d)
    y = (X @ w + 0.5 * rng.normal(size=n) > 0).astype(float)
    return X, y


def _grads(theta, X, y):
    p = 1 / (1 + np.exp(-(X @ theta)))
    return (p - y)[:, None] * X


def _log_loss(theta, X, y) -> float:
    z = X @ theta
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def _accuracy(theta, X, y) -> float:
    return float((((X @ theta) > 0).astype(float) == y).mean())


def run(filtering: bool, *, sigma=4.0, C=1.0, k=60, k_max=90, eta=0.5, alpha=8, seed=1, n=2000) -> dict:
    X, y = make_data(n)
    rng = np.random.default_rng(seed)
    theta = np.zeros(X.shape[1])
    B_norm = k * C * C
    steps = k_max if filtering else k
    filt = IndividualFilter(n, alpha, alpha * B_norm / (2 * sigma**2 * C**2)) if filtering else None
    spent = np.zeros(n)
    active_hist, acc_hist, loss_hist = [], [], []
    for _ in range(steps):
        g = _grads(theta, X, y)
        norms = np.linalg.norm(g, axis=1)
        if filtering:
            # clip a hair below the cap so that the float norm^2 of the clipped gradient cannot exceed it
            cap = np.minimum(C, np.sqrt(np.maximum(B_norm - spent, 0.0))) * (1 - 1e-9)
            g = g * np.minimum(1.0, cap / np.maximum(norms, 1e-300))[:, None]
            gn2 = np.linalg.norm(g, axis=1) ** 2
            active = filt.step(alpha * gn2 / (2 * sigma**2 * C**2))
            g = g * active[:, None]
            spent = spent + gn2 * active
        else:
            g = g * np.minimum(1.0, C / np.maximum(norms, 1e-300))[:, None]
            active = np.ones(n, dtype=bool)
        noisy = (g.sum(axis=0) + rng.normal(scale=sigma * C, size=X.shape[1])) / n
        theta = theta - eta * noisy
        active_hist.append(int(active.sum()))
        acc_hist.append(_accuracy(theta, X, y))
        loss_hist.append(_log_loss(theta, X, y))
    return {"steps": steps, "n": n, "active": active_hist, "accuracy": acc_hist, "final_accuracy": acc_hist[-1],
            "loss": loss_hist, "final_loss": loss_hist[-1],
            "active_at_end": active_hist[-1], "alpha": alpha, "B": alpha * B_norm / (2 * sigma**2 * C**2)}


def run_example() -> dict[str, dict]:
    """Both algorithms with the same (alpha, B): the report plots the training loss and the active points per step.

    At these settings the benefit shows in the training log-loss (Algorithm 8 trains the well-fitted points longer);
    the accuracy saturates after a few steps for both, so it does not show it."""
    return {"Algorithm 7 (private GD)": run(False), "Algorithm 8 (with individual filtering)": run(True)}


if __name__ == "__main__":  # pragma: no cover
    for name, r in run_example().items():
        print(f"{name}: steps {r['steps']}, active at end {r['active_at_end']}, "
              f"final accuracy {r['final_accuracy']:.4f}, final log-loss {r['final_loss']:.4f}, (alpha, B) = ({r['alpha']}, {r['B']:.4g})")
