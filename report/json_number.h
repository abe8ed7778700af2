/* Numbers as cJSON 1.7 prints them, without its two printf calls and a sscanf per number: the
 * JSON renderer writes a sweep's millions of figures through here, byte for byte as cJSON. */
#ifndef GP_REPORT_JSON_NUMBER_H
#define GP_REPORT_JSON_NUMBER_H

#include <stddef.h>

#define GP_JSON_NUMBER_MAX 32 /* bytes a number's text needs, with its terminator */

/*
 * `d` as cJSON_Print writes a number: "null" when not finite; else printf's "%1.15g" when that
 * text reads back within a relative DBL_EPSILON of `d`, else "%1.17g" (the C locale's '.').
 * Writes out[GP_JSON_NUMBER_MAX] and returns the length.
 */
size_t gp_json_number_text(char out[GP_JSON_NUMBER_MAX], double d);

/* The same, the way cJSON does it (snprintf, strtod): the reference the fast path answers to. */
size_t gp_json_number_text_printf(char out[GP_JSON_NUMBER_MAX], double d);

#endif
