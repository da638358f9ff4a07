"""The league database: tables, connection, migrations, and the queries behind :mod:`eloleague.league`.

``tables`` (SQLAlchemy Core tables), ``db`` (``connect(url)``, ``migrate``, transactions), ``games``,
``players``, ``derived`` (ledger and ratings), ``checkpoints`` and ``recompute`` (incremental
recompute equal to a full replay), ``exports`` (JSON Lines, CSV, backup), ``reports``.
"""
