/* The XML pull scanner: one pass over the bytes, no allocation, every slice borrowed from the
 * document. */
#include "util/xml_scan.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

void gp_xml_init(struct gp_xml_scanner *s, const char *doc, size_t len)
{
    memset(s, 0, sizeof(*s));
    s->doc = doc;
    s->len = len;
}

/* Fail at byte `at`: the message with its line number, GP_EINVALID. */
static int fail_at(struct gp_xml_scanner *s, size_t at, const char *fmt, ...)
{
    char what[120];
    size_t line = 1;
    va_list ap;

    for (size_t i = 0; i < at && i < s->len; i++)
        line += s->doc[i] == '\n';
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(s->error, sizeof(s->error), "line %zu: %s", line, what);
    s->done = true;
    s->pos = s->len + 1; /* every later call fails the same way */
    return GP_EINVALID;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_name_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' || c >= 0x80;
}

static bool is_name_char(unsigned char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static bool starts_with(const struct gp_xml_scanner *s, size_t at, const char *lit)
{
    size_t n = strlen(lit);

    return at <= s->len && s->len - at >= n && memcmp(s->doc + at, lit, n) == 0;
}

/* The offset of `lit` at or after `from`, or s->len when absent. */
static size_t find(const struct gp_xml_scanner *s, size_t from, const char *lit)
{
    for (size_t i = from; i < s->len; i++)
        if (starts_with(s, i, lit))
            return i;
    return s->len;
}

/* Skip a comment, processing instruction or the declaration at s->pos: 1 when one was skipped,
 * 0 when there is none, GP_EINVALID when it does not end or is a DOCTYPE. */
static int skip_markup(struct gp_xml_scanner *s)
{
    static const struct {
        const char *open, *close;
    } kinds[] = {{"<!--", "-->"}, {"<?", "?>"}};

    if (starts_with(s, s->pos, "<!DOCTYPE"))
        return fail_at(s, s->pos, "a DOCTYPE, which no feed document has");
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        size_t end;
        if (!starts_with(s, s->pos, kinds[k].open))
            continue;
        end = find(s, s->pos + strlen(kinds[k].open), kinds[k].close);
        if (end == s->len)
            return fail_at(s, s->pos, "'%s' that does not end", kinds[k].open);
        s->pos = end + strlen(kinds[k].close);
        return 1;
    }
    return 0;
}

/* A name at `at`: its length, 0 when none starts there. */
static size_t name_length(const struct gp_xml_scanner *s, size_t at)
{
    size_t n = 0;

    if (at >= s->len || !is_name_start((unsigned char)s->doc[at]))
        return 0;
    while (at + n < s->len && is_name_char((unsigned char)s->doc[at + n]))
        n++;
    return n;
}

/* The local part of a qualified name: after its last ':'. */
static struct gp_xml_slice local_name(struct gp_xml_slice q)
{
    for (size_t i = q.len; i > 0; i--)
        if (q.at[i - 1] == ':')
            return (struct gp_xml_slice){q.at + i, q.len - i};
    return q;
}

/* Past the attributes of a start tag to its '>' or "/>": sets *empty; GP_EINVALID when the tag
 * does not end or an attribute's quote does not close. */
static int skip_attributes(struct gp_xml_scanner *s, bool *empty)
{
    size_t tag = s->pos;

    while (s->pos < s->len) {
        char c = s->doc[s->pos];
        if (c == '"' || c == '\'') {
            const char *close = memchr(s->doc + s->pos + 1, c, s->len - s->pos - 1);
            if (!close)
                return fail_at(s, s->pos, "an attribute value whose quote does not close");
            s->pos = (size_t)(close - s->doc) + 1;
        } else if (c == '<') {
            return fail_at(s, s->pos, "a '<' inside a tag");
        } else if (c == '>' || (c == '/' && starts_with(s, s->pos, "/>"))) {
            *empty = c == '/';
            s->pos += *empty ? 2 : 1;
            return 0;
        } else {
            s->pos++;
        }
    }
    return fail_at(s, tag, "a tag that does not end");
}

