/* Escaping control characters for terminals and redacting credentials in URLs. */
#include "util/sanitize.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/utf8.h"

/* A bounded output buffer: what does not fit is dropped, and the text stays terminated. */
struct sink {
    char *out;
    size_t size; /* bytes, including the terminator */
    size_t used; /* bytes written, without the terminator */
};

static void put(struct sink *k, const char *s, size_t len)
{
    size_t room = k->size - 1 - k->used;

    if (len > room)
        len = room;
    memcpy(k->out + k->used, s, len);
    k->used += len;
    k->out[k->used] = '\0';
}

char *gp_sanitize_controls(char *out, size_t size, const char *in)
{
    struct sink k = {out, size, 0};
    char esc[12];
    uint32_t cp;

    if (!size)
        return out;
    out[0] = '\0';
    for (const char *s = in; *s;) {
        unsigned char c = (unsigned char)*s;
        size_t n = c < 0x80 ? 1 : gp_utf8_decode(s, &cp);
        if (c < 0x20 || c == 0x7f || n == 0) { /* a C0 control, DEL, or a byte of no character */
            snprintf(esc, sizeof(esc), "\\x%02x", c);
            put(&k, esc, 4);
            s++;
            continue;
        }
        if (c >= 0x80 && ((cp >= 0x80 && cp <= 0x9f) || gp_utf8_is_bidi_control(cp))) {
            snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)cp);
            put(&k, esc, 6);
        } else {
            put(&k, s, n);
        }
        s += n;
    }
    return out;
}

/* Whether a query parameter named name[0..len) carries a credential. */
static bool secret_name(const char *name, size_t len)
{
    static const char *const words[] = {"key",  "token", "secret",    "pass",
                                        "auth", "sig",   "credential"};
    char lower[64];

    if (len >= sizeof(lower))
        len = sizeof(lower) - 1;
    for (size_t i = 0; i < len; i++)
        lower[i] = (char)tolower((unsigned char)name[i]);
    lower[len] = '\0';
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strstr(lower, words[i]))
            return true;
    return false;
}

static bool url_char(unsigned char c)
{
    return c > ' ' && c != 0x7f && !strchr("\"'<>", c);
}

/* Index of the first of `stops` in s[from..len), or len. */
static size_t span_to(const char *s, size_t from, size_t len, const char *stops)
{
    while (from < len && !strchr(stops, s[from]))
        from++;
    return from;
}

/* Write the query string s[0..len) (after the '?') with secret values replaced. */
static void put_query(struct sink *k, const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t end = span_to(s, i, len, "&"), eq = span_to(s, i, end, "=");
        if (eq < end && secret_name(s + i, eq - i)) {
            put(k, s + i, eq + 1 - i);
            put(k, "***", 3);
        } else {
            put(k, s + i, end - i);
        }
        if (end < len)
            put(k, "&", 1);
        i = end + 1;
    }
}

/* Write the URL that starts at `s` with its authority (after "://"), redacted; returns the
 * first character after it. */
static const char *put_url(struct sink *k, const char *s)
{
    size_t len = 0, at = 0, path, query, fragment;
    bool has_at = false;

    while (s[len] && url_char((unsigned char)s[len]))
        len++;
    path = span_to(s, 0, len, "/?#");
    for (size_t i = 0; i < path; i++)
        if (s[i] == '@') {
            at = i;
            has_at = true;
        }
    if (has_at) {
        size_t colon = span_to(s, 0, at, ":");
        put(k, s, colon < at ? colon + 1 : 0);
        put(k, "***", 3);
    }
    query = span_to(s, path, len, "?#");
    fragment = span_to(s, query, len, "#");
    put(k, s + (has_at ? at : 0), query - (has_at ? at : 0));
    if (query < fragment) {
        put(k, "?", 1);
        put_query(k, s + query + 1, fragment - query - 1);
    }
    put(k, s + fragment, len - fragment);
    return s + len;
}

char *gp_sanitize_urls(char *out, size_t size, const char *in)
{
    struct sink k = {out, size, 0};
    const char *p = in;

    if (!size)
        return out;
    out[0] = '\0';
    while (*p) {
        const char *mark = strstr(p, "://");
        if (!mark) {
            put(&k, p, strlen(p));
            break;
        }
        put(&k, p, (size_t)(mark + 3 - p));
        p = put_url(&k, mark + 3);
    }
    return out;
}

/* Whether `text` begins like NAME=value: a word of letters, digits and '_', then '='. */
static bool looks_like_setting(const char *text)
{
    size_t name = 0;

    while (isalnum((unsigned char)text[name]) || text[name] == '_')
        name++;
    return name > 0 && text[name] == '=';
}

/* Whether `text` holds the value of a credential in the environment. */
static bool holds_secret(const char *text)
{
    extern char **environ;
    static const char *const words[] = {"KEY", "TOKEN", "SECRET", "PASS"};

    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        bool credential = false;
        if (!eq || strlen(eq + 1) < 6) /* too short to be a key, and too common to match */
            continue;
        for (size_t i = 0; i < sizeof(words) / sizeof(words[0]) && !credential; i++) {
            const char *hit = strstr(*e, words[i]);
            credential = hit && hit < eq;
        }
        if (credential && strstr(text, eq + 1))
            return true;
    }
    return false;
}

char *gp_sanitize_quote(char *out, size_t size, const char *in)
{
    char cut[4 * GP_QUOTE_CHARS + 4];
    size_t used = 0, chars = 0;
    uint32_t cp;

    if (looks_like_setting(in) || holds_secret(in))
        return gp_sanitize_controls(out, size, "(not shown: it looks like a setting or a key)");
    while (in[used] && chars < GP_QUOTE_CHARS) {
        size_t n = gp_utf8_decode(in + used, &cp);
        used += n ? n : 1;
        chars++;
    }
    memcpy(cut, in, used);
    memcpy(cut + used, in[used] ? "..." : "", in[used] ? 4 : 1);
    return gp_sanitize_controls(out, size, cut);
}
