-- 009: day-ahead electricity prices by bidding zone, as the electricity feeds publish them. One
-- row per zone and delivery period: a period published again replaces its price (day-ahead
-- prices are final, so that happens only when a feed corrects one). Kept as history: a refresh
-- adds the new periods and never drops the old ones.
CREATE TABLE energy_prices (
    zone    TEXT    NOT NULL,                       -- bidding zone: DK1, SE3, FI, ...
    start   INTEGER NOT NULL,                       -- start of the period, Unix seconds UTC
    minutes INTEGER NOT NULL CHECK (minutes > 0),   -- 60 (hourly) or 15 (quarter-hourly)
    eur_mwh REAL    NOT NULL,                       -- EUR per MWh
    feed    TEXT    NOT NULL,                       -- the feed that stored it
    PRIMARY KEY (zone, start, minutes)
) WITHOUT ROWID;
