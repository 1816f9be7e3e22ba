"""PNG plots in the papers' shapes (grouped bars per benchmark; sweeps as
lines), only when matplotlib is installed: never required."""
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:  # plots are optional
    plt = None


def bars(path, title, labels, benches, values):
    """values[b][c]: normalised metric of benchmark b under column c."""
    if plt is None or not benches:
        return
    fig, ax = plt.subplots(figsize=(max(6, len(benches) * 0.8), 3.5))
    w = 0.8 / max(1, len(labels))
    for c, lab in enumerate(labels):
        ax.bar([i + c * w for i in range(len(benches))],
               [float(values[i][c]) for i in range(len(benches))], w, label=lab)
    ax.axhline(1.0, color="black", linewidth=0.6)
    ax.set_xticks([i + w * (len(labels) - 1) / 2 for i in range(len(benches))])
    ax.set_xticklabels(benches, rotation=45, ha="right")
    ax.set_ylabel("normalised")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def lines(path, title, xlabel, curve):
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.plot([str(v) for v, _ in curve], [m for _, m in curve], marker="o")
    ax.axhline(1.0, color="black", linewidth=0.6)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("mean, normalised")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
