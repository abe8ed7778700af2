-- 004: offers as they are rented. Each offer key gains its term (reserved months, capacity-block
-- days), so a one-year and a three-year commitment are two offers; the tier 'capacity-block'
-- joins the others; each offer carries its region's country and jurisdiction, its upfront share,
-- minimum term and GPU count, the price of one rentable unit and how long the price holds.
-- feed_offers is rebuilt (SQLite cannot change a CHECK or UNIQUE constraint in place) with its
-- ids kept, so price_history keeps referring to the same keys and stays untouched. Quotes gain
-- a minimum term and GPU count.

DROP VIEW offers;
DROP VIEW price_observations;

CREATE TABLE feed_offers_004 (
    id                    INTEGER PRIMARY KEY,
    feed                  TEXT NOT NULL,
    provider              TEXT NOT NULL,
    region                TEXT NOT NULL DEFAULT '',
    instance_type         TEXT NOT NULL DEFAULT '',
    gpu_id                TEXT NOT NULL REFERENCES gpus(id),
    tier                  TEXT NOT NULL CHECK (tier IN ('on-demand', 'spot', 'reserved', 'quote',
                                                        'capacity-block')),
    term_months           INTEGER NOT NULL DEFAULT 0 CHECK (term_months >= 0),
    term_days             INTEGER NOT NULL DEFAULT 0 CHECK (term_days >= 0),
    listed                INTEGER NOT NULL CHECK (listed IN (0, 1)),
    country               TEXT NOT NULL DEFAULT '',
    jurisdiction          TEXT NOT NULL DEFAULT '',
    gpus_per_instance     INTEGER NOT NULL CHECK (gpus_per_instance >= 1),
    upfront_share         REAL NOT NULL DEFAULT 0 CHECK (upfront_share >= 0 AND upfront_share <= 1),
    min_term_hours        INTEGER NOT NULL DEFAULT 0 CHECK (min_term_hours >= 0),
    min_gpus              INTEGER NOT NULL DEFAULT 0 CHECK (min_gpus >= 0),
    amount                REAL NOT NULL CHECK (amount > 0),
    currency              TEXT NOT NULL,
    unit                  TEXT NOT NULL CHECK (unit IN ('gpu-hour', 'instance-hour')),
    usd_per_gpu_hour      REAL NOT NULL CHECK (usd_per_gpu_hour > 0),
    usd_per_instance_hour REAL NOT NULL CHECK (usd_per_instance_hour > 0),
    observed_at           INTEGER NOT NULL,
    valid_until           INTEGER NOT NULL DEFAULT 0, -- 0 = open-ended
    source_id             INTEGER NOT NULL REFERENCES sources(id),
    UNIQUE (feed, provider, region, instance_type, gpu_id, tier, term_months, term_days)
);

INSERT INTO feed_offers_004 (id, feed, provider, region, instance_type, gpu_id, tier, listed,
                             gpus_per_instance, amount, currency, unit, usd_per_gpu_hour,
                             usd_per_instance_hour, observed_at, source_id)
    SELECT id, feed, provider, region, instance_type, gpu_id, tier, listed, gpus_per_instance,
           amount, currency, unit, usd_per_gpu_hour, usd_per_gpu_hour * gpus_per_instance,
           observed_at, source_id
    FROM feed_offers ORDER BY id;

DROP TABLE feed_offers;
ALTER TABLE feed_offers_004 RENAME TO feed_offers;

-- What a purchase of one GPU type reads: current offers per GPU and tier, grouped by provider,
-- rentable unit and term, cheapest first within each group.
CREATE INDEX feed_offers_purchase
    ON feed_offers (gpu_id, tier, provider, gpus_per_instance, term_months, term_days,
                    usd_per_gpu_hour)
    WHERE listed = 1;

ALTER TABLE quotes ADD COLUMN min_term_hours INTEGER NOT NULL DEFAULT 0 CHECK (min_term_hours >= 0);
ALTER TABLE quotes ADD COLUMN min_gpus INTEGER NOT NULL DEFAULT 0 CHECK (min_gpus >= 0);

-- The former views, with the new columns; offers also names its key's id.
CREATE VIEW offers AS
    SELECT f.feed, f.provider, f.region, f.country, f.jurisdiction, f.instance_type, f.gpu_id,
           f.gpus_per_instance, f.tier, f.term_months, f.term_days, f.upfront_share,
           f.min_term_hours, f.min_gpus, f.amount, f.currency, f.unit, f.usd_per_gpu_hour,
           f.usd_per_instance_hour, f.observed_at, f.valid_until, s.url AS source_url,
           f.id AS offer_id
    FROM feed_offers f JOIN sources s ON s.id = f.source_id
    WHERE f.listed = 1;

CREATE VIEW price_observations AS
    SELECT f.feed, f.provider, f.region, f.country, f.jurisdiction, f.instance_type, f.gpu_id,
           h.gpus_per_instance, f.tier, f.term_months, f.term_days, f.upfront_share,
           f.min_term_hours, f.min_gpus, h.amount, h.currency, h.unit, h.usd_per_gpu_hour,
           h.usd_per_gpu_hour * h.gpus_per_instance AS usd_per_instance_hour, h.observed_at,
           f.valid_until, s.url AS source_url, h.id
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
