/* Loading and merging feeds.json, --url overrides, and reading keys from the environment or a
 * private key file. */
#include "pricing/feeds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"
#include "util/timeutil.h"

static const char *const document_keys[] = {"schema_version", "feeds", "notes", NULL};
static const char *const feed_keys[] = {
    "name",  "adapter", "provider",   "enabled",     "base_url", "paths", "body",
    "keyed", "key_env", "secret_env", "session_env", "key_file", "note",  NULL,
};
static const char *const source_keys[] = {"adapter", "base_url", "paths", "body", NULL};

/* "body": a JSON object (the query of a POST search API), kept as compact text. */
static int read_body(const struct gp_json_reader *rd, const cJSON *obj, struct gp_feed_source *src)
{
    const cJSON *body = cJSON_GetObjectItemCaseSensitive(obj, "body");
    char *text;
    int rc = 0;

    if (!body || cJSON_IsNull(body))
        return 0;
    if (!cJSON_IsObject(body))
        return gp_json_fail(rd, "body", "must be a JSON object");
    text = cJSON_PrintUnformatted(body);
    if (!text)
        return gp_error_set(GP_ENOMEM, "out of memory reading a feed body");
    if (gp_text_copy(src->body, sizeof(src->body), text) != 0)
        rc = gp_json_fail(rd, "body", "longer than %zu bytes", sizeof(src->body) - 1);
    cJSON_free(text);
    return rc;
}

static int read_source(const struct gp_json_reader *rd, const cJSON *obj,
                       struct gp_feed_source *src)
{
    const cJSON *paths = NULL;
    int rc =
        gp_json_string(rd, obj, "adapter", src->adapter, sizeof(src->adapter), GP_JSON_OPTIONAL);

    if (!rc)
        rc = gp_json_string(rd, obj, "base_url", src->base_url, sizeof(src->base_url),
                            GP_JSON_OPTIONAL);
    if (!rc)
        rc = read_body(rd, obj, src);
    if (!rc)
        rc = gp_json_child(rd, obj, "paths", true, &paths, GP_JSON_OPTIONAL);
    if (rc || !paths)
        return rc;
    if (cJSON_GetArraySize(paths) > GP_FEED_MAX_PATHS)
        return gp_json_fail(rd, "paths", "at most %d paths", GP_FEED_MAX_PATHS);
    src->path_count = 0;
    struct gp_json_reader r = *rd;
    size_t saved = gp_json_enter(&r, "paths", -1);
    for (int i = 0; i < cJSON_GetArraySize(paths) && !rc; i++) {
        const cJSON *p = cJSON_GetArrayItem(paths, i);
        char expanded[GP_FEED_URL_MAX];
        if (!cJSON_IsString(p) || gp_text_copy(src->paths[i], GP_FEED_URL_MAX, p->valuestring)) {
            rc = gp_json_fail(&r, NULL, "[%d] must be a string shorter than %d bytes", i,
                              GP_FEED_URL_MAX);
            break;
        }
        if (gp_feed_path_expand(expanded, sizeof(expanded), src->paths[i], 0)) {
            rc = gp_json_fail(&r, NULL, "[%d]: %s", i, gp_error_last());
            break;
        }
        src->path_count++;
    }
    gp_json_leave(&r, saved);
    return rc;
}

/* "{day-N}" or "{day+N}" at `p` (after its '{'): the day offset, or GP_EINVALID. */
static int day_offset_field(const char *p, size_t len, long *days)
{
    char *end;
    long n;

    if (len < 6 || strncmp(p, "day", 3) != 0 || (p[3] != '-' && p[3] != '+') || p[4] < '0' ||
        p[4] > '9')
        return GP_EINVALID;
    errno = 0;
    n = strtol(p + 4, &end, 10);
    if (errno || (size_t)(end - p) != len - 1 || n > 3660)
        return GP_EINVALID;
    *days = p[3] == '-' ? -n : n;
    return 0;
}

/* Midnight UTC of day `t` as yyyyMMdd0000. */
static void format_period_start(int64_t t, char out[16])
{
    char date[16];

    gp_time_format_date(t, date, sizeof(date));
    snprintf(out, 16, "%.4s%.2s%.2s0000", date, date + 5, date + 8);
}

