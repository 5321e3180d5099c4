"""Project hygiene: the license, the citation file and the changelog agree with the package metadata."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

import dpbounds

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_license_file_is_the_license_pyproject_declares():
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"              # an SPDX expression (PEP 639), not the deprecated table
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    # the operative sentences of the MIT license (https://opensource.org/license/mit)
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


def _citation() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "CITATION.cff").read_text())


def test_citation_cff_is_valid_cff_1_2_0():
    # The schema is the Citation File Format's own 1.2.0 JSON Schema, as shipped in cffconvert 2.0.0
    # (cffconvert/schemas/1.2.0/schema.json), vendored unchanged.
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "tests" / "data" / "cff-1.2.0.schema.json").read_text())
    assert schema["$id"] == "https://citation-file-format.github.io/1.2.0/schema.json"
    cff = _citation()
    # yaml reads an unquoted 2026-11-23 as a date; CFF's schema wants the ISO string, as the file writes it
    jsonschema.validate(json.loads(json.dumps(cff, default=str)), schema)


def test_citation_agrees_with_the_package():
    cff = _citation()
    assert cff["cff-version"] == "1.2.0"
    assert str(cff["version"]) == dpbounds.__version__
    assert cff["license"] == PYPROJECT["project"]["license"]


def test_invalid_citation_is_rejected_by_the_schema():
    # the schema is not vacuous: a file without authors, or with a wrong cff-version, fails
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "tests" / "data" / "cff-1.2.0.schema.json").read_text())
    cff = json.loads(json.dumps(_citation(), default=str))
    for broken in ({k: v for k, v in cff.items() if k != "authors"}, {**cff, "cff-version": "1.1.9"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema)


_RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.M)


def test_changelog_follows_keep_a_changelog_and_matches_the_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n")
    assert "keepachangelog.com" in text
    heads = re.findall(r"^## (.*)$", text, re.M)
    assert heads[0] == "[Unreleased]"
    releases = _RELEASE.findall(text)
    assert len(releases) == len(heads) - 1, heads    # every other heading is '[X.Y.Z] - YYYY-MM-DD'
    versions = [tuple(map(int, v.split("."))) for v, _ in releases]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)
    dates = [d for _, d in releases]
    assert dates == sorted(dates, reverse=True)
    assert releases[0][0] == dpbounds.__version__    # the newest release is the installed version
    assert "0.1.0" in [v for v, _ in releases]
    # only Keep a Changelog's section names under a release
    sections = set(re.findall(r"^### (.*)$", text, re.M))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, sections


def test_extras_keep_attrs_compatible_with_dp_accounting():
    # dp-accounting (audit) requires attrs < 24; crosshair-tool (test) pulls pygls/cattrs, whose newest releases
    # need attrs >= 24.3.  The test extra pins attrs < 24 so both resolve together in any install order
    # (tools/check_extras.py installs them in every relative order and runs `pip check`).
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert any(re.fullmatch(r"attrs>=22,<24", r) for r in extras["test"])
    assert set(extras) >= {"test", "audit", "plot", "docs", "all"}
    assert extras["all"] == ["dpbounds[" + ",".join(e for e in extras if e != "all") + "]"]
