/* The client-credentials token request and answer. */
#include "pricing/oauth.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "util/error.h"
#include "util/jsonw.h"
#include "util/text.h"

int gp_oauth_token_request(struct gp_buf *out, const char *client_id, const char *client_secret)
{
    struct gp_jsonw w;
    char *text;
    int rc;

    gp_jsonw_init(&w, 0);
    gp_jsonw_open(&w, NULL, '{');
    gp_jsonw_string(&w, "grant_type", "client_credentials");
    gp_jsonw_string(&w, "client_id", client_id);
    gp_jsonw_string(&w, "client_secret", client_secret);
    gp_jsonw_close(&w, '}');
    text = gp_jsonw_finish(&w);
    if (!text)
        return gp_error_set(GP_ENOMEM, "out of memory writing a token request");
    gp_buf_reset(out);
    rc = gp_buf_append(out, text, strlen(text));
    gp_wipe(text, strlen(text));
    free(text);
    return rc;
}

/* Whether `s` can go into an Authorization header as it is. */
static bool header_safe(const char *s)
{
    for (; *s; s++)
        if (*s <= ' ' || *s >= 0x7f)
            return false;
    return true;
}

int gp_oauth_token_read(char *token, size_t size, const char *body, size_t len, const char *url)
{
    cJSON *root = cJSON_ParseWithLength(body, len);
    const cJSON *access = cJSON_GetObjectItemCaseSensitive(root, "access_token");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(root, "token_type");
    int rc = 0;

    if (!cJSON_IsObject(root))
        rc = gp_error_set(GP_EINVALID, "%s: the token endpoint did not answer a JSON object", url);
    else if (!cJSON_IsString(access) || !*access->valuestring || !header_safe(access->valuestring))
        rc = gp_error_set(GP_EINVALID,
                          "%s: the token endpoint's answer has no access_token of visible ASCII",
                          url);
    else if (type && (!cJSON_IsString(type) || strcasecmp(type->valuestring, "bearer") != 0))
        rc = gp_error_set(GP_EINVALID, "%s: the token endpoint gave a token that is not Bearer",
                          url);
    else if (gp_text_copy(token, size, access->valuestring))
        rc = gp_error_set(GP_EINVALID, "%s: the access token is longer than %zu bytes", url,
                          size - 1);
    if (cJSON_IsString(access))
        gp_wipe(access->valuestring, strlen(access->valuestring));
    cJSON_Delete(root);
    return rc;
}
