"""Fill the ``reason`` of the entries of reference/audit/peers/<peer>/surface.json that have none, by the rules below
(the first that matches), keeping every reason already written by hand.  Run after tools/surface.py.

    python tools/coverage_reasons.py            # every peer's file
"""

import json
import re
import sys
from pathlib import Path

DIR = Path(__file__).resolve().parents[1] / "reference" / "audit" / "peers"

NOT_Q = "not a privacy quantity"
RULES = [
    (r"(noise_cdf|noise_log_cdf|\.privacy_loss$|privacy_loss_tail|inverse_privacy_loss|mu_upper_cdf|mu_lower_log_cdf|"
     r"privacy_loss_for_single|inverse_privacy_losses)", NOT_Q + ": a step of the privacy loss computation (the loss "
     "function or the noise cdf), not a guarantee"),
    (r"(^|\.)plot_|\.plot_rdp", NOT_Q + ": plotting"),
    (r"(add_noise|scale_grad|add_aggregate_noise|get_noise$|reset_l2_clip|add_noise_to_sample|\.noise$|DPExpr\.noise)",
     NOT_Q + ": adds noise to data (a mechanism's release, no privacy parameter returned)"),
    (r"(filter_out|filter_dilated|set_rename_map|register_accountant|create_accountant|get_accountant|"
     r"LazyFrameQuery\.filter|map_domain|_type$|_domain$|_metric$|_measure$|carrier|odometer_invoke|queryable_invoke$)",
     NOT_Q + ": a constructor, registry or type accessor"),
    (r"(Backend\.(filter|map|flat_map)|\.set_|assert_|normalize_budget|privacy_axis|privacy_dimension|"
     r"scale_dimension|_accountant$|accountant_state|root_accountant|validate_|uses_delta|noise_kind|"
     r"noise_to_thresholding|Histogram\.total|collect_values|compute_sensitivities|scale_rows|require_output_scale|"
     r"register_budget_serializer|can_calibrate|compute_dp_quantiles|compute_dp_var|\.use_delta|"
     r"create_(parallel|subsampling)_accountant)",
     NOT_Q + ": a pipeline operation, setter, assertion, accessor or data statistic"),
    (r"(accuracy|statement|\.std$|losses\..*\.beta$)", NOT_Q + ": accuracy, a text statement or a loss constant"),
    (r"(_measure$|max_divergence$|smoothed_max_divergence$|renyi_divergence$|zero_concentrated_divergence$|"
     r"user_divergence$|new_privacy_profile$)", NOT_Q + ": constructs a privacy measure (a type), no value"),
    (r"(make_|then_)", "needs a model: returns a measurement or transformation whose privacy map needs its input "
     "metric and distance (declared where a map is)"),
    (r"(Measurement\.map|Transformation\.map|measurement_map|transformation_map)", "needs a model: the map of a "
     "measurement built from a particular mechanism; declared through that mechanism's composition"),
    (r"(schedulers?|Scheduler|get_noise_multiplier$)", "no reference yet: a noise schedule or noise calibration "
     "(the dpsgd helper's calibration spec)"),
    (r"(svt|SVT|pate|PATE|noisy_screen|expfamily|truncatedCDP|randresp|RDP_laplace|pureDP|tree|skellam|Skellam)",
     "no reference yet: the mechanism's RDP / eps has no spec entry in dpbounds"),
    (r"(uniform)", "no reference yet: sampling without replacement (uniform batches) has no spec entry"),
    (r"(IAccountant|PrivacyAccountant\.get_|Mechanism\.get_|Accountant\.get_epsilon$)",
     "covered by: an abstract or base method, audited through the concrete accountants' declarations"),
]


#: entries declared under another name (an inherited method, a base class), per peer: name suffix -> declaration
DECLARED_BY = {
    "jax_privacy": {"DpTrainingAccountant.compute_epsilon": "DpsgdTrainingAccountant(...).compute_epsilon"},
    "opake": {"Accountant.epsilon_at": "opake_accounting ... epsilon", "DpProcess.delta_at": "Pld.delta_at",
              "DpProcess.beta_at": "Pld.beta_at", "Accountant.delta_at": "Pld.delta_at",
              "Accountant.beta_at": "Pld.beta_at", "DpProcess.epsilon_at": "opake_accounting ... epsilon"},
    "dp_accounting": {"PrivacyLossDistribution.get_delta_for_epsilon": "PLDAccountant.get_delta",
                      "PrivacyLossDistribution.get_epsilon_for_delta": "PLDAccountant.get_epsilon"},
    "prv_accountant": {},
}


def reason(name: str) -> str:
    for pat, why in RULES:
        if re.search(pat, name):
            return why
    return "no reference yet"


def main(argv):
    for f in sorted(DIR.glob("*/surface.json")):
        data = json.loads(f.read_text())
        manual = DECLARED_BY.get(f.parent.name, {})
        for e in data:
            for suffix, by in manual.items():
                if e["name"].endswith(suffix):
                    e["declared_by"] = by
            if not e.get("reason"):
                e["reason"] = reason(e["name"])
        f.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
