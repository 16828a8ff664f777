"""Legends and insets that hide curves (issue 28): Führer Fig 1's inset, the legends of
normal-impact's schemes.png and kuhn-contact's orders.png."""
import numpy as np
import pytest

from nsfric.cases import get_case


@pytest.fixture
def captured(monkeypatch):
    """The figures a module's ``save`` would write, kept open."""
    figs = []

    def grab(module):
        monkeypatch.setattr(module, "save", lambda fig, path: figs.append(fig) or path)
        return figs
    return grab


def _no_legend_in_panels(fig):
    assert fig.legends, "one figure legend"
    assert all(ax.get_legend() is None for ax in fig.axes)


def test_fig1_inset_clear_of_the_curves():
    from nsfric.papers.fuhrer2024.sliding_plates_figures import INSET, LAWS, exact, plot_fig1
    from nsfric.schemes import simulate

    case = get_case("sliding-plates")
    runs = {label: simulate(case, law, "euler", dt) for label, law, dt in (
        ("D-SDS, Δt = 0.1", "d-sds", 0.1), ("D-SDS, Δt = 0.001", "d-sds", 0.01), ("C-SDS, Δt = 0.1", "c-sds", 0.1))}
    fig = plot_fig1({"runs": runs, "exact": {law: exact(case, law, None) for law in LAWS}})
    fig.canvas.draw()  # the view limits are set lazily
    ax = fig.axes[2]
    x0, y0, w, h = INSET
    pad = 0.08  # the inset's title above it and its tick labels left of it
    for line in ax.get_lines():
        xy = ax.transAxes.inverted().transform(ax.transData.transform(line.get_xydata()))
        inside = (xy[:, 0] > x0 - pad) & (xy[:, 0] < x0 + w) & (xy[:, 1] > y0) & (xy[:, 1] < y0 + h + pad)
        assert not inside.any(), (line.get_label(), xy[inside][:3])


def test_schemes_legend_outside_the_panels(captured, tmp_path):
    from nsfric.papers.schafer1996 import normal_impact_schemes as nis

    figs = captured(nis)
    rows, _ = nis.scheme_study(get_case("normal-impact"), laws=("linear-dashpot",), schemes=("euler", "gear5"),
                               ladder=(25, 50), phases=(0.5,))
    nis.plot_schemes(rows, str(tmp_path / "s.png"), laws=("linear-dashpot",), schemes=("euler", "gear5"))
    _no_legend_in_panels(figs[0])


def test_orders_legend_outside_the_panels(captured, tmp_path):
    from nsfric.papers.kuhn import kuhn_contact_orders as ko
    import nsfric.plotting

    figs = captured(nsfric.plotting)
    n = np.array([8.0, 16.0, 8.0, 16.0])
    long = {"movement": np.array(["circle", "circle", "eight", "eight"]), "rule": np.array(["a", "a", "b", "b"]),
            "N": n, "force_error": 1 / n ** 2}
    ko.orders_figure(long, str(tmp_path / "o.png"))
    _no_legend_in_panels(figs[0])
    assert [t.get_text() for t in figs[0].legends[0].get_texts()] == ["a", "b"]
