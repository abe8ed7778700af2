#!/usr/bin/env python3
"""Hardening tests of `gpuplan refresh` against loopback fixture servers: escaped provider text,
redacted keys, session tokens kept from cross-origin redirects, the refresh lock's file and
identity, and the dates a feed may claim (docs/reliability.md).

usage: test_hardening.py PATH/TO/gpuplan
"""

import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

from test_refresh import FixtureServer

GPUPLAN = None
AWS = {"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE",
       "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYSECRET",
       "AWS_SESSION_TOKEN": "FwoGZXIvYXdzSESSIONTOKEN"}


class HardeningTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="gpuplan-hardening-")
        os.makedirs(os.path.join(cls.tmp.name, "other"))
        cls.other = FixtureServer(os.path.join(cls.tmp.name, "other"))
        os.environ["FIXTURE_REDIRECT_BASE"] = cls.other.base
        cls.server = FixtureServer(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.other.stop()
        cls.tmp.cleanup()

    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=self.tmp.name)
        self.db = os.path.join(self.dir, "gpuplan.db")
        self.env = {k: v for k, v in os.environ.items()
                    if not k.lower().endswith("_proxy") and not k.startswith("AWS_")}
        self.env.update({"GPUPLAN_DB": self.db, "NO_COLOR": "1", "GPUPLAN_NOW": "2026-10-01",
                         "XDG_CONFIG_HOME": os.path.join(self.dir, "config")})

    def gpuplan(self, *args, env=None, expect=None):
        proc = subprocess.run([GPUPLAN] + list(args), env=env or self.env, capture_output=True,
                              text=True, timeout=120)
        if expect is not None:
            self.assertEqual(proc.returncode, expect, "exit %d\nstdout:\n%s\nstderr:\n%s" %
                             (proc.returncode, proc.stdout, proc.stderr))
        return proc

    def generic_feed(self, name, adapter, path):
        os.makedirs(os.path.join(self.dir, "config", "gpuplan"), exist_ok=True)
        with open(os.path.join(self.dir, "config", "gpuplan", "feeds.json"), "w",
                  encoding="utf-8") as f:
            json.dump({"feeds": [{"name": name, "adapter": adapter,
                                  "base_url": self.server.base + path}]}, f)

    def query(self, sql):
        import sqlite3
        con = sqlite3.connect(self.db)
        try:
            return con.execute(sql).fetchall()
        finally:
            con.close()

    # ---- item 4: provider text never drives the terminal ----------------------------------

    def test_provider_messages_are_escaped_on_stderr_and_in_status(self):
        proc = self.gpuplan("refresh", "--feed", "vast", "--url",
                            "vast=%s/hardening/vast-escape" % self.server.base,
                            env=dict(self.env, VAST_API_KEY="vk_test"), expect=4)
        self.assertNotIn("\x1b", proc.stderr)
        self.assertNotIn("\x07", proc.stderr)
        self.assertIn("\\x1b]0;owned\\x07\\x1b[2Jbad query", proc.stderr)
        status = self.gpuplan("refresh", "--status", expect=0)
        self.assertNotIn("\x1b", status.stdout)
        self.assertIn("\\x1b[2Jbad query", status.stdout)
        exact = self.gpuplan("refresh", "--status", "--format", "json", expect=0)
        self.assertIn("\\u001b[2Jbad query", exact.stdout)

    # ---- item 5: keys in a URL's query string -----------------------------------------------

    def test_query_keys_are_redacted_in_verbose_output_errors_and_the_store(self):
        proc = self.gpuplan("refresh", "-v", "--feed", "oci", "--url",
                            "oci=%s/missing?api_key=SECRETKEY1&token=SECRETKEY2" %
                            self.server.base, expect=4)
        self.assertIn("api_key=***", proc.stderr)
        self.assertNotIn("SECRETKEY", proc.stderr + proc.stdout)
        status = self.gpuplan("refresh", "--status", "--format", "csv", expect=0)
        self.assertNotIn("SECRETKEY", status.stdout)
        with open(self.db, "rb") as f:
            data = f.read()
        if os.path.exists(self.db + "-wal"):
            with open(self.db + "-wal", "rb") as f:
                data += f.read()
        self.assertNotIn(b"SECRETKEY", data)

    # ---- item 2: the AWS session token and redirects -----------------------------------------

    def test_session_token_does_not_follow_a_redirect_to_another_origin(self):
        env = dict(self.env, **AWS)
        before = len(self.other.requests())
        # plain http redirects are followed only with --allow-insecure-http
        proc = self.gpuplan("refresh", "--allow-insecure-http", "--feed", "aws", "--url",
                            "aws=%s/hardening/redirect-away/aws/query" % self.server.base,
                            env=env, expect=4)
        reqs = self.other.requests()[before:]
        self.assertEqual([r for r in reqs if r["session_token"] == "present"], [])
        self.assertIn("another origin", proc.stderr)
        self.assertNotIn(AWS["AWS_SESSION_TOKEN"], proc.stderr)

    def test_session_token_follows_a_redirect_on_the_same_origin(self):
        env = dict(self.env, **AWS)
        before = len(self.server.requests())
        self.gpuplan("refresh", "--allow-insecure-http", "--feed", "aws", "--url",
                     "aws=%s/hardening/redirect-here/aws/query" % self.server.base, env=env,
                     expect=0)
        reqs = self.server.requests()[before:]
        self.assertEqual([(r["status"], r["session_token"]) for r in reqs],
                         [(307, "present"), (200, "present")] * 2)

    # ---- item 3: the refresh lock ------------------------------------------------------------

    def lock_path(self, db):
        st = os.stat(db)
        return os.path.join(os.path.dirname(os.path.realpath(db)),
                            ".gpuplan-%x-%x.refresh.lock" % (st.st_dev, st.st_ino))

    def oci(self, db, *extra, expect=None, wait=True):
        args = [GPUPLAN, "refresh", "--feed", "oci", "--url",
                "oci=%s/oci/ok" % self.server.base] + list(extra)
        env = dict(self.env, GPUPLAN_DB=db)
        if not wait:
            return subprocess.Popen(args, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
        if expect is not None:
            self.assertEqual(proc.returncode, expect, proc.stderr)
        return proc

    def test_a_planted_symlink_is_not_followed(self):
        self.oci(self.db, expect=0)
        victim = os.path.join(self.dir, "victim.txt")
        with open(victim, "w", encoding="utf-8") as f:
            f.write("keep me\n")
        for name in (self.db + ".refresh.lock", self.lock_path(self.db)):
            if os.path.lexists(name):
                os.unlink(name)
            os.symlink(victim, name)
        proc = self.oci(self.db)
        with open(victim, encoding="utf-8") as f:
            self.assertEqual(f.read(), "keep me\n")
        self.assertEqual(proc.returncode, 5, proc.stderr)
        self.assertIn("symbolic link", proc.stderr)

    def test_a_lock_file_with_a_second_name_is_refused(self):
        self.oci(self.db, expect=0)
        os.link(self.lock_path(self.db), os.path.join(self.dir, "other-name"))
        proc = self.oci(self.db, expect=5)
        self.assertIn("one name", proc.stderr)

    def test_one_lock_for_every_path_to_the_database(self):
        self.oci(self.db, expect=0)
        link = os.path.join(self.dir, "link.db")
        os.symlink(self.db, link)
        slow = [GPUPLAN, "refresh", "--feed", "aws", "--url", "aws=%s/aws/slow" % self.server.base]
        first = subprocess.Popen(slow, env=self.env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        for _ in range(100):
            if self.query("SELECT count(*) FROM refresh_runs WHERE status = 'running'")[0][0]:
                break
            time.sleep(0.05)
        second = self.oci(link, "--lock-wait", "1")
        first.communicate(timeout=60)
        self.assertEqual(second.returncode, 1, second.stderr)
        self.assertIn("another refresh", second.stderr)

    # ---- item 7: dates ---------------------------------------------------------------------

    def test_a_304_keeps_the_documents_own_date(self):
        self.generic_feed("tw-dated", "pricelist-json", "/hardening/dated/list.json")
        self.gpuplan("refresh", "--feed", "tw-dated", expect=0)
        self.gpuplan("refresh", "--feed", "tw-dated", env=dict(self.env, GPUPLAN_NOW="2026-10-20"),
                     expect=0)
        self.assertEqual(self.query("SELECT status FROM refresh_runs ORDER BY id DESC LIMIT 1"),
                         [("unchanged",)])
        self.assertEqual(self.query("SELECT DISTINCT date(observed_at, 'unixepoch') FROM "
                                    "feed_offers WHERE feed = 'tw-dated'"), [("2026-09-01",)])

    def test_a_304_renews_offers_dated_by_the_fetch(self):
        self.oci(self.db, expect=0)
        self.oci(self.db, "--lock-wait", "5", expect=0)
        self.gpuplan("refresh", "--feed", "oci", "--url", "oci=%s/oci/ok" % self.server.base,
                     env=dict(self.env, GPUPLAN_NOW="2026-10-20"), expect=0)
        self.assertEqual(self.query("SELECT DISTINCT date(observed_at, 'unixepoch') FROM "
                                    "feed_offers WHERE feed = 'oci'"), [("2026-10-20",)])

    def test_rows_dated_more_than_a_day_ahead_are_rejected(self):
        self.generic_feed("acme-future", "pricelist-csv", "/hardening/future/list.csv")
        proc = self.gpuplan("refresh", "-v", "--feed", "acme-future", expect=0)
        self.assertEqual(self.query("SELECT gpu_id FROM feed_offers WHERE feed = 'acme-future'"),
                         [("h100-sxm",)])
        self.assertIn("more than a day ahead", proc.stderr)


    def test_rows_dated_before_any_price_are_rejected_not_dated_today(self):
        # 1970-01-01 is 0, which meant "no date": the row was stored as observed today
        self.generic_feed("acme-epoch", "pricelist-csv", "/hardening/epoch/list.csv")
        proc = self.gpuplan("refresh", "-v", "--feed", "acme-epoch", expect=0)
        self.assertEqual(self.query("SELECT gpu_id FROM feed_offers WHERE feed = 'acme-epoch'"),
                         [("h100-sxm",)])
        self.assertEqual(self.query("SELECT rejected FROM refresh_runs WHERE feed = 'acme-epoch'"),
                         [(2,)])
        self.assertIn("observed '1970-01-01' is not a date from 2022-01-01 on", proc.stderr)

    def test_text_that_is_not_utf8_is_rejected_and_bidi_controls_are_escaped(self):
        self.generic_feed("acme-text", "pricelist-csv", "/hardening/text/list.csv")
        self.gpuplan("refresh", "--feed", "acme-text", expect=0)
        self.assertEqual(self.query("SELECT gpu_id FROM feed_offers WHERE feed = 'acme-text' "
                                    "ORDER BY gpu_id"), [("h100-sxm",), ("h200-sxm",)])
        self.assertEqual(self.query("SELECT rejected, error FROM refresh_runs WHERE feed = "
                                    "'acme-text'"), [(1, None)])
        shown = self.gpuplan("refresh", "--status", expect=0).stdout
        table = self.gpuplan("prices", "--provider", "acme", expect=0).stdout
        self.assertIn("us\\u202etsae", table)
        self.assertNotIn("\u202e", table)
        listed = json.loads(self.gpuplan("prices", "--provider", "acme", "--format", "json",
                                         expect=0).stdout)
        self.assertIn("us\u202etsae", json.dumps(listed, ensure_ascii=False))
        self.assertIn("acme-text", shown)

    def test_a_duplicate_offer_is_counted_as_rejected(self):
        self.generic_feed("acme-dup", "pricelist-csv", "/hardening/duplicate/list.csv")
        proc = self.gpuplan("refresh", "-v", "--feed", "acme-dup", expect=0)
        self.assertEqual(self.query("SELECT offers, rejected FROM refresh_runs WHERE feed = "
                                    "'acme-dup'"), [(2, 1)])
        self.assertIn("a second offer with the same provider, region", proc.stderr)

    def test_a_file_of_settings_is_never_quoted(self):
        # a feed pointed at the process environment quoted 'LAMBDA_API_KEY=...' in its error
        env = dict(self.env, LAMBDA_API_KEY="lk_live_SECRET_0f9e8d")
        with open(os.path.join(self.dir, "plain.csv"), "w", encoding="utf-8") as f:
            f.write("provider,gpu,tier,price,unit,this_is_a_very_long_unknown_column_name\n")
        os.makedirs(os.path.join(self.dir, "config", "gpuplan"), exist_ok=True)
        with open(os.path.join(self.dir, "config", "gpuplan", "feeds.json"), "w",
                  encoding="utf-8") as f:
            json.dump({"feeds": [
                {"name": "env", "adapter": "pricelist-csv", "provider": "x",
                 "base_url": "file:///proc/self/environ"},
                {"name": "plain", "adapter": "pricelist-csv", "provider": "x",
                 "base_url": "file://" + os.path.join(self.dir, "plain.csv")}]}, f)
        proc = self.gpuplan("refresh", env=env, expect=4)
        stored = self.query("SELECT feed, error FROM refresh_runs ORDER BY feed")
        for text in (proc.stdout, proc.stderr, json.dumps(stored)):
            self.assertNotIn("SECRET", text)
            self.assertNotIn("LAMBDA_API_KEY=", text)
        self.assertIn("unknown column '(not shown: it looks like a setting or a key)'",
                      proc.stderr)
        self.assertIn("unknown column 'this_is_a_very_long_unkn...'", proc.stderr)

    @unittest.skipUnless(os.geteuid() == 0, "needs root to make a file of another user")
    def test_a_lock_file_of_another_user_says_whose_it_is(self):
        import pwd
        self.oci(self.db, expect=0)
        lock = self.lock_path(self.db)
        os.unlink(lock)
        with open(lock, "w", encoding="utf-8") as f:
            f.write("planted\n")
        nobody = pwd.getpwnam("nobody")
        os.chown(lock, nobody.pw_uid, nobody.pw_gid)
        proc = self.oci(self.db, expect=5)
        self.assertIn("belongs to user nobody (uid %d)" % nobody.pw_uid, proc.stderr)
        self.assertIn("they or root can remove it", proc.stderr)

    # ---- second round: feeds that never end ------------------------------------------------

    def test_an_endless_feed_stops_at_its_page_cap(self):
        # two pages that link to each other: before the cap, 10,003 requests in 440 s
        start = time.monotonic()
        proc = self.gpuplan("refresh", "--feed", "azure", "--url",
                            "azure=%s/hardening/endless" % self.server.base, expect=4)
        self.assertIn("more than 500 pages, the most a azure document has", proc.stderr)
        self.assertLess(time.monotonic() - start, 110)
        self.assertEqual(self.query("SELECT status FROM refresh_runs WHERE feed = 'azure'"),
                         [("failed",)])
        pages = [r for r in self.server.requests() if r["path"].startswith("/hardening/endless/")]
        self.assertEqual(len(pages), 500)

    def test_a_slow_endless_feed_stops_at_its_deadline(self):
        start = time.monotonic()
        proc = self.gpuplan("refresh", "--feed", "azure", "--deadline", "3", "--url",
                            "azure=%s/hardening/slow-endless" % self.server.base, expect=4)
        self.assertIn("deadline of 3 s", proc.stderr)
        self.assertLess(time.monotonic() - start, 10)

    def test_a_deadline_cuts_a_transfer_in_flight(self):
        start = time.monotonic()
        proc = self.gpuplan("refresh", "--feed", "azure", "--deadline", "2", "--timeout", "60",
                            "--url", "azure=%s/hardening/stall" % self.server.base, expect=4)
        self.assertIn("at the feed's deadline", proc.stderr)
        self.assertLess(time.monotonic() - start, 8)

    def test_a_deadline_is_whole_seconds(self):
        proc = self.gpuplan("refresh", "--deadline", "0", expect=2)
        self.assertIn("--deadline '0': expected whole seconds", proc.stderr)

    def test_a_file_feed_at_a_fifo_is_refused_at_once(self):
        fifo = os.path.join(self.dir, "list.csv")
        os.mkfifo(fifo)
        self.generic_feed("acme-fifo", "pricelist-csv", "")
        with open(os.path.join(self.dir, "config", "gpuplan", "feeds.json"), "w",
                  encoding="utf-8") as f:
            json.dump({"feeds": [{"name": "acme-fifo", "adapter": "pricelist-csv",
                                  "provider": "acme", "base_url": "file://" + fifo}]}, f)
        proc = self.gpuplan("refresh", "--feed", "acme-fifo", expect=4)
        self.assertIn("not a regular file", proc.stderr)


    # ---- second round: signals -------------------------------------------------------------

    def interrupt_refresh(self, *signals):
        """A refresh of a slow feed, sent `signals` once it is under way."""
        import signal
        proc = subprocess.Popen([GPUPLAN, "refresh", "--feed", "oci", "--feed", "aws", "--url",
                                 "aws=%s/aws/slow" % self.server.base, "--url",
                                 "oci=%s/oci/ok" % self.server.base], env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(200):
            time.sleep(0.05)
            try:
                if self.query("SELECT count(*) FROM refresh_runs WHERE feed = 'oci' AND "
                              "status = 'ok'")[0][0]:
                    break
            except Exception:  # the database is still being made
                continue
        for sig in signals:
            proc.send_signal(getattr(signal, sig))
        out, err = proc.communicate(timeout=30)
        return proc.returncode, out, err

    def test_sigint_marks_the_run_interrupted_and_exits_130(self):
        status, _out, err = self.interrupt_refresh("SIGINT")
        self.assertEqual(status, 130, err)
        self.assertEqual(err.strip().splitlines(), [
            "gpuplan: error: interrupted by SIGINT: 1 feed stopped (its last good offers kept), "
            "1 stored before the stop"])
        self.assertEqual(self.query("SELECT feed, status FROM refresh_runs ORDER BY feed"),
                         [("aws", "interrupted"), ("oci", "ok")])
        shown = self.gpuplan("refresh", "--status", "--format", "csv", expect=0).stdout
        self.assertRegex(shown, r"(?m)^aws,interrupted,")
        self.assertNotIn("running", shown)

    def test_sigterm_is_an_interruption_too(self):
        status, _out, err = self.interrupt_refresh("SIGTERM")
        self.assertEqual(status, 130, err)
        self.assertIn("interrupted by SIGTERM", err)
        self.assertEqual(self.query("SELECT status FROM refresh_runs WHERE feed = 'aws'"),
                         [("interrupted",)])

    def test_a_second_sigint_exits_at_once(self):
        status, _out, err = self.interrupt_refresh("SIGINT", "SIGINT")
        self.assertEqual(status, 130, err)
        # whichever came first, the first stop or the second signal, no run stays open for long:
        # the next refresh closes what a hard stop left
        self.gpuplan("refresh", "--feed", "oci", "--url", "oci=%s/oci/ok" % self.server.base,
                     expect=0)
        self.assertEqual(self.query("SELECT count(*) FROM refresh_runs WHERE status = 'running'"),
                         [(0,)])


if __name__ == "__main__":
    GPUPLAN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
