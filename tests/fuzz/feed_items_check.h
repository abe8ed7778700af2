/* Shared by fuzz_azure and the feed unit tests: gp_feed_json_items, which reads a page's list
 * element by element, against the plain reading of the same bytes (gp_feed_json_list, then each
 * element in turn). Both must give the same return code and message, the same elements in the
 * same order, the same counts and the same document around the list. */
#ifndef GP_TESTS_FEED_ITEMS_CHECK_H
#define GP_TESTS_FEED_ITEMS_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pricing/feed.h"
#include "util/error.h"
#include "util/json.h"

/* What the element callback does: rejects every third element (counts that must be rolled
 * back when a page is read again) and fails at element `fail_at` (1-based; 0: never). It keeps
 * no state of its own, only what is in the context, as gp_feed_json_items requires. */
struct items_check {
    size_t fail_at;
};

/* Each element becomes an offer: its text's hash as the amount and its first bytes as the
 * instance type, so that the offers are a transcript that is rolled back with the counts. */
static int items_check_record(struct gp_feed_ctx *ctx, const cJSON *item, void *payload)
{
    const struct items_check *c = payload;
    struct gp_offer o;
    char *text = cJSON_PrintUnformatted(item);
    uint32_t hash = 2166136261u;
    size_t seen = ctx->count;

    if (!text)
        return gp_error_set(GP_ENOMEM, "out of memory printing an element");
    memset(&o, 0, sizeof(o));
    for (const char *p = text; *p; p++)
        hash = (hash ^ (unsigned char)*p) * 16777619u;
    snprintf(o.instance_type, sizeof(o.instance_type), "%s", text);
    o.amount = hash;
    cJSON_free(text);
    if (seen % 3 == 1)
        gp_feed_reject(ctx, "element %zu", seen);
    if (seen + 1 == c->fail_at)
        return gp_error_set(GP_EINVALID, "stopped at element %zu", seen + 1);
    return gp_feed_add_offer(ctx, &o);
}

static int items_check_plain(cJSON **root, size_t *count, struct gp_feed_ctx *ctx, const char *body,
                             size_t len, const char *key, struct items_check *c)
{
    const cJSON *list, *item;
    int rc = gp_feed_json_list(root, &list, ctx->url, body, len, key, NULL);

    *count = 0;
    if (rc)
        return rc;
    cJSON_ArrayForEach(item, list)
    {
        rc = items_check_record(ctx, item, c);
        if (rc)
            return rc;
        (*count)++;
    }
    return 0;
}

/* The document with the list `key` emptied, as text (cJSON_free), or NULL. */
static char *items_check_around(cJSON *root, const char *key)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(root, key);

    if (cJSON_IsArray(list) && list->child) {
        cJSON_Delete(list->child);
        list->child = NULL;
    }
    return root ? cJSON_PrintUnformatted(root) : NULL;
}

/* NULL when both readings of `body` agree, else what differs. */
static const char *items_check_differs(const char *body, size_t len, const char *key,
                                       size_t fail_at)
{
    static char why[160];
    struct gp_feed_ctx ctx[2];
    struct items_check c[2] = {{fail_at}, {fail_at}};
    cJSON *root[2] = {NULL, NULL};
    size_t count[2];
    char message[2][512], *around[2] = {NULL, NULL};
    int rc[2];
    const char *differs = NULL;

    for (int k = 0; k < 2; k++) {
        gp_feed_ctx_init(&ctx[k], "check", "check", 1790000000, NULL, NULL);
        ctx[k].url = "http://127.0.0.1:9/check/page";
        gp_error_clear();
        rc[k] = k ? items_check_plain(&root[k], &count[k], &ctx[k], body, len, key, &c[k])
                  : gp_feed_json_items(&root[k], &count[k], &ctx[k], body, len, key, NULL,
                                       items_check_record, &c[k]);
        snprintf(message[k], sizeof(message[k]), "%s", rc[k] ? gp_error_last() : "");
        if (!rc[k])
            around[k] = items_check_around(root[k], key);
    }
    if (rc[0] != rc[1] || strcmp(message[0], message[1]) != 0)
        differs = "return code or message";
    else if (!rc[0] && count[0] != count[1])
        differs = "element count";
    else if (ctx[0].count != ctx[1].count || ctx[0].rejected != ctx[1].rejected ||
             strcmp(ctx[0].first_rejection, ctx[1].first_rejection) != 0)
        differs = "offers or rejections";
    else if (!rc[0] && (!around[0] || !around[1] || strcmp(around[0], around[1]) != 0))
        differs = "document around the list";
    for (size_t i = 0; !differs && i < ctx[0].count; i++)
        if (ctx[0].offers[i].amount != ctx[1].offers[i].amount ||
            strcmp(ctx[0].offers[i].instance_type, ctx[1].offers[i].instance_type) != 0)
            differs = "elements";
    if (differs)
        snprintf(why, sizeof(why), "%s (rc %d / %d: '%.40s' / '%.40s')", differs, rc[0], rc[1],
                 message[0], message[1]);
    for (int k = 0; k < 2; k++) {
        cJSON_free(around[k]);
        cJSON_Delete(root[k]);
        gp_feed_ctx_release(&ctx[k]);
    }
    return differs ? why : NULL;
}

#endif