static int open_element(struct gp_xml_scanner *s, enum gp_xml_event *event)
{
    size_t start = s->pos + 1, n = name_length(s, start);
    bool empty = false;

    if (!n)
        return fail_at(s, s->pos, "a '<' that starts no element");
    if (s->depth == 0 && s->root_seen)
        return fail_at(s, s->pos, "a second root element");
    if (s->depth >= GP_XML_MAX_DEPTH)
        return fail_at(s, s->pos, "elements nested deeper than %d", GP_XML_MAX_DEPTH);
    s->pos = start + n;
    if (skip_attributes(s, &empty))
        return GP_EINVALID;
    s->open[s->depth++] = (struct gp_xml_slice){s->doc + start, n};
    s->root_seen = true;
    s->name = local_name(s->open[s->depth - 1]);
    s->close_pending = empty;
    *event = GP_XML_OPEN;
    return 0;
}

static int close_element(struct gp_xml_scanner *s, enum gp_xml_event *event)
{
    size_t start = s->pos + 2, n = name_length(s, start), end = start + n;
    struct gp_xml_slice top;

    while (end < s->len && is_space(s->doc[end]))
        end++;
    if (!n || end >= s->len || s->doc[end] != '>')
        return fail_at(s, s->pos, "a malformed end tag");
    if (s->depth == 0)
        return fail_at(s, s->pos, "an end tag with no element open");
    top = s->open[s->depth - 1];
    if (top.len != n || memcmp(top.at, s->doc + start, n) != 0)
        return fail_at(s, s->pos, "</%.*s> where </%.*s> was due", (int)(n > 40 ? 40 : n),
                       s->doc + start, (int)(top.len > 40 ? 40 : top.len), top.at);
    s->pos = end + 1;
    s->depth--;
    s->name = local_name(top);
    *event = GP_XML_CLOSE;
    return 0;
}

/* Character data up to the next '<'; *event set only when it is not all whitespace. */
static int character_data(struct gp_xml_scanner *s, enum gp_xml_event *event, bool *got)
{
    size_t start = s->pos, end = start;
    bool blank = true;

    while (end < s->len && s->doc[end] != '<') {
        blank = blank && is_space(s->doc[end]);
        end++;
    }
    s->pos = end;
    *got = false;
    if (blank)
        return 0;
    if (s->depth == 0)
        return fail_at(s, start, "text outside the root element");
    s->text = (struct gp_xml_slice){s->doc + start, end - start};
    s->text_is_cdata = false;
    *event = GP_XML_TEXT;
    *got = true;
    return 0;
}

static int cdata(struct gp_xml_scanner *s, enum gp_xml_event *event)
{
    size_t start = s->pos + 9, end = find(s, start, "]]>");

    if (end == s->len)
        return fail_at(s, s->pos, "a CDATA section that does not end");
    if (s->depth == 0)
        return fail_at(s, s->pos, "a CDATA section outside the root element");
    s->pos = end + 3;
    s->text = (struct gp_xml_slice){s->doc + start, end - start};
    s->text_is_cdata = true;
    *event = GP_XML_TEXT;
    return 0;
}

static int finish(struct gp_xml_scanner *s, enum gp_xml_event *event)
{
    if (!s->root_seen)
        return fail_at(s, s->pos, "no root element");
    if (s->depth)
        return fail_at(s, s->pos, "the document ends inside <%.*s>",
                       (int)(s->open[s->depth - 1].len > 40 ? 40 : s->open[s->depth - 1].len),
                       s->open[s->depth - 1].at);
    s->done = true;
    *event = GP_XML_DONE;
    return 0;
}

