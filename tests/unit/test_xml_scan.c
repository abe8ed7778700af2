/* The XML pull scanner: elements, text and nesting as the feeds' documents have them, the
 * markup it skips, the references it decodes, and the malformed documents it refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/error.h"
#include "util/xml_scan.h"

/* The events of `doc` written as "<a", ">a", "'text'" joined by spaces, into out[size]; the
 * scanner's return code. */
static int events(const char *doc, char *out, size_t size)
{
    struct gp_xml_scanner s;
    enum gp_xml_event ev = GP_XML_OPEN;
    size_t used = 0;

    out[0] = '\0';
    gp_xml_init(&s, doc, strlen(doc));
    while (ev != GP_XML_DONE) {
        char text[128];
        int rc = gp_xml_next(&s, &ev);
        if (rc)
            return rc;
        if (ev == GP_XML_DONE)
            break;
        if (ev == GP_XML_TEXT)
            assert_int_equal(gp_xml_text(&s, text, sizeof(text)), 0);
        used +=
            (size_t)snprintf(out + used, size - used, "%s%s%.*s%s", used ? " " : "",
                             ev == GP_XML_OPEN    ? "<"
                             : ev == GP_XML_CLOSE ? ">"
                             : ev == GP_XML_TEXT  ? "'"
                                                  : "",
                             ev == GP_XML_TEXT ? (int)strlen(text) : (int)s.name.len,
                             ev == GP_XML_TEXT ? text : s.name.at, ev == GP_XML_TEXT ? "'" : "");
    }
    return 0;
}

static void elements_text_and_skipped_markup(void **state)
{
    char out[512];

    (void)state;
    assert_int_equal(events("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- made -->\n"
                            "<ns:Doc xmlns:ns=\"urn:x\" a='1>2'>\n  <mRID>x1</mRID>\n"
                            "  <empty/><e attr=\"v\" />\n  <p.a>  7.5 </p.a><?pi here?>\n"
                            "</ns:Doc>\n<!-- after -->\n",
                            out, sizeof(out)),
                     0);
    assert_string_equal(out, "<Doc <mRID 'x1' >mRID <empty >empty <e >e <p.a '7.5' >p.a >Doc");
}

static void references_and_cdata_are_decoded(void **state)
{
    char out[256];

    (void)state;
    assert_int_equal(
        events("<a>&lt;b&gt; &amp; &quot;&apos; &#65;&#x42;&#xe6;</a>", out, sizeof(out)), 0);
    assert_string_equal(out, "<a '<b> & \"' AB\xc3\xa6' >a");
    assert_int_equal(events("<a><![CDATA[x &amp; <y>]]></a>", out, sizeof(out)), 0);
    assert_string_equal(out, "<a 'x &amp; <y>' >a");
}

static void the_enclosing_elements_are_named(void **state)
{
    static const char doc[] = "<Doc><TimeSeries><Period><Point><position>3</position></Point>"
                              "</Period></TimeSeries></Doc>";
    struct gp_xml_scanner s;
    enum gp_xml_event ev;

    (void)state;
    gp_xml_init(&s, doc, strlen(doc));
    do
        assert_int_equal(gp_xml_next(&s, &ev), 0);
    while (ev != GP_XML_TEXT);
    assert_true(gp_xml_slice_is(gp_xml_enclosing(&s, 0), "position"));
    assert_true(gp_xml_slice_is(gp_xml_enclosing(&s, 1), "Point"));
    assert_true(gp_xml_slice_is(gp_xml_enclosing(&s, 4), "Doc"));
    assert_true(gp_xml_slice_is(gp_xml_enclosing(&s, 5), ""));
    assert_int_equal(gp_xml_next(&s, &ev), 0);
    assert_int_equal(ev, GP_XML_CLOSE);
    assert_true(gp_xml_is(&s, "position"));
    assert_true(gp_xml_slice_is(gp_xml_enclosing(&s, 0), "Point"));
}

/* `doc` is refused, with a message that contains `why`. */
static void refused(const char *doc, const char *why)
{
    struct gp_xml_scanner s;
    enum gp_xml_event ev = GP_XML_OPEN;
    int rc = 0;

    gp_xml_init(&s, doc, strlen(doc));
    while (!rc && ev != GP_XML_DONE) {
        rc = gp_xml_next(&s, &ev);
        if (!rc && ev == GP_XML_TEXT) {
            char text[8];
            rc = gp_xml_text(&s, text, sizeof(text));
        }
    }
    if (!rc)
        fail_msg("accepted: %s", doc);
    assert_int_equal(rc, GP_EINVALID);
    if (!strstr(s.error, why))
        fail_msg("'%s' does not say '%s'", s.error, why);
    assert_int_equal(gp_xml_next(&s, &ev), rc); /* and keeps refusing */
}

static void malformed_documents_are_refused(void **state)
{
    char deep[1024] = "";

    (void)state;
    refused("", "no root element");
    refused("<a><b></a></b>", "</a> where </b> was due");
    refused("<a>", "ends inside <a>");
    refused("<a></a><b></b>", "content after the root element");
    refused("<a></a>trailing", "text outside the root element");
    refused("<a x=\"1></a>", "quote does not close");
    refused("<a <b></a>", "a '<' inside a tag");
    refused("<a>&bogus;</a>", "malformed '&' reference");
    refused("<a>&#0;</a>", "malformed '&' reference");
    refused("<a>&#xD800;</a>", "malformed '&' reference");
    refused("<a>& </a>", "malformed '&' reference");
    refused("<a>far too long a text</a>", "longer than 7 bytes");
    refused("<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>", "DOCTYPE");
    refused("<a><!-- open", "does not end");
    refused("<a><![CDATA[x</a>", "CDATA section that does not end");
    refused("</a>", "no element open");
    refused("< a></a>", "starts no element");
    refused("<a>\n\n</a >x", "line 3: text outside");
    for (int i = 0; i < GP_XML_MAX_DEPTH + 1; i++)
        strcat(deep, "<d>");
    refused(deep, "nested deeper than 32");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elements_text_and_skipped_markup),
        cmocka_unit_test(references_and_cdata_are_decoded),
        cmocka_unit_test(the_enclosing_elements_are_named),
        cmocka_unit_test(malformed_documents_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
