/* A pull scanner over one XML document held in memory, for the machine-written documents some
 * feeds answer with (ENTSO-E's market documents): elements and their text, nothing more. It
 * checks that every element closes in order, skips the declaration, comments, processing
 * instructions and attributes, refuses a DOCTYPE (so no entity is ever defined or expanded),
 * and decodes only the five predefined entities and character references, on request. */
#ifndef GP_UTIL_XML_SCAN_H
#define GP_UTIL_XML_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#define GP_XML_MAX_DEPTH 32 /* elements open at once; deeper documents are refused */

enum gp_xml_event {
    GP_XML_DONE,  /* the root element has closed and only whitespace or comments follow */
    GP_XML_OPEN,  /* an element starts: `name` */
    GP_XML_CLOSE, /* an element ends (also right after the OPEN of <empty/>): `name` */
    GP_XML_TEXT,  /* character data inside an element, not only whitespace: `text` */
};

/* A slice of the document (borrowed from it). */
struct gp_xml_slice {
    const char *at;
    size_t len;
};

struct gp_xml_scanner {
    /* the document (borrowed) and where the scan is */
    const char *doc;
    size_t len, pos;
    /* the current event */
    struct gp_xml_slice name; /* OPEN, CLOSE: the element's local name (its prefix dropped) */
    struct gp_xml_slice text; /* TEXT: raw, entities not yet decoded */
    bool text_is_cdata;       /* TEXT came from <![CDATA[...]]>: nothing to decode */
    /* private */
    struct gp_xml_slice open[GP_XML_MAX_DEPTH]; /* qualified names of the open elements */
    size_t depth;
    bool close_pending; /* the element just opened was <empty/> */
    enum gp_xml_event last;
    bool root_seen, done;
    char error[160]; /* why gp_xml_next failed, with the line */
};

void gp_xml_init(struct gp_xml_scanner *s, const char *doc, size_t len);

/* The next event into *event: 0, or GP_EINVALID with s->error saying what is wrong on which
 * line. After GP_XML_DONE or an error every call repeats it. */
int gp_xml_next(struct gp_xml_scanner *s, enum gp_xml_event *event);

/* Whether the current OPEN or CLOSE element is called `name` (its local name). */
bool gp_xml_is(const struct gp_xml_scanner *s, const char *name);

/* The local name of the element that encloses the current event `up` levels out: 0 is the
 * element a TEXT event lies in (or an OPEN/CLOSE element's parent); "" past the root. */
struct gp_xml_slice gp_xml_enclosing(const struct gp_xml_scanner *s, size_t up);

/* Whether slice `a` spells `name`. */
bool gp_xml_slice_is(struct gp_xml_slice a, const char *name);

/* The current TEXT, entities and character references decoded and surrounding whitespace
 * trimmed, into out[size]: 0, or GP_EINVALID (s->error set) for a malformed reference or text
 * that does not fit. */
int gp_xml_text(struct gp_xml_scanner *s, char *out, size_t size);

#endif
