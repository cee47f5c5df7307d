"""A labelled 2-D map of models and dataset columns (matplotlib, Agg backend)."""

from __future__ import annotations

from pathlib import Path

from tools.capenc.predict import CapabilitiesPredictor


def plot_map(predictor: CapabilitiesPredictor, out: Path) -> Path:
    """Write a PNG of the principal-axes projection: models in blue, datasets in orange."""
    from agent.extras import require

    matplotlib = require("matplotlib", "bench", "The capabilities map as a PNG")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models, columns = predictor.project_2d()
    fig, ax = plt.subplots(figsize=(14, 11), dpi=120)
    ax.scatter(
        [p.x for p in columns], [p.y for p in columns], s=14, c="tab:orange", alpha=0.6, label="dataset"
    )
    ax.scatter([p.x for p in models], [p.y for p in models], s=22, c="tab:blue", label="model")
    centres: dict[str, list[tuple[float, float]]] = {}
    for point, column in zip(columns, predictor.columns(), strict=True):
        centres.setdefault(column.dataset, []).append((point.x, point.y))
    for name, xy in centres.items():  # one label per dataset, at the mean of its columns
        x, y = sum(p[0] for p in xy) / len(xy), sum(p[1] for p in xy) / len(xy)
        ax.annotate(name, (x, y), fontsize=6.5, color="saddlebrown", ha="center", va="bottom")
    for point in models:
        ax.annotate(
            point.label,
            (point.x, point.y),
            fontsize=6.5,
            color="navy",
            xytext=(3, 2),
            textcoords="offset points",
        )
    ax.set_title(
        f"Capabilities encoding ({predictor.distance}): models and datasets, first two principal axes"
    )
    ax.set_xlabel("axis 1")
    ax.set_ylabel("axis 2")
    ax.legend(loc="best")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out
