"""Settings of the extraction pipeline (environment prefix ``REMSA_EXTRACTION__``).

Example: ``REMSA_EXTRACTION__RUNS=5 REMSA_EXTRACTION__THRESHOLD=0.8 remsa db extract paper.pdf ...``.
The LLM itself is configured by ``agent.settings.Settings`` (``REMSA_LLM__*``).
"""

from __future__ import annotations

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class ExtractionSettings(BaseSettings):
    """Runs, confidence weights (REMSA paper, equation 1), review threshold and input bounds."""

    model_config = SettingsConfigDict(env_prefix="REMSA_EXTRACTION__", extra="forbid", validate_default=True)

    runs: int = Field(default=3, ge=1, le=20, description="Independent extraction runs per source set.")
    weight_logprob: float = Field(
        default=0.7, ge=0, le=1, description="Weight of the normalised log-probability (w_logp)."
    )
    weight_consistency: float = Field(
        default=0.3, ge=0, le=1, description="Weight of self-consistency across runs (w_cons)."
    )
    temperature: float = Field(
        default=0.5, gt=0, description="Temperature tau of the sigmoid that normalises log-probabilities."
    )
    threshold: float = Field(
        default=0.75, ge=0, le=1, description="Fields with a confidence below this are flagged for review."
    )
    sampling_temperature: float | None = Field(
        default=0.7,
        ge=0,
        le=2,
        description="LLM sampling temperature for the runs (OpenAI-compatible endpoints); "
        "None keeps REMSA_LLM__TEMPERATURE. Runs at 0 tend to agree trivially.",
    )
    max_source_bytes: int = Field(
        default=20_000_000, ge=1_000, description="Files larger than this are refused unread."
    )
    max_source_chars: int = Field(
        default=60_000,
        ge=1_000,
        description="Text sent to the LLM per extraction, over all sources; the rest is cut with a notice.",
    )

    @model_validator(mode="after")
    def _weights_sum_to_one(self) -> ExtractionSettings:
        if abs(self.weight_logprob + self.weight_consistency - 1.0) > 1e-9:
            raise ValueError(
                f"weight_logprob ({self.weight_logprob}) + weight_consistency ({self.weight_consistency}) "
                "must be 1 so that confidences stay in [0, 1]"
            )
        return self
