/* The JSON writer: members appended to a growing buffer, strings escaped as RFC 8259 asks. */
#include "util/jsonw.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

void gp_jsonw_init(struct gp_jsonw *w, int pretty)
{
    memset(w, 0, sizeof(*w));
    w->pretty = pretty;
}

static void put(struct gp_jsonw *w, const char *s, size_t n)
{
    if (w->failed)
        return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (cap < w->len + n + 1)
            cap *= 2;
        char *text = realloc(w->text, cap);
        if (!text) {
            w->failed = 1;
            return;
        }
        w->text = text;
        w->cap = cap;
    }
    memcpy(w->text + w->len, s, n);
    w->len += n;
    w->text[w->len] = '\0';
}

static void puts_(struct gp_jsonw *w, const char *s)
{
    put(w, s, strlen(s));
}

static void indent(struct gp_jsonw *w, int depth)
{
    put(w, "\n", 1);
    for (int i = 0; i < depth; i++)
        put(w, "\t", 1);
}

static void quoted(struct gp_jsonw *w, const char *s)
{
    uint32_t cp;

    put(w, "\"", 1);
    while (*s) {
        unsigned char c = (unsigned char)*s;
        size_t n = c < 0x80 ? 1 : gp_utf8_decode(s, &cp);
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(w, esc, 2);
        } else if (c < 0x20) {
            snprintf(esc, sizeof(esc), "\\u%04x", c);
            puts_(w, esc);
        } else if (n == 0) { /* not UTF-8: the document must stay valid JSON */
            puts_(w, "\\ufffd");
        } else {
            put(w, s, n);
        }
        s += n ? n : 1;
    }
    put(w, "\"", 1);
}

/* The separator, the indentation and the key before a member. */
static void member(struct gp_jsonw *w, const char *key)
{
    if (w->depth > 0) {
        if (w->count[w->depth - 1]++ > 0)
            put(w, ",", 1);
        if (w->pretty)
            indent(w, w->depth);
    }
    if (key) {
        quoted(w, key);
        puts_(w, w->pretty ? ":\t" : ":");
    }
}

void gp_jsonw_open(struct gp_jsonw *w, const char *key, char bracket)
{
    member(w, key);
    put(w, &bracket, 1);
    if (w->depth >= GP_JSONW_DEPTH) {
        w->failed = 1;
        return;
    }
    w->count[w->depth++] = 0;
}

void gp_jsonw_close(struct gp_jsonw *w, char bracket)
{
    if (w->depth <= 0) {
        w->failed = 1;
        return;
    }
    w->depth--;
    if (w->pretty && w->count[w->depth] > 0)
        indent(w, w->depth);
    put(w, &bracket, 1);
}

void gp_jsonw_string(struct gp_jsonw *w, const char *key, const char *value)
{
    member(w, key);
    quoted(w, value ? value : "");
}

void gp_jsonw_number(struct gp_jsonw *w, const char *key, double value)
{
    char num[32];

    member(w, key);
    if (!isfinite(value)) {
        puts_(w, "null");
        return;
    }
    snprintf(num, sizeof(num), "%1.15g", value);
    if (strtod(num, NULL) != value)
        snprintf(num, sizeof(num), "%1.17g", value);
    puts_(w, num);
}

void gp_jsonw_null(struct gp_jsonw *w, const char *key)
{
    member(w, key);
    puts_(w, "null");
}

void gp_jsonw_bool(struct gp_jsonw *w, const char *key, int value)
{
    member(w, key);
    puts_(w, value ? "true" : "false");
}

void gp_jsonw_raw(struct gp_jsonw *w, const char *key, const char *json)
{
    member(w, key);
    puts_(w, json && *json ? json : "null");
}

char *gp_jsonw_finish(struct gp_jsonw *w)
{
    char *text = w->failed || w->depth != 0 ? NULL : w->text;

    if (!text)
        free(w->text);
    if (text && !text[0]) {
        free(text);
        text = NULL;
    }
    memset(w, 0, sizeof(*w));
    return text;
}