int gp_feed_path_expand(char *out, size_t size, const char *path, int64_t now)
{
    size_t used = 0;

    for (const char *p = path; *p;) {
        const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
        size_t literal = open ? (size_t)(open - p) : strlen(p);
        char stamp[16] = "";
        long days;
        if (open && (!close || day_offset_field(open + 1, (size_t)(close - open), &days)))
            return gp_error_set(GP_EINVALID,
                                "path '%s': '%.*s' is not a date field (a path may hold {day-N} "
                                "and {day+N}, N days 0 to 3660)",
                                path, close ? (int)(close - open + 1) : (int)strlen(open), open);
        if (open)
            format_period_start(now + (int64_t)days * 86400, stamp);
        if (used + literal + strlen(stamp) >= size)
            return gp_error_set(GP_EINVALID,
                                "path '%s': longer than %zu bytes once its dates are in", path,
                                size - 1);
        memcpy(out + used, p, literal);
        memcpy(out + used + literal, stamp, strlen(stamp));
        used += literal + strlen(stamp);
        p = open ? close + 1 : p + literal;
    }
    if (size)
        out[used] = '\0';
    return 0;
}

static int check_adapter(const struct gp_json_reader *rd, const char *key, const char *name)
{
    const char *near;

    if (!*name || gp_feed_adapter_find(name))
        return 0;
    near = gp_text_nearest(name, gp_feed_adapter_names());
    return gp_json_fail(rd, key, "unknown adapter '%s'%s%s%s", name, near ? " (did you mean '" : "",
                        near ? near : "", near ? "'?)" : "");
}

