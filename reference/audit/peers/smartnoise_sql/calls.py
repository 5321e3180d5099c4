"""SmartNoise SQL's side of its audit: imports only snsql and the standard library (runs in the peer's own
interpreter, ``--python smartnoise_sql=PATH``; only JSON crosses over)."""


def spent(kind, eps, delta, k):
    """(epsilon, delta) ``spent`` after k rounds of (eps, delta)-DP: ``Odometer(Privacy(eps, delta)).spend(k)``
    (kind "hom") or k calls of ``OdometerHeterogeneous(Privacy(eps, delta)).spend()`` (kind "het")."""
    from snsql.sql.odometer import Odometer, OdometerHeterogeneous
    from snsql.sql.privacy import Privacy
    if kind == "hom":
        o = Odometer(Privacy(epsilon=eps, delta=delta))
        o.spend(k)
    else:
        o = OdometerHeterogeneous(Privacy(epsilon=eps, delta=delta))
        for _ in range(k):
            o.spend()
    e, d = o.spent
    return [float(e), float(d)]
