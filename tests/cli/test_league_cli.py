"""The league commands as an officer runs them (subprocesses), on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPLAY, run_cli
from tests.pg.server import db_url, pg_server  # noqa: F401 - fixtures


def test_import_rank_reimport_and_bad_file(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    db = ["--db", db_url]
    assert run_cli("init", "--rules", "adlg", *db).returncode == 0
    first = run_cli("import", str(REPLAY / "adlg.jsonl"), *db)
    assert first.returncode == 0, first.stderr
    assert "added 991 game(s)" in first.stdout

    ranking = run_cli("ranking", "--format", "csv", "--as-of", "2025-06-01", *db)
    rate = run_cli("rate", str(REPLAY / "adlg.jsonl"), "--rules", "adlg", "--as-of", "2025-06-01")
    assert ranking.stdout == rate.stdout

    again = run_cli("import", str(REPLAY / "adlg.jsonl"), *db)
    assert "added 0 game(s)" in again.stdout and "already imported" in again.stdout

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x1", "date": "2026-13-01", "sides": []}\n', encoding="utf-8")
    refused = run_cli("import", str(bad), *db)
    assert refused.returncode == 2
    assert "line 1" in refused.stderr and "Traceback" not in refused.stderr
    assert run_cli("ranking", "--format", "csv", "--as-of", "2025-06-01", *db).stdout == rate.stdout

    shown = run_cli("explain", "g2", *db)
    assert shown.returncode == 0 and "Marie P002" in shown.stdout
    assert run_cli("game", "delete", "g2", *db).returncode == 0
    gone = run_cli("explain", "g2", *db)
    assert gone.returncode == 2 and "no game 'g2'" in gone.stderr

    export = tmp_path / "out.jsonl"
    assert run_cli("export", str(export), *db).returncode == 0
    fresh = ["--db", str(tmp_path / "fresh.db")]
    run_cli("init", "--rules", "adlg", *fresh)
    run_cli("import", str(export), *fresh)
    assert (
        run_cli("ranking", "--format", "csv", *fresh).stdout
        == run_cli("ranking", "--format", "csv", *db).stdout
    )
    backup = tmp_path / "backup.db"
    assert run_cli("backup", str(backup), *db).returncode == 0
    assert (
        run_cli("ranking", "--format", "csv", "--db", str(backup)).stdout
        == run_cli("ranking", "--format", "csv", *db).stdout
    )
