-- 003: the price history keyed by an integer offer key, so a feed write appends narrow rows.
-- feed_offers names each (feed, provider, region, instance_type, gpu_id, tier) a feed has ever
-- listed once and carries the latest offer seen under it; price_history refers to it by id;
-- sources names each source URL once. The former tables live on as views with their columns,
-- so `offers` and `price_observations` still read as before. Existing rows are carried over
-- with their ids.

CREATE TABLE sources (
    id  INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE
);

-- One row per offer key of a feed. While `listed` is 1 the row is one of the feed's current
-- offers; once a refresh of the feed no longer lists the key it keeps the last offer seen (its
-- price is the history's latest) and `listed` becomes 0.
CREATE TABLE feed_offers (
    id                INTEGER PRIMARY KEY,
    feed              TEXT NOT NULL,
    provider          TEXT NOT NULL,
    region            TEXT NOT NULL DEFAULT '',
    instance_type     TEXT NOT NULL DEFAULT '',
    gpu_id            TEXT NOT NULL REFERENCES gpus(id),
    tier              TEXT NOT NULL CHECK (tier IN ('on-demand', 'spot', 'reserved', 'quote')),
    listed            INTEGER NOT NULL CHECK (listed IN (0, 1)),
    gpus_per_instance INTEGER NOT NULL CHECK (gpus_per_instance >= 1),
    amount            REAL NOT NULL CHECK (amount > 0),
    currency          TEXT NOT NULL,
    unit              TEXT NOT NULL CHECK (unit IN ('gpu-hour', 'instance-hour')),
    usd_per_gpu_hour  REAL NOT NULL CHECK (usd_per_gpu_hour > 0),
    observed_at       INTEGER NOT NULL,
    source_id         INTEGER NOT NULL REFERENCES sources(id),
    UNIQUE (feed, provider, region, instance_type, gpu_id, tier)
);

-- Append-only: one row each time a price is first seen or changes.
CREATE TABLE price_history (
    id                INTEGER PRIMARY KEY,
    offer_id          INTEGER NOT NULL REFERENCES feed_offers(id),
    gpus_per_instance INTEGER NOT NULL CHECK (gpus_per_instance >= 1),
    amount            REAL NOT NULL CHECK (amount > 0),
    currency          TEXT NOT NULL,
    unit              TEXT NOT NULL CHECK (unit IN ('gpu-hour', 'instance-hour')),
    usd_per_gpu_hour  REAL NOT NULL CHECK (usd_per_gpu_hour > 0),
    observed_at       INTEGER NOT NULL,
    source_id         INTEGER NOT NULL REFERENCES sources(id)
);
CREATE INDEX price_history_offer ON price_history (offer_id, observed_at);

CREATE TRIGGER price_history_append_only_update BEFORE UPDATE ON price_history
BEGIN
    SELECT RAISE(ABORT, 'price_observations is append-only');
END;
CREATE TRIGGER price_history_append_only_delete BEFORE DELETE ON price_history
BEGIN
    SELECT RAISE(ABORT, 'price_observations is append-only');
END;

-- Carry the data over: the current offers first, then every other key at its latest price.
INSERT INTO sources (url)
    SELECT source_url FROM price_observations UNION SELECT source_url FROM offers;

INSERT INTO feed_offers (feed, provider, region, instance_type, gpu_id, tier, listed,
                         gpus_per_instance, amount, currency, unit, usd_per_gpu_hour,
                         observed_at, source_id)
    SELECT o.feed, o.provider, o.region, o.instance_type, o.gpu_id, o.tier, 1,
           o.gpus_per_instance, o.amount, o.currency, o.unit, o.usd_per_gpu_hour,
           o.observed_at, s.id
    FROM offers o JOIN sources s ON s.url = o.source_url
    ORDER BY o.feed, o.provider, o.region, o.instance_type, o.gpu_id, o.tier;

INSERT INTO feed_offers (feed, provider, region, instance_type, gpu_id, tier, listed,
                         gpus_per_instance, amount, currency, unit, usd_per_gpu_hour,
                         observed_at, source_id)
    SELECT p.feed, p.provider, p.region, p.instance_type, p.gpu_id, p.tier, 0,
           p.gpus_per_instance, p.amount, p.currency, p.unit, p.usd_per_gpu_hour,
           p.observed_at, s.id
    FROM (SELECT *, row_number() OVER (
                        PARTITION BY feed, provider, region, instance_type, gpu_id, tier
                        ORDER BY observed_at DESC, id DESC) AS newest
          FROM price_observations) p
    JOIN sources s ON s.url = p.source_url
    WHERE p.newest = 1
    ORDER BY p.feed, p.provider, p.region, p.instance_type, p.gpu_id, p.tier
    ON CONFLICT DO NOTHING;

INSERT INTO price_history (id, offer_id, gpus_per_instance, amount, currency, unit,
                           usd_per_gpu_hour, observed_at, source_id)
    SELECT p.id, f.id, p.gpus_per_instance, p.amount, p.currency, p.unit, p.usd_per_gpu_hour,
           p.observed_at, s.id
    FROM price_observations p
    JOIN feed_offers f ON f.feed = p.feed AND f.provider = p.provider AND f.region = p.region
        AND f.instance_type = p.instance_type AND f.gpu_id = p.gpu_id AND f.tier = p.tier
    JOIN sources s ON s.url = p.source_url
    ORDER BY p.id;

DROP TRIGGER price_observations_append_only_update;
DROP TABLE price_observations;
DROP TABLE offers;

-- The former tables, as views with their former columns.
CREATE VIEW offers AS
    SELECT f.feed, f.provider, f.region, f.instance_type, f.gpu_id, f.gpus_per_instance, f.tier,
           f.amount, f.currency, f.unit, f.usd_per_gpu_hour, f.observed_at,
           s.url AS source_url
    FROM feed_offers f JOIN sources s ON s.id = f.source_id
    WHERE f.listed = 1;

CREATE VIEW price_observations AS
    SELECT h.id, f.feed, f.provider, f.region, f.instance_type, f.gpu_id, h.gpus_per_instance,
           f.tier, h.amount, h.currency, h.unit, h.usd_per_gpu_hour, h.observed_at,
           s.url AS source_url
    FROM price_history h
    JOIN feed_offers f ON f.id = h.offer_id
    JOIN sources s ON s.id = h.source_id;

CREATE TRIGGER price_observations_append_only_update INSTEAD OF UPDATE ON price_observations
BEGIN
    SELECT RAISE(ABORT, 'price_observations is append-only');
END;
CREATE TRIGGER price_observations_append_only_delete INSTEAD OF DELETE ON price_observations
BEGIN
    SELECT RAISE(ABORT, 'price_observations is append-only');
END;
