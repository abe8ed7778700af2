/* Fuzz target: the response header lines the HTTP client reads itself (ETag and Last-Modified,
 * and a status line clearing them), one per input line as libcurl hands them over, with the
 * invariants the conditional request relies on: each validator is terminated inside its field
 * and holds no line break. Retry-After is parsed by libcurl (CURLINFO_RETRY_AFTER). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/http.h"

/* Stop on a broken invariant, whatever NDEBUG says (the replay build has it). */
#define require(cond) ((cond) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_field(const char *field, size_t size)
{
    size_t len = strnlen(field, size);
    require(len < size);
    require(strcspn(field, "\r\n") == len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_http_response resp;
    const char *text = (const char *)data, *end = text + size;

    gp_http_response_init(&resp);
    while (text < end) {
        const char *nl = memchr(text, '\n', (size_t)(end - text));
        size_t len = nl ? (size_t)(nl - text) + 1 : (size_t)(end - text);
        gp_http_header_line(&resp, text, len);
        check_field(resp.etag, sizeof(resp.etag));
        check_field(resp.last_modified, sizeof(resp.last_modified));
        text += len;
    }
    gp_http_response_release(&resp);
    return 0;
}
