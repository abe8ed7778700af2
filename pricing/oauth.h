/* The OAuth 2.0 client-credentials grant (RFC 6749, section 4.4) of APIs that hand out a
 * bearer token for a client id and secret (Verda's): the token request's JSON body and the
 * reading of the answer. Pure: no I/O; the refresh sends and receives. */
#ifndef GP_PRICING_OAUTH_H
#define GP_PRICING_OAUTH_H

#include <stddef.h>

#include "util/buf.h"

/* {"grant_type":"client_credentials","client_id":...,"client_secret":...} into *out (reset
 * first). The caller wipes it once sent. Returns 0 or GP_ENOMEM. */
int gp_oauth_token_request(struct gp_buf *out, const char *client_id, const char *client_secret);

/*
 * The access token of a token endpoint's answer `body` (len bytes) into token[size]: a JSON
 * object whose "access_token" is a non-empty string of visible ASCII (it goes into a header)
 * and whose "token_type", when given, is Bearer. Anything else is GP_EINVALID with a message
 * naming `url` and what is wrong, never quoting the answer (which may hold a secret).
 */
int gp_oauth_token_read(char *token, size_t size, const char *body, size_t len, const char *url);

#endif
