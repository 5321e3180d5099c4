"""pld-accounting (PLD_accounting) calls (imports only PLD_accounting and the stdlib)."""

import PLD_accounting as pa


def allocation_epsilon_upper(sigma: float, num_steps: int, num_selected: int, num_epochs: int,
                             delta: float) -> float:
    """``gaussian_allocation_epsilon_range(...)[0]``: its upper bound on eps for Gaussian random allocation (each
    example in num_selected of num_steps steps, num_epochs epochs)."""
    return float(pa.gaussian_allocation_epsilon_range(delta=delta, sigma=sigma, num_steps=int(num_steps),
                                                      num_selected=int(num_selected),
                                                      num_epochs=int(num_epochs))[0])


def epsilon_upper(q: float, sigma: float, k: int, delta: float) -> float:
    """The degenerate allocation num_steps = num_selected = 1 over k epochs is k-fold Gaussian (q must be 1): the
    form in which the q = 1 closed form is the truth."""
    if float(q) != 1.0:
        raise ValueError("pld_accounting's allocation is not Poisson subsampling: q must be 1 here")
    return allocation_epsilon_upper(sigma=sigma, num_steps=1, num_selected=1, num_epochs=int(k), delta=delta)
