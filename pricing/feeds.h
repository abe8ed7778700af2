/* Feed configuration: data/feeds.json (embedded) merged with the user's
 * $XDG_CONFIG_HOME/gpuplan/feeds.json, per-run URL overrides, and the keys each feed needs. */
#ifndef GP_PRICING_FEEDS_H
#define GP_PRICING_FEEDS_H

#include <stdbool.h>
#include <stddef.h>

#include "pricing/feed.h"

#define GP_FEED_MAX_PATHS 16

/* Where and how one feed is fetched. */
struct gp_feed_source {
    char adapter[32];                               /* an adapter of pricing/feed.c */
    char base_url[GP_FEED_URL_MAX];                 /* scheme://host[:port][/prefix] */
    char paths[GP_FEED_MAX_PATHS][GP_FEED_URL_MAX]; /* documents fetched in turn, after base */
    size_t path_count;
    char body[4096]; /* JSON sent as a POST body to every path; "" for GET */
};

struct gp_feed_config {
    char name[32];     /* feed name, unique */
    char provider[32]; /* provider written into offers; defaults to the name */
    bool enabled;      /* fetched by a plain `gpuplan refresh` */
    struct gp_feed_source source;
    struct gp_feed_source keyed; /* used instead when the key is present; adapter "" if none */
    char key_env[64];            /* environment variable holding the key (or SigV4 key id) */
    char secret_env[64];         /* SigV4 secret key variable */
    char session_env[64];        /* SigV4 session token variable */
    char key_file[1024];         /* file holding the key, mode 0600; "" if none */
};

struct gp_feed_configs {
    struct gp_feed_config *feeds; /* owned, `count` entries, in file order */
    size_t count;
    char user_file[1024]; /* the user's file that was merged in, "" if none */
};

/*
 * Load data/feeds.json (gp_data_read) and merge the user's feeds.json: an entry whose name
 * exists changes only the members it has; a new name adds a feed (adapter and base_url
 * required). `user_path` NULL means $XDG_CONFIG_HOME/gpuplan/feeds.json (~/.config when unset);
 * a missing user file is not an error. Errors name file, line, column and JSON path.
 */
int gp_feed_configs_load(struct gp_feed_configs *out, const char *user_path);
int gp_feed_configs_parse(struct gp_feed_configs *out, const char *text, size_t len,
                          const char *origin, bool merge);
void gp_feed_configs_release(struct gp_feed_configs *cfg);

/*
 * A path with its dates filled in for a refresh at `now` (Unix seconds UTC), into out[size]:
 * "{day-N}" and "{day+N}" (N days, 0 to 3660) become midnight UTC that many days before or after
 * now's day, as yyyyMMddHHmm (ENTSO-E's periodStart and periodEnd). Any other "{...}" is
 * GP_EINVALID with the message naming it; a result too long for `size` too.
 */
int gp_feed_path_expand(char *out, size_t size, const char *path, int64_t now);

/* The feed named `name`, or NULL. */
struct gp_feed_config *gp_feed_configs_find(struct gp_feed_configs *cfg, const char *name);

/* The configured feed name nearest to `name` (gp_text_nearest), or NULL. Borrowed from cfg. */
const char *gp_feed_configs_nearest(const struct gp_feed_configs *cfg, const char *name);

/* Apply "NAME=URL" (from --url) to the base URL of both sources of feed NAME. GP_EINVALID for a
 * malformed spec or an unknown feed, with the nearest name suggested. */
int gp_feed_configs_override(struct gp_feed_configs *cfg, const char *spec);

/* A feed's credentials. Never printed, stored or put into a message. */
struct gp_feed_key {
    bool present;
    char token[4096];   /* bearer/basic key, or SigV4 secret key */
    char user[256];     /* SigV4 access key id */
    char session[4096]; /* SigV4 session token, "" if none */
};

/*
 * Resolve the key of `feed` from its environment variables, else its key file. A key file that
 * group or others can read is refused (GP_EINVALID naming the file and its mode, never its
 * content). No key at all is not an error: key->present is false.
 */
int gp_feed_key_load(struct gp_feed_key *key, const struct gp_feed_config *feed);
/* Overwrite the key material. */
void gp_feed_key_wipe(struct gp_feed_key *key);

#endif