static int next_event(struct gp_xml_scanner *s, enum gp_xml_event *event)
{
    if (s->pos > s->len)
        return GP_EINVALID;
    if (s->close_pending) {
        s->close_pending = false;
        s->depth--;
        *event = GP_XML_CLOSE;
        return 0;
    }
    if (s->done) {
        *event = GP_XML_DONE;
        return 0;
    }
    for (;;) {
        bool got = false;
        int rc;
        if (s->pos >= s->len)
            return finish(s, event);
        if (s->doc[s->pos] != '<') {
            if (character_data(s, event, &got))
                return GP_EINVALID;
            if (got)
                return 0;
            continue;
        }
        if (starts_with(s, s->pos, "<![CDATA["))
            return cdata(s, event);
        if ((rc = skip_markup(s)) < 0)
            return rc;
        if (rc)
            continue;
        if (s->root_seen && s->depth == 0)
            return fail_at(s, s->pos, "content after the root element");
        return starts_with(s, s->pos, "</") ? close_element(s, event) : open_element(s, event);
    }
}

bool gp_xml_slice_is(struct gp_xml_slice a, const char *name)
{
    return strlen(name) == a.len && memcmp(a.at, name, a.len) == 0;
}

bool gp_xml_is(const struct gp_xml_scanner *s, const char *name)
{
    return gp_xml_slice_is(s->name, name);
}

struct gp_xml_slice gp_xml_enclosing(const struct gp_xml_scanner *s, size_t up)
{
    /* an OPEN event's own element is on the stack; a CLOSE's has left it */
    size_t base = s->depth - (s->depth && s->last == GP_XML_OPEN ? 1 : 0);

    if (up >= base)
        return (struct gp_xml_slice){"", 0};
    return local_name(s->open[base - 1 - up]);
}

int gp_xml_next(struct gp_xml_scanner *s, enum gp_xml_event *event)
{
    int rc = next_event(s, event);

    if (!rc)
        s->last = *event;
    return rc;
}

/* The character a reference at t[0..len) (after '&', before ';') stands for, as UTF-8 into
 * out[4]: its length, 0 when the reference is not one XML defines. */
static size_t reference(const char *t, size_t len, char out[4])
{
    static const struct {
        const char *name;
        char c;
    } named[] = {{"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
    uint32_t cp = 0;
    size_t i = 1, digits = 0;
    bool hex = len > 1 && t[0] == '#' && (t[1] == 'x');

    for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
        if (strlen(named[k].name) == len && memcmp(t, named[k].name, len) == 0)
            return (out[0] = named[k].c), 1;
    if (len < 2 || t[0] != '#')
        return 0;
    for (i = hex ? 2 : 1; i < len && cp <= 0x10FFFF; i++, digits++) {
        char c = t[i];
        int v = c >= '0' && c <= '9'          ? c - '0'
                : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                              : -1;
        if (v < 0)
            return 0;
        cp = cp * (hex ? 16 : 10) + (uint32_t)v;
    }
    if (!digits || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    if (cp < 0x80)
        return (out[0] = (char)cp), 1;
    if (cp < 0x800)
        return (out[0] = (char)(0xC0 | (cp >> 6))), (out[1] = (char)(0x80 | (cp & 0x3F))), 2;
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

int gp_xml_text(struct gp_xml_scanner *s, char *out, size_t size)
{
    const char *t = s->text.at;
    size_t len = s->text.len, used = 0, offset = (size_t)(t - s->doc);

    while (len && is_space(*t))
        t++, len--;
    while (len && is_space(t[len - 1]))
        len--;
    for (size_t i = 0; i < len;) {
        char one[4];
        size_t n = 1;
        const char *semi;
        if (t[i] == '&' && !s->text_is_cdata) {
            semi = memchr(t + i, ';', len - i);
            n = semi ? reference(t + i + 1, (size_t)(semi - t - i - 1), one) : 0;
            if (!n)
                return fail_at(s, offset, "a malformed '&' reference in the text of <%.*s>",
                               (int)(s->name.len > 40 ? 40 : s->name.len), s->name.at);
            i = (size_t)(semi - t) + 1;
        } else {
            one[0] = t[i++];
        }
        if (used + n >= size)
            return fail_at(s, offset, "text longer than %zu bytes", size ? size - 1 : 0);
        memcpy(out + used, one, n);
        used += n;
    }
    if (!size)
        return fail_at(s, offset, "no room for the text");
    out[used] = '\0';
    return 0;
}
