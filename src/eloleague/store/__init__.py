"""The league database: tables, connection, migrations, and the queries behind :mod:`eloleague.league`.

``tables`` (SQLAlchemy Core tables), ``db`` (``connect(url)``, ``migrate``, transactions), ``bulk``
(driver-level bulk writes and reads, deferred indexes), ``games``, ``players``, ``imports`` (what an
import adds, keeps or replaces, and doing it), ``derived`` (ledger and ratings), ``checkpoints`` and
``recompute`` (incremental recompute equal to a full replay), ``exports`` (JSON Lines, CSV,
backup), ``reports``, ``messages`` (the ``league`` catalogue's messages).
"""
