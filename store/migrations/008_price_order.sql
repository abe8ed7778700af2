-- 008: the price list's order as an index. `prices` lists current offers cheapest first; without
-- an index that serves the order, SQLite sorted every listed offer in a temporary B-tree, which
-- spills to disk past its cache (about two page reads per offer at a million offers). With this
-- index the listing walks the offers in order and holds one row at a time; ties of price,
-- provider, region and instance type, rare, are sorted among themselves only.
CREATE INDEX feed_offers_price
    ON feed_offers (usd_per_gpu_hour, provider, region, instance_type)
    WHERE listed = 1;
