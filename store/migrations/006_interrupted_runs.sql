-- 006: a refresh stopped by SIGINT or SIGTERM closes its open runs as 'interrupted', so that
-- `refresh --status` says what happened instead of 'running'. SQLite cannot change a CHECK
-- constraint in place: the table is rebuilt with its rows and ids, and its index made again.

CREATE TABLE refresh_runs_006 (
    id          INTEGER PRIMARY KEY,
    feed        TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    status      TEXT NOT NULL
                CHECK (status IN ('running', 'ok', 'unchanged', 'failed', 'interrupted')),
    offers      INTEGER NOT NULL DEFAULT 0,
    changed     INTEGER NOT NULL DEFAULT 0,
    unmapped    INTEGER NOT NULL DEFAULT 0,
    rejected    INTEGER NOT NULL DEFAULT 0,
    error       TEXT
);
INSERT INTO refresh_runs_006 (id, feed, started_at, finished_at, status, offers, changed,
                              unmapped, rejected, error)
    SELECT id, feed, started_at, finished_at, status, offers, changed, unmapped, rejected, error
    FROM refresh_runs;
DROP TABLE refresh_runs;
ALTER TABLE refresh_runs_006 RENAME TO refresh_runs;
CREATE INDEX refresh_runs_feed ON refresh_runs (feed, started_at);