static int read_feed(struct gp_json_reader *rd, const cJSON *obj, struct gp_feed_configs *cfg,
                     bool merge)
{
    char name[32] = "";
    struct gp_feed_config *f;
    const cJSON *keyed = NULL;
    bool is_new;
    int rc = gp_json_check_keys(rd, obj, feed_keys);

    if (!rc)
        rc = gp_json_string(rd, obj, "name", name, sizeof(name), GP_JSON_REQUIRED);
    if (rc)
        return rc;
    f = gp_feed_configs_find(cfg, name);
    is_new = f == NULL;
    if (is_new) {
        struct gp_feed_config *grown = realloc(cfg->feeds, (cfg->count + 1) * sizeof(*grown));
        if (!grown)
            return gp_error_set(GP_ENOMEM, "out of memory reading feeds");
        cfg->feeds = grown;
        f = &cfg->feeds[cfg->count++];
        memset(f, 0, sizeof(*f));
        gp_text_copy(f->name, sizeof(f->name), name);
        f->enabled = true;
        f->source.path_count = 1; /* one document at the base URL itself */
    } else if (!merge) {
        return gp_json_fail(rd, "name", "feed '%s' is listed twice", name);
    }

    rc = gp_json_string(rd, obj, "provider", f->provider, sizeof(f->provider), GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_bool(rd, obj, "enabled", &f->enabled, GP_JSON_OPTIONAL);
    if (!rc)
        rc = read_source(rd, obj, &f->source);
    if (!rc)
        rc = gp_json_child(rd, obj, "keyed", false, &keyed, GP_JSON_OPTIONAL | GP_JSON_NULLABLE);
    if (!rc && keyed) {
        size_t saved = gp_json_enter(rd, "keyed", -1);
        rc = gp_json_check_keys(rd, keyed, source_keys);
        if (!rc)
            rc = read_source(rd, keyed, &f->keyed);
        if (!rc)
            rc = check_adapter(rd, "adapter", f->keyed.adapter);
        gp_json_leave(rd, saved);
    }
    if (!rc)
        rc = gp_json_string(rd, obj, "key_env", f->key_env, sizeof(f->key_env),
                            GP_JSON_OPTIONAL | GP_JSON_NULLABLE);
    if (!rc)
        rc = gp_json_string(rd, obj, "secret_env", f->secret_env, sizeof(f->secret_env),
                            GP_JSON_OPTIONAL | GP_JSON_NULLABLE);
    if (!rc)
        rc = gp_json_string(rd, obj, "session_env", f->session_env, sizeof(f->session_env),
                            GP_JSON_OPTIONAL | GP_JSON_NULLABLE);
    if (!rc)
        rc = gp_json_string(rd, obj, "key_file", f->key_file, sizeof(f->key_file),
                            GP_JSON_OPTIONAL | GP_JSON_NULLABLE);
    if (!rc)
        rc = check_adapter(rd, "adapter", f->source.adapter);
    if (rc)
        return rc;
    if (!*f->source.adapter)
        return gp_json_fail(rd, "adapter",
                            "is required for a new feed (one of the adapters: "
                            "azure, aws, lambda, runpod, oci, vultr, "
                            "digitalocean, vast, scaleway, ovh, pricelist-json, "
                            "pricelist-csv)");
    if (!*f->source.base_url)
        return gp_json_fail(rd, "base_url", "is required for a new feed");
    if (!*f->provider)
        gp_text_copy(f->provider, sizeof(f->provider), f->name);
    return 0;
}

int gp_feed_configs_parse(struct gp_feed_configs *out, const char *text, size_t len,
                          const char *origin, bool merge)
{
    struct gp_json_reader rd;
    const cJSON *feeds = NULL;
    cJSON *root = NULL;
    int rc = gp_json_parse(&root, text, len, origin);

    if (rc)
        return rc;
    gp_json_reader_init(&rd, origin, text, len);
    rc = cJSON_IsObject(root) ? gp_json_check_keys(&rd, root, document_keys)
                              : gp_json_fail(&rd, NULL, "must be an object with a feeds array");
    if (!rc)
        rc = gp_json_child(&rd, root, "feeds", true, &feeds, GP_JSON_REQUIRED);
    for (int i = 0; !rc && i < cJSON_GetArraySize(feeds); i++) {
        size_t saved = gp_json_enter(&rd, "feeds", i);
        const cJSON *item = cJSON_GetArrayItem(feeds, i);
        rc = cJSON_IsObject(item) ? read_feed(&rd, item, out, merge)
                                  : gp_json_fail(&rd, NULL, "must be an object");
        gp_json_leave(&rd, saved);
    }
    cJSON_Delete(root);
    return rc;
}

static int user_config_path(char *out, size_t size)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int n;

    if (xdg && *xdg)
        n = snprintf(out, size, "%s/gpuplan/feeds.json", xdg);
    else if (home && *home)
        n = snprintf(out, size, "%s/.config/gpuplan/feeds.json", home);
    else
        return -1;
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int gp_feed_configs_load(struct gp_feed_configs *out, const char *user_path)
{
    struct gp_buf text = GP_BUF_INIT;
    char origin[1100];
    char path[1024];
    int rc;

    memset(out, 0, sizeof(*out));
    gp_buf_init(&text, (size_t)1 << 20);
    rc = gp_data_read(&text, "feeds.json", origin, sizeof(origin));
    if (!rc)
        rc = gp_feed_configs_parse(out, text.data, text.len, origin, false);
    if (rc)
        goto done;

    if (user_path)
        gp_text_copy(path, sizeof(path), user_path);
    else if (user_config_path(path, sizeof(path)) != 0)
        goto done;
    gp_buf_reset(&text);
    rc = gp_buf_read_file(&text, path);
    if (rc == GP_ENOTFOUND && !user_path) {
        gp_error_clear();
        rc = 0;
        goto done;
    }
    if (!rc)
        rc = gp_feed_configs_parse(out, text.data, text.len, path, true);
    if (!rc)
        gp_text_copy(out->user_file, sizeof(out->user_file), path);
done:
    gp_buf_release(&text);
    if (rc)
        gp_feed_configs_release(out);
    return rc;
}

void gp_feed_configs_release(struct gp_feed_configs *cfg)
{
    if (!cfg)
        return;
    free(cfg->feeds);
    cfg->feeds = NULL;
    cfg->count = 0;
}

struct gp_feed_config *gp_feed_configs_find(struct gp_feed_configs *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->count; i++)
        if (strcmp(cfg->feeds[i].name, name) == 0)
            return &cfg->feeds[i];
    return NULL;
}

