/* Fuzz target: the answer of an OAuth 2.0 token endpoint (gp_oauth_token_read). Whatever comes
 * in, a token that comes out is non-empty visible ASCII, fit for an Authorization header. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/oauth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char token[256];

    if (gp_oauth_token_read(token, sizeof(token), (const char *)data, size, "fuzz") == 0) {
        if (!token[0])
            abort();
        for (const char *p = token; *p; p++)
            if (*p <= ' ' || *p >= 0x7f)
                abort();
    }
    return 0;
}
