"""A linear prior over templates, added to the network's template logits.

Why: the network is fine-tuned on a few thousand samples on a CPU and never reads the test's
name; a handful of weights over :mod:`oracular.candidates.template_features` can be fitted on
every train sample in minutes (:mod:`oracular.training.prior`) and carry what the network did
not learn (``testSkipLines`` asks for ``getSkipLines()``; ``assertNotNull`` on an object the
prefix just built cannot fail). A template's logit becomes ``scale * logit + w . features``
before the calibration's temperature. Among the exception candidates only the first (the engine's
best evidence: the type observed thrown, else the focal method's documented one) gets a bonus,
``exception_first``: the network's type head names the thrown type less often than that order.
Every exception candidate gets ``exception_named`` times the share of its type's words that the
test's name says (:func:`~oracular.candidates.template_features.named_failure`), and
``exception_condition`` times whether the focal call's arguments meet the condition its Javadoc
documents the type with (:mod:`oracular.candidates.throws_conditions`: ``1``, ``-1`` or ``0``).

Stored in ``config.json`` (``prior``) with the weights it was fitted for; a model without one
ranks with its logits unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import torch
from torch import Tensor

from oracular.candidates.template_features import FEATURES, TemplateContext, named_failure


@dataclass
class TemplatePrior:
    scale: float = 1.0
    """Multiplies the network's logit."""
    weights: dict[str, float] = field(default_factory=dict)
    """Per feature name (:data:`FEATURES`); a name the code no longer computes is an error."""
    exception_first: float = 0.0
    """Added to the logit of the first exception candidate."""
    exception_named: float = 0.0
    """Times :func:`named_failure`, added to each exception candidate's logit."""
    exception_condition: float = 0.0
    """Times :meth:`TemplateContext.exception_conditions`, added to each exception candidate's logit."""

    def __post_init__(self) -> None:
        unknown = set(self.weights) - set(FEATURES)
        if unknown:
            raise ValueError(f"the model's prior uses unknown template features: {sorted(unknown)}")

    @property
    def habits(self) -> bool:
        """Fitted with the features of what the file's other tests assert on."""
        return any(self.weights.get(name, 0.0) for name in ("alike", "alike_after_action"))

    @property
    def active(self) -> bool:
        return (
            bool(self.weights)
            or self.scale != 1.0
            or self.exception_first != 0.0
            or self.exception_named != 0.0
            or self.exception_condition != 0.0
        )

    def vector(self) -> Tensor:
        return torch.tensor([self.weights.get(name, 0.0) for name in FEATURES])

    def adjust(
        self,
        logits: Tensor,
        templates: Sequence[str],
        is_exception: Sequence[bool],
        context: TemplateContext,
        order: Sequence[str] | None = None,
    ) -> Tensor:
        """The assertion templates' logits with the prior added; the exception candidates' with
        ``exception_named`` by their type's name and ``exception_condition`` by their documented
        condition, the first's with ``exception_first`` too.

        ``order``: the engine's static templates (see :meth:`TemplateContext.features`)."""
        if not self.active:
            return logits
        features = torch.tensor(context.features(templates, order), dtype=torch.float32)
        adjusted = self.scale * logits.float() + features @ self.vector()
        exceptions = torch.tensor(list(is_exception), dtype=torch.bool)
        kept = logits.float().clone()
        if exceptions.any():
            kept[int(exceptions.nonzero()[0])] += self.exception_first
        indices = exceptions.nonzero().flatten().tolist()
        if self.exception_named:
            for i in indices:
                kept[i] += self.exception_named * named_failure(templates[i], context.tested)
        if self.exception_condition and indices:
            conditions = context.exception_conditions([templates[i] for i in indices])
            for i, met in zip(indices, conditions, strict=True):
                kept[i] += self.exception_condition * met
        return torch.where(exceptions, kept, adjusted)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TemplatePrior:
        return cls(**data) if data else cls()
