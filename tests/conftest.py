"""Shared test settings. Hypothesis: no per-example deadline (CI machines vary), modest sizes."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "tavolo",
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("tavolo")
