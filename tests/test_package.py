"""The installed package: one import name, a curated API, a version single-sourced with the metadata."""

from __future__ import annotations

import importlib.metadata as md
from pathlib import PurePosixPath

import dpbounds


def test_version_is_the_distribution_version():
    import site

    dist = next(d for d in md.distributions(path=site.getsitepackages()) if d.metadata["Name"] == "dpbounds")
    assert dpbounds.__version__ == dist.version


def test_every_name_in_all_exists_and_is_documented():
    for name in dpbounds.__all__:
        obj = getattr(dpbounds, name)
        if name != "__version__":
            assert (obj.__doc__ or "").strip(), f"dpbounds.{name} has no docstring"


def test_installing_adds_exactly_one_top_level_module():
    import site

    # the installed distribution (not an in-tree dpbounds.egg-info that the repository root on sys.path exposes)
    dist = next(d for d in md.distributions(path=site.getsitepackages()) if d.metadata["Name"] == "dpbounds")
    files = [PurePosixPath(str(f)) for f in dist.files or []]
    tops = {f.parts[0] for f in files if f.parts[0] != ".." and not f.parts[0].endswith(".dist-info")
            and f.parts[0] != "__pycache__"}
    editable = {t for t in tops if t.startswith("__editable__")}
    if editable:  # `pip install -e .`: a finder maps import names to folders; only `dpbounds` may be mapped
        finder = next(f for f in files if f.name.startswith("__editable__") and f.suffix == ".py")
        text = (PurePosixPath(str(dist.locate_file(finder)))).as_posix()
        ns: dict = {}
        src = open(text, encoding="utf-8").read()
        start = src.index("MAPPING")
        mapping_line = src[start:src.index("\n", start)]
        names = [part.split("'")[1] for part in mapping_line.split(",") if "'" in part][0::2]
        assert names and all(n == "dpbounds" or n.startswith("dpbounds.") for n in names), mapping_line
        del ns
    else:
        assert tops == {"dpbounds"}, tops


def test_registry_selection_by_kind_and_source():
    filters = dpbounds.select(kind="filter")
    assert filters and all(e.kind is dpbounds.Kind.FILTER for e in filters)
    rruv = dpbounds.select(source="RRUV16")
    assert rruv and all(e.id.startswith("rruv16") or e.source.paper == "RRUV16" for e in rruv)
    assert any(e.id == "rruv16.thm5_1" for e in rruv)
    assert dpbounds.select(kind="filter", source="wrrw23") == [e for e in filters if e.id.startswith("wrrw23")]


def test_unknown_id_suggests_the_nearest():
    try:
        dpbounds.get("rruv16.thm5_2")
    except dpbounds.DomainError as e:
        assert "did you mean" in str(e) and "rruv16.thm5_1" in str(e)
    else:  # pragma: no cover
        raise AssertionError("no DomainError")
