"""Populate RS-FMD from papers: schema-guided LLM extraction with confidence-guided review.

Modules: ``sources`` (read files to bounded text), ``extract`` (N runs, validation, aggregation),
``confidence`` (paper equation 1), ``draft`` (the draft file and merging into RS-FMD), ``review``
(terminal walk-through), ``pending`` (submission queue), ``cli`` (``remsa db extract|review|add|pending``).
"""
