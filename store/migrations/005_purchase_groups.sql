-- 005: the cheapest current offer of every purchase group, so a purchase reads a few rows per
-- GPU type instead of seeking through every offer. A group is what a purchase chooses among: one
-- GPU type, tier, provider, rentable unit (GPUs per instance) and term. purchase_offers holds a
-- copy of each group's cheapest listed feed_offers row (lowest USD per GPU-hour, then lowest id,
-- the first entry of the group in feed_offers_purchase). Triggers on feed_offers keep the copies
-- true inside the transaction of every write that lists, unlists or changes an offer, whoever
-- writes it. (Rows of feed_offers are never deleted: the price history refers to each.)

CREATE TABLE purchase_offers (
    gpu_id                TEXT NOT NULL,
    tier                  TEXT NOT NULL,
    provider              TEXT NOT NULL,
    gpus_per_instance     INTEGER NOT NULL,
    term_months           INTEGER NOT NULL,
    term_days             INTEGER NOT NULL,
    usd_per_gpu_hour      REAL NOT NULL,
    id                    INTEGER NOT NULL, -- the feed_offers row this copies
    feed                  TEXT NOT NULL,
    region                TEXT NOT NULL,
    instance_type         TEXT NOT NULL,
    country               TEXT NOT NULL,
    jurisdiction          TEXT NOT NULL,
    upfront_share         REAL NOT NULL,
    min_term_hours        INTEGER NOT NULL,
    min_gpus              INTEGER NOT NULL,
    amount                REAL NOT NULL,
    currency              TEXT NOT NULL,
    unit                  TEXT NOT NULL,
    usd_per_instance_hour REAL NOT NULL,
    observed_at           INTEGER NOT NULL,
    valid_until           INTEGER NOT NULL,
    source_id             INTEGER NOT NULL,
    PRIMARY KEY (gpu_id, tier, provider, gpus_per_instance, term_months, term_days)
) WITHOUT ROWID;

INSERT INTO purchase_offers
    SELECT gpu_id, tier, provider, gpus_per_instance, term_months, term_days, usd_per_gpu_hour,
           id, feed, region, instance_type, country, jurisdiction, upfront_share, min_term_hours,
           min_gpus, amount, currency, unit, usd_per_instance_hour, observed_at, valid_until,
           source_id
    FROM (SELECT *, row_number() OVER (
                        PARTITION BY gpu_id, tier, provider, gpus_per_instance, term_months,
                                     term_days
                        ORDER BY usd_per_gpu_hour, id) AS rank
          FROM feed_offers WHERE listed = 1)
    WHERE rank = 1;

-- Inserting a listed offer's key and price into purchase_candidates makes the offer its group's
-- copy when it is cheaper than the group's copy, or the group has none; one lookup tells, and
-- most rows of a bulk write are not cheaper.
CREATE VIEW purchase_candidates AS
    SELECT id, gpu_id, tier, provider, gpus_per_instance, term_months, term_days,
           usd_per_gpu_hour
    FROM feed_offers WHERE 0;

CREATE TRIGGER purchase_candidates_enter INSTEAD OF INSERT ON purchase_candidates
    WHEN NOT EXISTS (SELECT 1 FROM purchase_offers WHERE
        (gpu_id, tier, provider, gpus_per_instance, term_months, term_days) = (NEW.gpu_id, NEW.tier,
        NEW.provider, NEW.gpus_per_instance, NEW.term_months, NEW.term_days)
        AND (usd_per_gpu_hour, id) <= (NEW.usd_per_gpu_hour, NEW.id))