const char *gp_feed_configs_nearest(const struct gp_feed_configs *cfg, const char *name)
{
    struct gp_nearest near;

    gp_nearest_init(&near, name);
    for (size_t i = 0; i < cfg->count; i++)
        gp_nearest_offer(&near, cfg->feeds[i].name);
    return gp_nearest_result(&near);
}

int gp_feed_configs_override(struct gp_feed_configs *cfg, const char *spec)
{
    const char *eq = strchr(spec, '=');
    char name[32];
    struct gp_feed_config *f;

    if (!eq || eq == spec || !eq[1])
        return gp_error_set(GP_EINVALID, "--url '%s': expected NAME=URL", spec);
    if ((size_t)(eq - spec) >= sizeof(name))
        return gp_error_set(GP_EINVALID, "--url '%s': no feed has so long a name", spec);
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = '\0';
    f = gp_feed_configs_find(cfg, name);
    if (!f) {
        const char *near = gp_feed_configs_nearest(cfg, name);
        return gp_error_set(GP_EINVALID, "--url: no feed named '%s'%s%s%s", name,
                            near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    if (gp_text_copy(f->source.base_url, sizeof(f->source.base_url), eq + 1) != 0)
        return gp_error_set(GP_EINVALID, "--url %s: the URL is too long", name);
    if (*f->keyed.adapter)
        gp_text_copy(f->keyed.base_url, sizeof(f->keyed.base_url), eq + 1);
    return 0;
}

/* ---- keys ------------------------------------------------------------------------------- */

void gp_feed_key_wipe(struct gp_feed_key *key)
{
    gp_wipe(key, sizeof(*key));
}

static void strip_line_end(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
}

static int read_key_file(struct gp_feed_key *key, const struct gp_feed_config *feed)
{
    struct stat st;
    ssize_t n;
    int fd = open(feed->key_file, O_RDONLY | O_NOFOLLOW);

    if (fd < 0) {
        if (errno == ENOENT)
            return 0; /* no file: no key */
        return gp_error_set(GP_EINVALID, "feed %s: cannot open key file %s: %s", feed->name,
                            feed->key_file, strerror(errno));
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return gp_error_set(GP_EINVALID, "feed %s: key file %s is not a regular file", feed->name,
                            feed->key_file);
    }
    if (st.st_mode & (S_IRWXG | S_IRWXO)) {
        close(fd);
        return gp_error_set(GP_EINVALID,
                            "feed %s: key file %s has mode %04o: group or others can read it; "
                            "refusing it (run: chmod 600 %s)",
                            feed->name, feed->key_file, (unsigned)(st.st_mode & 07777),
                            feed->key_file);
    }
    n = read(fd, key->token, sizeof(key->token) - 1);
    close(fd);
    if (n < 0)
        return gp_error_set(GP_EINVALID, "feed %s: cannot read key file %s", feed->name,
                            feed->key_file);
    if ((size_t)n == sizeof(key->token) - 1)
        return gp_error_set(GP_EINVALID, "feed %s: key file %s is larger than a key", feed->name,
                            feed->key_file);
    key->token[n] = '\0';
    strip_line_end(key->token);
    key->present = key->token[0] != '\0';
    return 0;
}

static bool copy_env(char *dst, size_t size, const char *var)
{
    const char *v = *var ? getenv(var) : NULL;
    if (!v || !*v || strlen(v) >= size)
        return false;
    gp_text_copy(dst, size, v);
    strip_line_end(dst);
    return *dst != '\0';
}

int gp_feed_key_load(struct gp_feed_key *key, const struct gp_feed_config *feed)
{
    gp_feed_key_wipe(key);
    if (*feed->secret_env) {
        /* SigV4: a key id and a secret, both needed; a session token when temporary */
        key->present = copy_env(key->user, sizeof(key->user), feed->key_env) &&
                       copy_env(key->token, sizeof(key->token), feed->secret_env);
        if (key->present && *feed->session_env)
            copy_env(key->session, sizeof(key->session), feed->session_env);
        if (!key->present)
            gp_feed_key_wipe(key);
        return 0;
    }
    if (copy_env(key->token, sizeof(key->token), feed->key_env)) {
        key->present = true;
        return 0;
    }
    return *feed->key_file ? read_key_file(key, feed) : 0;
}
