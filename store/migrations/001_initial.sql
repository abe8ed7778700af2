-- 001: the initial schema. Prices in USD per GPU-hour unless a column says otherwise; times are
-- Unix seconds UTC.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE gpus (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    vendor          TEXT NOT NULL CHECK (vendor IN ('nvidia', 'amd')),
    arch            TEXT NOT NULL,
    hbm_gb          REAL NOT NULL,
    hbm_tbs         REAL NOT NULL,
    tdp_w           REAL NOT NULL,
    spec_json       TEXT NOT NULL, -- the full catalog entry, as loaded
    source          TEXT NOT NULL
);

-- Append-only: one row each time a price is first seen or changes.
CREATE TABLE price_observations (
    id                INTEGER PRIMARY KEY,
    feed              TEXT NOT NULL,
    provider          TEXT NOT NULL,
    region            TEXT NOT NULL DEFAULT '',
    instance_type     TEXT NOT NULL DEFAULT '',
    gpu_id            TEXT NOT NULL REFERENCES gpus(id),
    gpus_per_instance INTEGER NOT NULL CHECK (gpus_per_instance >= 1),
    tier              TEXT NOT NULL CHECK (tier IN ('on-demand', 'spot', 'reserved', 'quote')),
    amount            REAL NOT NULL CHECK (amount > 0),
    currency          TEXT NOT NULL,
    unit              TEXT NOT NULL CHECK (unit IN ('gpu-hour', 'instance-hour')),
    usd_per_gpu_hour  REAL NOT NULL CHECK (usd_per_gpu_hour > 0),
    observed_at       INTEGER NOT NULL,
    source_url        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX price_observations_key
    ON price_observations (feed, provider, region, instance_type, gpu_id, tier, observed_at);
CREATE INDEX price_observations_gpu ON price_observations (gpu_id, observed_at);

CREATE TRIGGER price_observations_append_only_update BEFORE UPDATE ON price_observations
BEGIN
    SELECT RAISE(ABORT, 'price_observations is append-only');
END;

-- The current offers of each feed, replaced whole by each successful refresh of that feed.
CREATE TABLE offers (
    feed              TEXT NOT NULL,
    provider          TEXT NOT NULL,
    region            TEXT NOT NULL DEFAULT '',
    instance_type     TEXT NOT NULL DEFAULT '',
    gpu_id            TEXT NOT NULL REFERENCES gpus(id),
    gpus_per_instance INTEGER NOT NULL CHECK (gpus_per_instance >= 1),
    tier              TEXT NOT NULL CHECK (tier IN ('on-demand', 'spot', 'reserved', 'quote')),
    amount            REAL NOT NULL CHECK (amount > 0),
    currency          TEXT NOT NULL,
    unit              TEXT NOT NULL CHECK (unit IN ('gpu-hour', 'instance-hour')),
    usd_per_gpu_hour  REAL NOT NULL CHECK (usd_per_gpu_hour > 0),
    observed_at       INTEGER NOT NULL,
    source_url        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (feed, provider, region, instance_type, gpu_id, tier)
);
CREATE INDEX offers_gpu ON offers (gpu_id, usd_per_gpu_hour);

-- One row per feed per refresh attempt.
CREATE TABLE refresh_runs (
    id          INTEGER PRIMARY KEY,
    feed        TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    status      TEXT NOT NULL CHECK (status IN ('running', 'ok', 'unchanged', 'failed')),
    offers      INTEGER NOT NULL DEFAULT 0,
    changed     INTEGER NOT NULL DEFAULT 0,
    unmapped    INTEGER NOT NULL DEFAULT 0,
    rejected    INTEGER NOT NULL DEFAULT 0,
    error       TEXT
);
CREATE INDEX refresh_runs_feed ON refresh_runs (feed, started_at);

-- HTTP validators per feed URL, so an unchanged feed costs one 304.
CREATE TABLE feed_http_state (
    feed          TEXT NOT NULL,
    url           TEXT NOT NULL,
    etag          TEXT,
    last_modified TEXT,
    PRIMARY KEY (feed, url)
);

CREATE TABLE quotes (
    id                INTEGER PRIMARY KEY,
    provider          TEXT NOT NULL,
    gpu_id            TEXT NOT NULL REFERENCES gpus(id),
    amount            REAL NOT NULL CHECK (amount > 0),
    currency          TEXT NOT NULL,
    unit              TEXT NOT NULL CHECK (unit IN ('gpu-hour', 'instance-hour')),
    gpus_per_instance INTEGER NOT NULL CHECK (gpus_per_instance >= 1),
    usd_per_gpu_hour  REAL NOT NULL CHECK (usd_per_gpu_hour > 0),
    region            TEXT NOT NULL DEFAULT '',
    valid_until       INTEGER NOT NULL DEFAULT 0, -- 0 = open-ended
    note              TEXT NOT NULL DEFAULT '',
    created_at        INTEGER NOT NULL
);

CREATE TABLE fx_rates (
    currency TEXT NOT NULL,
    date     INTEGER NOT NULL,
    per_usd  REAL NOT NULL CHECK (per_usd > 0),
    source   TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (currency, date)
);

-- One calibration run on one device; its points and fitted curves hang off it.
CREATE TABLE calibrations (
    id           INTEGER PRIMARY KEY,
    fingerprint  TEXT NOT NULL UNIQUE, -- identifies a run across machines (import dedup)
    gpu_id       TEXT,                 -- canonical id the device maps to, NULL if none
    backend      TEXT NOT NULL,
    device_name  TEXT NOT NULL,
    host         TEXT NOT NULL,
    started_at   INTEGER NOT NULL,
    conditions   TEXT NOT NULL         -- JSON: memory, driver, runtime, library, clocks, power
);

CREATE TABLE calibration_points (
    calibration_id INTEGER NOT NULL REFERENCES calibrations(id) ON DELETE CASCADE,
    kernel         TEXT NOT NULL,  -- 'gemm' or a bandwidth kernel: copy scale add triad read
    precision      TEXT NOT NULL,  -- for gemm; '' for bandwidth
    m              INTEGER NOT NULL DEFAULT 0,
    n              INTEGER NOT NULL DEFAULT 0,
    k              INTEGER NOT NULL DEFAULT 0,
    bytes          INTEGER NOT NULL DEFAULT 0, -- bandwidth working set
    median         REAL NOT NULL,  -- TFLOP/s for gemm, GB/s for bandwidth
    p10            REAL NOT NULL,
    p90            REAL NOT NULL,
    cv             REAL NOT NULL,
    repetitions    INTEGER NOT NULL
);
CREATE INDEX calibration_points_run ON calibration_points (calibration_id);

CREATE TABLE calibration_fits (
    calibration_id INTEGER NOT NULL REFERENCES calibrations(id) ON DELETE CASCADE,
    kernel         TEXT NOT NULL,  -- 'gemm' or 'bandwidth'
    precision      TEXT NOT NULL,
    eff_max        REAL NOT NULL,  -- fraction of datasheet peak, asymptotic
    s_half         REAL NOT NULL,  -- problem size at half of eff_max (FLOPs or bytes)
    rmse           REAL NOT NULL,
    r2             REAL NOT NULL,
    points         INTEGER NOT NULL,
    PRIMARY KEY (calibration_id, kernel, precision)
);