BEGIN
    INSERT INTO purchase_offers
        SELECT gpu_id, tier, provider, gpus_per_instance, term_months, term_days,
               usd_per_gpu_hour, id, feed, region, instance_type, country, jurisdiction,
               upfront_share, min_term_hours, min_gpus, amount, currency, unit,
               usd_per_instance_hour, observed_at, valid_until, source_id
        FROM feed_offers WHERE id = NEW.id AND listed = 1
        ON CONFLICT DO UPDATE SET
            (usd_per_gpu_hour, id, feed, region, instance_type, country, jurisdiction,
             upfront_share, min_term_hours, min_gpus, amount, currency, unit,
             usd_per_instance_hour, observed_at, valid_until, source_id) =
            (excluded.usd_per_gpu_hour, excluded.id, excluded.feed, excluded.region,
             excluded.instance_type, excluded.country, excluded.jurisdiction,
             excluded.upfront_share, excluded.min_term_hours, excluded.min_gpus, excluded.amount,
             excluded.currency, excluded.unit, excluded.usd_per_instance_hour,
             excluded.observed_at, excluded.valid_until, excluded.source_id)
        WHERE (excluded.usd_per_gpu_hour, excluded.id) < (usd_per_gpu_hour, id);
END;

CREATE TRIGGER purchase_offers_insert AFTER INSERT ON feed_offers
    WHEN NEW.listed = 1
BEGIN
    INSERT INTO purchase_candidates VALUES (NEW.id, NEW.gpu_id, NEW.tier, NEW.provider,
        NEW.gpus_per_instance, NEW.term_months, NEW.term_days, NEW.usd_per_gpu_hour);
END;

-- A changed offer that is its former group's copy leaves it, and the group copies its cheapest
-- listed offer as it is now (this one included), or is gone.
CREATE TRIGGER purchase_offers_leave AFTER UPDATE ON feed_offers
    WHEN OLD.listed = 1 AND EXISTS (
        SELECT 1 FROM purchase_offers
        WHERE gpu_id = OLD.gpu_id AND tier = OLD.tier AND provider = OLD.provider
          AND gpus_per_instance = OLD.gpus_per_instance AND term_months = OLD.term_months
          AND term_days = OLD.term_days AND id = OLD.id)
BEGIN
    DELETE FROM purchase_offers
        WHERE gpu_id = OLD.gpu_id AND tier = OLD.tier AND provider = OLD.provider
          AND gpus_per_instance = OLD.gpus_per_instance AND term_months = OLD.term_months
          AND term_days = OLD.term_days;
    INSERT INTO purchase_offers
        SELECT gpu_id, tier, provider, gpus_per_instance, term_months, term_days,
               usd_per_gpu_hour, id, feed, region, instance_type, country, jurisdiction,
               upfront_share, min_term_hours, min_gpus, amount, currency, unit,
               usd_per_instance_hour, observed_at, valid_until, source_id
        FROM feed_offers
        WHERE listed = 1 AND gpu_id = OLD.gpu_id AND tier = OLD.tier
          AND provider = OLD.provider AND gpus_per_instance = OLD.gpus_per_instance
          AND term_months = OLD.term_months AND term_days = OLD.term_days
        ORDER BY usd_per_gpu_hour, id LIMIT 1;
END;

-- A changed listed offer is a candidate for its group's place, as a new one is. (Whichever of
-- these two triggers runs first, the group ends with its cheapest.)
CREATE TRIGGER purchase_offers_enter AFTER UPDATE ON feed_offers
    WHEN NEW.listed = 1
BEGIN
    INSERT INTO purchase_candidates VALUES (NEW.id, NEW.gpu_id, NEW.tier, NEW.provider,
        NEW.gpus_per_instance, NEW.term_months, NEW.term_days, NEW.usd_per_gpu_hour);
END;

-- What a purchase reads: the copies with their source URL, in the columns of the offers view.
CREATE VIEW purchase_cheapest AS
    SELECT p.feed, p.provider, p.region, p.country, p.jurisdiction, p.instance_type, p.gpu_id,
           p.gpus_per_instance, p.tier, p.term_months, p.term_days, p.upfront_share,
           p.min_term_hours, p.min_gpus, p.amount, p.currency, p.unit, p.usd_per_gpu_hour,
           p.usd_per_instance_hour, p.observed_at, p.valid_until, s.url AS source_url
    FROM purchase_offers p JOIN sources s ON s.id = p.source_id;
