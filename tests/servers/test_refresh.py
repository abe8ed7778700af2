#!/usr/bin/env python3
"""Integration tests of `gpuplan refresh` against the loopback fixture server: every adapter
end to end, history, 304s, retries, failures that keep the last good offers, secrets, plain
http refusal, concurrent refreshes and a refresh killed with SIGKILL.

usage: test_refresh.py PATH/TO/gpuplan
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
GPUPLAN = None

KEYS = {
    "LAMBDA_API_KEY": "lk_test_SECRET_4f1d2c",
    "RUNPOD_API_KEY": "rp_test_SECRET_9a8b7c",
    "DIGITALOCEAN_TOKEN": "dop_v1_test_SECRET_77aa",
    "ENTSOE_TOKEN": "et_test_SECRET_5c3e",
}
PROVIDER_FEEDS = ["azure", "aws", "lambda", "runpod", "oci", "vultr", "digitalocean", "vast",
                  "scaleway", "ovh", "verda", "fx", "energidata", "entsoe"]
VERDA_KEYS = {"VERDA_CLIENT_ID": "vc_test_id_7", "VERDA_CLIENT_SECRET": "vc_test_SECRET_8d21"}


class FixtureServer:
    def __init__(self, workdir):
        self.port_file = os.path.join(workdir, "port")
        self.log = os.path.join(workdir, "requests.log")
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "fixture_server.py"), "--root", FIXTURES,
             "--port-file", self.port_file, "--log", self.log])
        for _ in range(100):
            if os.path.exists(self.port_file):
                break
            time.sleep(0.05)
        with open(self.port_file, encoding="utf-8") as f:
            self.base = "http://127.0.0.1:%s" % f.read().strip()

    def requests(self):
        with open(self.log, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


class RefreshTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="gpuplan-refresh-")
        cls.server = FixtureServer(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.tmp.cleanup()

    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=self.tmp.name)
        self.db = os.path.join(self.dir, "gpuplan.db")
        self.env = dict(os.environ)
        for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                    "VAST_API_KEY", "VULTR_API_KEY", "GPUPLAN_NOW", "VERDA_CLIENT_ID",
                    "VERDA_CLIENT_SECRET", "ENTSOE_TOKEN"):
            self.env.pop(var, None)
        self.env.update(KEYS)
        self.env["GPUPLAN_DB"] = self.db
        self.env["XDG_CONFIG_HOME"] = os.path.join(self.dir, "config")

    # ---- helpers ----------------------------------------------------------------------

    def url(self, feed, scenario):
        prefix = {"digitalocean": "do"}.get(feed, feed)
        return "%s=%s/%s/%s" % (feed, self.server.base, prefix, scenario)

    def refresh(self, *args, scenarios=None, env=None, expect=None):
        argv = [GPUPLAN, "refresh"]
        for feed, scenario in (scenarios or {}).items():
            argv += ["--url", self.url(feed, scenario)]
        argv += list(args)
        proc = subprocess.run(argv, env=env or self.env, capture_output=True, text=True,
                              timeout=120)
        if expect is not None:
            self.assertEqual(proc.returncode, expect,
                             "exit %d\nstdout:\n%s\nstderr:\n%s" %
                             (proc.returncode, proc.stdout, proc.stderr))
        return proc

    def all_ok(self):
        return {feed: "ok" for feed in PROVIDER_FEEDS}

    def query(self, sql, *params):
        con = sqlite3.connect(self.db)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def offers(self, feed):
        return self.query("SELECT instance_type, region, gpu_id, tier, amount, usd_per_gpu_hour "
                          "FROM offers WHERE feed = ? ORDER BY 1, 2, 3, 4", feed)

    def last_run(self, feed):
        rows = self.query("SELECT status, offers, changed, unmapped, rejected, error FROM "
                          "refresh_runs WHERE feed = ? ORDER BY id DESC LIMIT 1", feed)
        return rows[0] if rows else None

    def observations(self, feed):
        return self.query("SELECT count(*) FROM price_observations WHERE feed = ?", feed)[0][0]

    # ---- tests --------------------------------------------------------------------------

    def test_every_adapter_fills_offers_and_history(self):
        first = self.refresh(scenarios=self.all_ok(), expect=0)
        expected = {"azure": 6, "aws": 6, "lambda": 3, "runpod": 8, "oci": 6, "vultr": 8,
                    "digitalocean": 8, "vast": 10, "scaleway": 7, "ovh": 4, "verda": 9}
        self.assertEqual(self.last_run("fx")[:3], ("ok", 4, 4))
        for feed, count in expected.items():
            self.assertEqual(len(self.offers(feed)), count, feed)
            self.assertEqual(self.observations(feed), count, feed)
            status, offers, changed, _unmapped, _rejected, error = self.last_run(feed)
            self.assertEqual((status, offers, changed, error), ("ok", count, count, None), feed)
        self.assertIn("azure", first.stderr)
        # each offer's region is resolved to its country and jurisdiction as it is stored
        places = dict(((r[0], r[1]), r[2:]) for r in self.query(
            "SELECT feed, region, country, jurisdiction FROM offers WHERE region <> ''"))
        self.assertEqual(places[("azure", "westeurope")], ("NL", "eu"))
        self.assertEqual(places[("vultr", "fra")], ("DE", "eu"))
        self.assertEqual(places[("vast", "US")], ("US", "us"))
        self.assertEqual(places[("runpod", "EU-SE-1")], ("SE", "eu"))
        self.assertEqual(places[("scaleway", "pl-waw-2")], ("PL", "eu"))
        self.assertEqual(places[("ovh", "BHS5")], ("CA", "ca"))
        status = subprocess.run([GPUPLAN, "refresh", "--status", "--format", "csv"], env=self.env,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(status.returncode, 0, status.stderr)
        lines = status.stdout.strip().splitlines()
        self.assertEqual(lines[0], "feed,status,started,seconds,offers,changed,unmapped,rejected,"
                                   "error")
        self.assertEqual(sorted(line.split(",")[0] for line in lines[1:]),
                         sorted(list(expected) + ["fx", "energidata", "entsoe"]))
        self.assertIn(("Standard_ND96isr_H100_v5", "eastus", "h100-sxm", "spot", 18.169536,
                       18.169536 / 8), self.offers("azure"))

        # unchanged prices are not recorded again; validators turn oci and aws into one 304
        before = len(self.server.requests())
        self.refresh(scenarios=self.all_ok(), expect=0)
        for feed, count in expected.items():
            self.assertEqual(self.observations(feed), count, feed)
            self.assertEqual(len(self.offers(feed)), count, feed)
        self.assertEqual(self.last_run("oci")[0], "unchanged")
        self.assertEqual(self.last_run("aws")[0], "unchanged")
        self.assertEqual(self.last_run("azure")[:3], ("ok", 6, 0))
        second = self.server.requests()[before:]
        oci = [r for r in second if r["path"].startswith("/oci/")]
        self.assertEqual([r["status"] for r in oci], [304])
        self.assertEqual(oci[0]["if_none_match"], '"oci-2026-09-23"')
        self.assertTrue(all(r["user_agent"].startswith("gpuplan/") for r in second))

    def test_changed_prices_append_history_and_replace_offers(self):
        env = dict(self.env, GPUPLAN_NOW="2026-11-20")
        self.refresh("--feed", "azure", scenarios={"azure": "ok"}, env=env, expect=0)
        env["GPUPLAN_NOW"] = "2026-11-25"
        self.refresh("--feed", "azure", scenarios={"azure": "changed"}, env=env, expect=0)
        changed = subprocess.run([GPUPLAN, "prices", "--changed-since", "2026-11-24", "--format",
                                  "csv"], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(changed.returncode, 0, changed.stderr)
        rows = changed.stdout.strip().splitlines()[1:]
        self.assertEqual(len(rows), 1, changed.stdout)
        self.assertIn("h100-sxm,azure,on-demand,,11.25,90.00", rows[0])
        self.assertIn("was 12.29 (-8.5%)", rows[0])
        danish = subprocess.run([GPUPLAN, "--locale", "da_DK", "prices", "--changed-since",
                                 "2026-11-24"], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(danish.returncode, 0, danish.stderr)
        self.assertIn("was 12,29 (-8,5%)", danish.stdout)
        self.assertEqual(self.last_run("azure")[:3], ("ok", 2, 1))
        self.assertEqual(self.observations("azure"), 7)
        self.assertEqual([o[4] for o in self.offers("azure")], [90.0, 48.0])
        hist = subprocess.run([GPUPLAN, "prices", "history", "--gpu", "h100-sxm", "--provider",
                               "azure", "--format", "csv"], env=self.env, capture_output=True,
                              text=True, timeout=60)
        self.assertEqual(hist.returncode, 0, hist.stderr)
        self.assertIn("90", hist.stdout)
        self.assertIn("98.32", hist.stdout)
        self.assertIn("changed -8.5%", hist.stdout)
        danish = subprocess.run([GPUPLAN, "--locale", "da_DK", "prices", "history", "--gpu",
                                 "h100-sxm", "--provider", "azure"], env=self.env,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(danish.returncode, 0, danish.stderr)
        self.assertIn("changed -8,5%", danish.stdout)

    def test_failures_keep_the_last_good_offers(self):
        self.refresh("--feed", "azure", scenarios={"azure": "ok"}, expect=0)
        good = self.offers("azure")
        for scenario, reason in [("fail", "HTTP 500"), ("shape", "no Items array"),
                                 ("invalid", "invalid JSON"), ("truncated", "attempts"),
                                 ("huge", "cap"), ("empty", "no usable offers"),
                                 ("slow", "imed out")]:
            args = ["--feed", "azure"] + (["--timeout", "1"] if scenario == "slow" else [])
            proc = self.refresh(*args, scenarios={"azure": scenario}, expect=4)
            self.assertEqual(self.offers("azure"), good, scenario)
            status, offers, _c, _u, _r, error = self.last_run("azure")
            self.assertEqual((status, offers), ("failed", len(good)), scenario)
            self.assertIn(reason, error, scenario)
            self.assertIn("feed azure failed", proc.stderr)

    def test_partial_failure_does_not_stop_other_feeds(self):
        proc = self.refresh("--feed", "azure", "--feed", "oci", "--feed", "vast",
                            scenarios={"azure": "fail", "oci": "ok", "vast": "error"}, expect=4)
        self.assertEqual(len(self.offers("oci")), 6)
        self.assertEqual(self.last_run("vast")[0], "failed")
        self.assertIn("unknown field gpu_nam", self.last_run("vast")[5])
        self.assertIn("oci", proc.stderr)

    def test_retries_honour_retry_after_and_5xx(self):
        before = len(self.server.requests())
        self.refresh("--feed", "azure", scenarios={"azure": "retry"}, expect=0)
        statuses = [r["status"] for r in self.server.requests()[before:]]
        self.assertEqual(sorted(statuses), sorted([429, 200, 503, 200]))
        self.assertEqual(len(self.offers("azure")), 6)

    def test_a_status_that_will_not_pass_is_not_retried(self):
        # 501 is outside curl's --retry set (408, 429, 500, 502, 503, 504): one attempt
        before = len(self.server.requests())
        proc = self.refresh("--feed", "azure", scenarios={"azure": "notimpl"}, expect=4)
        statuses = [r["status"] for r in self.server.requests()[before:]]
        self.assertEqual(statuses, [501])
        self.assertIn("501", proc.stderr)

    def test_streamed_file_restarts_cleanly_after_a_cut(self):
        # 500, then a body cut after 3000 bytes, then the whole file: the parser starts over
        # and nothing from the cut attempt is counted twice
        before = len(self.server.requests())
        self.refresh("--feed", "aws", "--url", "aws=%s/aws/flaky" % self.server.base, expect=0)
        self.assertEqual([r["status"] for r in self.server.requests()[before:]], [500, 200, 200])
        self.assertEqual(len(self.offers("aws")), 6)
        self.assertEqual(self.last_run("aws")[:5], ("ok", 6, 6, 1, 4))

    def test_compressed_responses(self):
        self.refresh("--feed", "azure", scenarios={"azure": "gzip"}, expect=0)
        self.assertEqual(len(self.offers("azure")), 6)

    def test_secrets_never_reach_the_database_or_output(self):
        proc = self.refresh("-v", scenarios=self.all_ok(), expect=0)
        with open(self.db, "rb") as f:
            data = f.read()
        wal = self.db + "-wal"
        if os.path.exists(wal):
            with open(wal, "rb") as f:
                data += f.read()
        for secret in KEYS.values():
            self.assertNotIn(secret.encode(), data)
            self.assertNotIn(secret, proc.stdout + proc.stderr)
        self.assertIn("auth", json.dumps(self.server.requests()))

    def test_missing_key_skips_and_wrong_key_fails(self):
        env = dict(self.env)
        env.pop("LAMBDA_API_KEY")
        proc = self.refresh("--feed", "lambda", scenarios={"lambda": "ok"}, env=env, expect=0)
        self.assertIn("skipped", proc.stderr)
        self.assertIn("LAMBDA_API_KEY", proc.stderr)
        self.assertIsNone(self.last_run("lambda"))
        proc = self.refresh("--feed", "lambda", scenarios={"lambda": "wrongkey"}, expect=4)
        self.assertIn("HTTP 401", proc.stderr)
        self.assertNotIn(KEYS["LAMBDA_API_KEY"], proc.stderr)

    def test_verda_catalogue_and_its_locations(self):
        # the public catalogue: every instance type once, with no location
        self.refresh("--feed", "verda", scenarios={"verda": "ok"}, expect=0)
        self.assertEqual(self.last_run("verda"), ("ok", 9, 9, 0, 1, None))
        self.assertEqual(set(o[1] for o in self.offers("verda")), {""})
        # with client credentials: a token first, then the catalogue and where each type is
        env = dict(self.env, **VERDA_KEYS)
        before = len(self.server.requests())
        proc = self.refresh("-v", "--feed", "verda", "--url", self.url("verda", "keyed"), env=env,
                            expect=0)
        reqs = self.server.requests()[before:]
        self.assertEqual([(r["method"], r["path"].split("?")[0].rsplit("/", 1)[1],
                           r["auth_scheme"]) for r in reqs],
                         [("POST", "token", ""), ("GET", "instance-types", "Bearer"),
                          ("GET", "instance-availability", "Bearer")])
        self.assertEqual(self.last_run("verda")[:2], ("ok", 13))
        places = self.query("SELECT instance_type, region, country, jurisdiction FROM offers "
                            "WHERE feed = 'verda' AND tier = 'on-demand' ORDER BY 1, 2")
        self.assertIn(("8H200.141S.176V", "FIN-02", "FI", "eu"), places)
        self.assertIn(("8H100.80S.176V", "ICE-01", "IS", "eea"), places)
        self.assertIn(("8B200.180S.240V", "", "", ""), places)  # listed at no location
        with open(self.db, "rb") as f:
            data = f.read()
        for secret in ("vc_test_SECRET_8d21", "va_access_SECRET_token_1", "vr_refresh_SECRET_2"):
            self.assertNotIn(secret.encode(), data)
            self.assertNotIn(secret, proc.stdout + proc.stderr)
        # an EU-only plan prices H100 and H200 from offers in the EU
        plan = subprocess.run([GPUPLAN, "plan", "-w", "chat-llama-3.1-70b", "--jurisdiction", "eu",
                               "--gpus", "h100-sxm,h200-sxm", "--format", "json"], env=env,
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(plan.returncode, 0, plan.stderr)
        rows = {r["gpu"]: r for r in json.loads(plan.stdout)["rows"]}
        self.assertEqual(rows["h200-sxm"]["provider"], "verda")
        self.assertTrue(all(rows[g]["cost_per_hour"] for g in ("h100-sxm", "h200-sxm")), rows)
        # a refused secret, a token endpoint that redirects (never followed: the secret is in
        # the body) or a catalogue that is no JSON fail the feed and keep its offers
        bad = dict(env, VERDA_CLIENT_SECRET="vc_test_wrong")
        for scenario, run_env, why in (("keyed", bad, "cannot get an access token"),
                                       ("redirect", env, "HTTP 307"),
                                       ("html", self.env, "invalid JSON")):
            before = len(self.server.requests())
            proc = self.refresh("--feed", "verda", "--url", self.url("verda", scenario),
                                env=run_env, expect=4)
            self.assertIn(why, self.last_run("verda")[5], proc.stderr)
            self.assertNotIn("SECRET", proc.stderr)
            self.assertEqual(len(self.offers("verda")), 13)
            if scenario == "redirect":
                self.assertEqual(len(self.server.requests()) - before, 1)

    def test_key_file_readable_by_others_is_refused(self):
        keyfile = os.path.join(self.dir, "lambda.key")
        with open(keyfile, "w", encoding="utf-8") as f:
            f.write(KEYS["LAMBDA_API_KEY"] + "\n")
        os.chmod(keyfile, 0o640)
        os.makedirs(os.path.join(self.dir, "config", "gpuplan"))
        with open(os.path.join(self.dir, "config", "gpuplan", "feeds.json"), "w",
                  encoding="utf-8") as f:
            json.dump({"feeds": [{"name": "lambda", "key_file": keyfile}]}, f)
        env = dict(self.env)
        env.pop("LAMBDA_API_KEY")
        proc = self.refresh("--feed", "lambda", scenarios={"lambda": "ok"}, env=env, expect=4)
        self.assertIn("0640", proc.stderr)
        self.assertNotIn(KEYS["LAMBDA_API_KEY"], proc.stderr)
        os.chmod(keyfile, 0o600)
        self.refresh("--feed", "lambda", scenarios={"lambda": "ok"}, env=env, expect=0)
        self.assertEqual(len(self.offers("lambda")), 3)

    def test_plain_http_to_other_hosts_is_refused(self):
        before = len(self.server.requests())
        proc = self.refresh("--feed", "oci", "--url", "oci=http://prices.example.invalid/oci",
                            expect=4)
        self.assertIn("refusing plain http", proc.stderr)
        self.assertEqual(len(self.server.requests()), before)

    def test_proxy_variables_are_honoured(self):
        # the fixture server doubles as a forward proxy: it sees the absolute URL
        env = dict(self.env, http_proxy=self.server.base)
        before = len(self.server.requests())
        self.refresh("--feed", "oci", "--allow-insecure-http", "--url",
                     "oci=http://prices.example.invalid/oci/ok", env=env, expect=0)
        paths = [r["path"] for r in self.server.requests()[before:]]
        self.assertEqual(paths, ["http://prices.example.invalid/oci/ok/pls/apex/cetools/api/v1/"
                                 "products/?currencyCode=USD"])
        self.assertEqual(len(self.offers("oci")), 6)

    def test_generic_price_lists_over_http_and_file(self):
        os.makedirs(os.path.join(self.dir, "config", "gpuplan"))
        csv_path = os.path.abspath(os.path.join(FIXTURES, "pricelist", "negotiated.csv"))
        with open(os.path.join(self.dir, "config", "gpuplan", "feeds.json"), "w",
                  encoding="utf-8") as f:
            json.dump({"feeds": [
                {"name": "acme-csv", "adapter": "pricelist-csv", "provider": "acme",
                 "base_url": "file://" + csv_path},
                {"name": "tw-json", "adapter": "pricelist-json",
                 "base_url": self.server.base + "/pricelist/ok/negotiated.json"}]}, f)
        self.refresh("--feed", "acme-csv", "--feed", "tw-json", expect=0)
        self.assertEqual(len(self.offers("acme-csv")), 4)
        self.assertEqual(self.last_run("acme-csv")[3:5], (1, 2))
        self.assertEqual(len(self.offers("tw-json")), 2)
        # file:// stays confined to the generic lists
        proc = self.refresh("--feed", "oci", "--url", "oci=file://" + csv_path, expect=4)
        self.assertIn("file://", proc.stderr)

    def test_aws_query_api_with_sigv4_credentials(self):
        env = dict(self.env)
        env.update({"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE",
                    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYSECRET"})
        before = len(self.server.requests())
        self.refresh("--feed", "aws", "--url", "aws=%s/aws/query" % self.server.base, env=env,
                     expect=0)
        reqs = self.server.requests()[before:]
        self.assertEqual([(r["method"], r["auth_scheme"], r["amz_target"]) for r in reqs],
                         [("POST", "AWS4-HMAC-SHA256", "AWSPriceListService.GetProducts")] * 2)
        self.assertEqual(len(self.offers("aws")), 4)
        with open(self.db, "rb") as f:
            self.assertNotIn(b"SECRET", f.read())

    def fx_rates(self):
        return self.query("SELECT currency, date(date, 'unixepoch'), round(per_usd, 6), source "
                          "FROM fx_rates WHERE source LIKE '%/fx/%' ORDER BY 1, 2")

    def test_fx_rates_are_stored_with_their_dates(self):
        self.refresh("--feed", "fx", scenarios={"fx": "ok"}, expect=0)
        rates = self.fx_rates()
        self.assertEqual([r[:3] for r in rates],
                         [("DKK", "2026-11-20", round(7.4586 / 1.0512, 6)),
                          ("DKK", "2026-11-23", round(7.4590 / 1.04, 6)),
                          ("EUR", "2026-11-20", round(1 / 1.0512, 6)),
                          ("EUR", "2026-11-23", round(1 / 1.04, 6))])
        self.assertIn("/fx/ok/service/data/EXR/", rates[0][3])
        self.assertEqual(self.last_run("fx")[:3], ("ok", 4, 4))
        # the seeded rates of data/fx.json are still there beside the fetched ones
        self.assertTrue(self.query("SELECT count(*) FROM fx_rates WHERE source NOT LIKE '%/fx/%'")[0][0])
        # unchanged: the server answers 304 to the stored validator
        self.refresh("--feed", "fx", scenarios={"fx": "ok"}, expect=0)
        self.assertEqual(self.last_run("fx")[0], "unchanged")
        # a response with no rates, or no CSV, fails the feed and keeps the rates
        for scenario in ("empty", "html"):
            proc = self.refresh("--feed", "fx", scenarios={"fx": scenario}, expect=4)
            self.assertEqual(self.last_run("fx")[0], "failed", proc.stderr)
            self.assertEqual(len(self.fx_rates()), 4)

    def energy(self):
        return self.query("SELECT zone, datetime(start, 'unixepoch'), minutes, eur_mwh, feed "
                          "FROM energy_prices ORDER BY 1, 2, 3")

    def test_electricity_prices_are_stored_as_history(self):
        self.refresh("--feed", "energidata", scenarios={"energidata": "ok"}, expect=0)
        prices = self.energy()
        # eight quarter-hours of DK1 and DK2, less the one without a EUR price
        self.assertEqual(len(prices), 7)
        self.assertEqual(prices[0], ("DK1", "2026-11-30 23:00:00", 15, 101.25, "energidata"))
        self.assertIn(("DK1", "2026-11-30 23:30:00", 15, -4.75, "energidata"), prices)
        self.assertNotIn("2026-11-30 23:45:00", [p[1] for p in prices if p[0] == "DK2"])
        status, offers, changed, _unmapped, rejected, error = self.last_run("energidata")
        self.assertEqual((status, offers, changed, rejected, error), ("ok", 7, 7, 1, None))
        # the former hourly dataset adds its hours beside them: history is kept
        self.refresh("--feed", "energidata", scenarios={"energidata": "hourly"}, expect=0)
        self.assertEqual(len(self.energy()), 11)
        self.assertIn(("DK2", "2025-09-30 21:00:00", 60, 75.75, "energidata"), self.energy())
        # the same prices again change nothing
        self.refresh("--feed", "energidata", scenarios={"energidata": "ok"}, expect=0)
        self.assertEqual(self.last_run("energidata")[:3], ("ok", 7, 0))
        # no records, or no JSON: the feed fails and the stored prices stay
        for scenario in ("empty", "html"):
            proc = self.refresh("--feed", "energidata", scenarios={"energidata": scenario},
                                expect=4)
            self.assertEqual(self.last_run("energidata")[0], "failed", proc.stderr)
            self.assertEqual(len(self.energy()), 11)

    def test_nordic_prices_from_entsoe(self):
        before = len(self.server.requests())
        self.refresh("--feed", "entsoe", scenarios={"entsoe": "ok"}, expect=0)
        prices = [p for p in self.energy() if p[4] == "entsoe"]
        # ten zones: NO3 and NO4 publish nothing (HTTP 400 and 200 acknowledgements), NO2's
        # A03 hour holds for two, NO5's hourly price gives way to its quarter-hours
        self.assertEqual(len(prices), 30)
        self.assertEqual(sorted(set(p[0] for p in prices)),
                         ["FI", "NO1", "NO2", "NO5", "SE1", "SE2", "SE3", "SE4"])
        self.assertIn(("NO2", "2026-12-01 00:00:00", 60, 55.0, "entsoe"), prices)
        self.assertNotIn(60, [p[2] for p in prices if p[0] == "NO5"])
        self.assertEqual(self.last_run("entsoe"), ("ok", 30, 30, 0, 1, None))
        # the token goes in the query of every request, and nowhere gpuplan writes
        reqs = self.server.requests()[before:]
        self.assertEqual(len(reqs), 10)
        self.assertTrue(all("securityToken=et_test_SECRET_5c3e" in r["path"] for r in reqs))
        with open(self.db, "rb") as f:
            self.assertNotIn(b"SECRET", f.read())
        # the dates of the request follow the refresh's day
        env = dict(self.env, GPUPLAN_NOW="2026-12-01T15:30:00Z")
        self.refresh("--feed", "entsoe", "--url", self.url("entsoe", "dated"), env=env, expect=0)
        self.assertEqual(self.last_run("entsoe")[:3], ("ok", 4, 0))
        # a refusal, a cut document or a page that is no market document fail the feed with
        # the reason, and keep every stored price
        for scenario, why in (("refused", "ENTSO-E refused the request: 999: The amount"),
                              ("truncated", "not an ENTSO-E market document: line"),
                              ("html", "HTTP 401")):
            proc = self.refresh("--feed", "entsoe", scenarios={"entsoe": scenario}, expect=4)
            self.assertEqual(self.last_run("entsoe")[0], "failed", proc.stderr)
            self.assertIn(why, self.last_run("entsoe")[5])
            self.assertNotIn("SECRET", proc.stderr + self.last_run("entsoe")[5])
            self.assertEqual(len([p for p in self.energy() if p[4] == "entsoe"]), 30)
        # a token with characters a query gives meaning to arrives whole, as one parameter
        odd = KEYS["ENTSOE_TOKEN"] + "&documentType=A65 +%"
        before = len(self.server.requests())
        self.refresh("--feed", "entsoe", scenarios={"entsoe": "ok"},
                     env=dict(self.env, ENTSOE_TOKEN=odd), expect=0)
        query = urllib.parse.parse_qs(self.server.requests()[before]["path"].split("?", 1)[1])
        self.assertEqual(query["securityToken"], [odd])
        self.assertEqual(query["documentType"], ["A44"])
        # no token: skipped, saying which variable to set
        env = dict(self.env)
        env.pop("ENTSOE_TOKEN")
        proc = self.refresh("--feed", "entsoe", scenarios={"entsoe": "ok"}, env=env, expect=0)
        self.assertIn("set ENTSOE_TOKEN", proc.stdout + proc.stderr)

    def test_base_url_of_host_only(self):
        # as in data/feeds.json: scheme and host, the path from the feed's paths
        self.refresh("--feed", "oci", "--url", "oci=" + self.server.base, expect=0)
        self.assertEqual(len(self.offers("oci")), 6)

    def test_dry_run_writes_nothing(self):
        proc = self.refresh("--dry-run", "--feed", "oci", scenarios={"oci": "ok"}, expect=0)
        self.assertIn("dry run", proc.stderr)
        self.assertFalse(os.path.exists(self.db))

    def test_concurrent_refreshes_wait_or_leave_cleanly(self):
        args = [GPUPLAN, "refresh", "--feed", "aws", "--url",
                "aws=%s/aws/slow" % self.server.base]
        self.refresh("--feed", "oci", scenarios={"oci": "ok"}, expect=0)  # creates the database
        first = subprocess.Popen(args, env=self.env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        self.wait_for_run("aws", "running")
        second = subprocess.run(args + ["--lock-wait", "1"], env=self.env, capture_output=True,
                                text=True, timeout=60)
        waiting = subprocess.Popen(args + ["--lock-wait", "60"], env=self.env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _out, err = first.communicate(timeout=60)
        self.assertEqual(first.returncode, 0, err)
        self.assertEqual(second.returncode, 1, second.stderr)
        self.assertIn("another refresh", second.stderr)
        _out, err = waiting.communicate(timeout=60)
        self.assertEqual(waiting.returncode, 0, err)
        self.assertEqual(self.query("PRAGMA integrity_check"), [("ok",)])
        self.assertEqual(len(self.offers("aws")), 6)

    def test_killed_refresh_leaves_a_consistent_database(self):
        self.refresh("--feed", "oci", scenarios={"oci": "ok"}, expect=0)
        proc = subprocess.Popen([GPUPLAN, "refresh", "--feed", "azure", "--feed", "aws",
                                 "--url", self.url("azure", "ok"),
                                 "--url", "aws=%s/aws/slow" % self.server.base],
                                env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.wait_for_run("azure", "ok")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()
        self.assertEqual(self.query("PRAGMA integrity_check"), [("ok",)])
        self.assertEqual(len(self.offers("azure")), 6)
        self.assertEqual(len(self.offers("oci")), 6)
        self.assertEqual(self.offers("aws"), [])
        self.assertEqual(self.last_run("aws")[0], "running")
        # the next refresh closes the interrupted run and goes on
        self.refresh("--feed", "oci", scenarios={"oci": "ok"}, expect=0)
        self.assertEqual(self.query("SELECT status, error FROM refresh_runs WHERE feed = 'aws'"),
                         [("failed", "interrupted before it finished")])

    def test_kill_at_any_moment_of_a_large_write(self):
        # a 40,000-row price list written in one transaction, killed at different moments: the
        # feed holds either every old or every new price, never a mix, never a broken file
        rows = 40000
        paths = {}
        for version in (1, 2):
            paths[version] = os.path.join(self.dir, "big-v%d.csv" % version)
            with open(paths[version], "w", encoding="utf-8") as f:
                f.write("provider,gpu,tier,price,unit,instance_type\n")
                for i in range(rows):
                    f.write("bulk,h100-sxm,on-demand,%d.%02d,gpu-hour,type-%06d\n" %
                            (version, i % 100, i))
        os.makedirs(os.path.join(self.dir, "config", "gpuplan"))
        with open(os.path.join(self.dir, "config", "gpuplan", "feeds.json"), "w",
                  encoding="utf-8") as f:
            json.dump({"feeds": [{"name": "big", "adapter": "pricelist-csv",
                                  "base_url": "file://" + paths[1]}]}, f)
        self.refresh("--feed", "big", expect=0)
        self.assertEqual(len(self.offers("big")), rows)
        argv = [GPUPLAN, "refresh", "--feed", "big", "--url", "big=file://" + paths[2]]
        kills = 0
        for delay in (0.05, 0.15, 0.3, 0.5, 0.8, 1.2):
            proc = subprocess.Popen(argv, env=self.env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            time.sleep(delay)
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                kills += 1
            proc.wait(timeout=30)
            self.assertEqual(self.query("PRAGMA integrity_check"), [("ok",)])
            versions = self.query("SELECT DISTINCT CAST(amount AS INTEGER) FROM offers "
                                  "WHERE feed = 'big'")
            self.assertIn(versions, ([(1,)], [(2,)]), "delay %.2f" % delay)
            self.assertEqual(len(self.offers("big")), rows)
            observations = self.observations("big")
            self.assertIn(observations, (rows, 2 * rows))
            if versions == [(2,)]:
                self.assertEqual(observations, 2 * rows)
                break
        self.assertGreater(kills, 0)

    def wait_for_run(self, feed, status):
        for _ in range(200):
            if os.path.exists(self.db):
                try:
                    run = self.last_run(feed)
                except sqlite3.OperationalError:
                    run = None
                if run and run[0] == status:
                    return
            time.sleep(0.05)
        self.fail("feed %s never reached status %s" % (feed, status))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    GPUPLAN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
