/* Reading data/stacks.json, choosing a vendor's default stack and applying a profile's factors. */
#include "planner/stack.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

static const char *const phase_names[GP_PHASE_COUNT + 1] = {
    "prefill",      "decode",      "attention",   "communication",   "overlap",
    "training_mfu", "sequence_us", "expert_gemm", "memory_fraction", "kv_free_memory_fraction",
    "kv_reserve",   "layer_us",    NULL};
static const char *const stack_keys[] = {"name",    "stack",      "version", "as_of",
                                         "vendors", "claim",      "base",    "source",
                                         "phases",  "production", NULL};
static const char *const claim_keys[] = {"inference", "training", NULL};
static const char *const factor_keys[] = {"factor", "fitted_on", "confidence", NULL};
static const char *const confidences[] = {"high", "medium", "low", NULL};

static bool known_confidence(const char *c)
{
    for (size_t i = 0; confidences[i]; i++)
        if (strcmp(confidences[i], c) == 0)
            return true;
    return false;
}

const char *gp_stack_phase_name(enum gp_stack_phase p)
{
    return (unsigned)p < GP_PHASE_COUNT ? phase_names[p] : "?";
}

/* One phase factor: a number in range, the data it was fitted on, a known confidence. */
static int read_factor(struct gp_json_reader *r, const cJSON *phases, enum gp_stack_phase p,
                       struct gp_stack_factor *f)
{
    const cJSON *obj = NULL;
    bool microseconds = p == GP_PHASE_SEQUENCE_US || p == GP_PHASE_LAYER_US;
    double hi = p == GP_PHASE_TRAINING_MFU ? 2.0 : microseconds ? 1000.0 : 1.0;
    bool zero_ok = p == GP_PHASE_OVERLAP || microseconds || p == GP_PHASE_KV_RESERVE;
    double lo = zero_ok ? 0.0 : 0.01;
    int rc = gp_json_child(r, phases, phase_names[p], false, &obj, GP_JSON_OPTIONAL);

    if (rc || !obj)
        return rc;
    size_t saved = gp_json_enter(r, phase_names[p], 0);
    rc = gp_json_check_keys(r, obj, factor_keys);
    if (!rc)
        rc = gp_json_number(r, obj, "factor", &f->factor, GP_JSON_REQUIRED);
    if (!rc && (f->factor < lo || f->factor > hi || (p == GP_PHASE_OVERLAP && f->factor >= 1)))
        rc = gp_json_fail(r, "factor", "must be between %g and %g", lo, hi);
    if (!rc)
        rc = gp_json_string(r, obj, "fitted_on", f->fitted_on, sizeof(f->fitted_on),
                            GP_JSON_REQUIRED);
    if (!rc && !f->fitted_on[0])
        rc = gp_json_fail(r, "fitted_on", "must say which data the factor was fitted on");
    if (!rc)
        rc = gp_json_string(r, obj, "confidence", f->confidence, sizeof(f->confidence),
                            GP_JSON_REQUIRED);
    if (!rc && !known_confidence(f->confidence))
        rc = gp_json_fail(r, "confidence", "'%s' is not high, medium or low", f->confidence);
    /* A zero overlap, overhead or reservation is a real value, but 0 means "absent"; store the
     * smallest positive value so "covered" stays distinguishable. */
    if (!rc && zero_ok && f->factor == 0)
        f->factor = 1e-9;
    gp_json_leave(r, saved);
    return rc;
}

static int read_vendors(struct gp_json_reader *r, const cJSON *obj, struct gp_stack *s)
{
    const cJSON *list = NULL, *item;
    int rc = gp_json_child(r, obj, "vendors", true, &list, GP_JSON_REQUIRED);
    int idx = 0;

    if (rc)
        return rc;
    size_t outer = gp_json_enter(r, "vendors", 0);
    cJSON_ArrayForEach(item, list)
    {
        const char *v = cJSON_IsString(item) ? item->valuestring : "";
        size_t saved = gp_json_enter(r, NULL, idx++);
        if (strcmp(v, "nvidia") == 0)
            s->vendors[GP_VENDOR_NVIDIA] = true;
        else if (strcmp(v, "amd") == 0)
            s->vendors[GP_VENDOR_AMD] = true;
        else
            rc = gp_json_fail(r, NULL, "'%s' is not nvidia or amd", v);
        gp_json_leave(r, saved);
        if (rc)
            break;
    }
    gp_json_leave(r, outer);
    if (rc)
        return rc;
    if (!s->vendors[GP_VENDOR_NVIDIA] && !s->vendors[GP_VENDOR_AMD])
        return gp_json_fail(r, "vendors", "must name at least one vendor");
    return 0;
}

/* A claim's multipliers: {"inference": X, "training": Y}, each >= 1 where given. */
static int read_claim(struct gp_json_reader *r, const cJSON *obj, struct gp_stack *s)
{
    const cJSON *claim = NULL;
    int rc = gp_json_child(r, obj, "claim", false, &claim, GP_JSON_OPTIONAL);

    s->claim_inference = 1.0;
    s->claim_training = 1.0;
    if (rc || !claim)
        return rc;
    s->claim = true;
    size_t saved = gp_json_enter(r, "claim", 0);
    rc = gp_json_check_keys(r, claim, claim_keys);
    if (!rc)
        rc = gp_json_number(r, claim, "inference", &s->claim_inference, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, claim, "training", &s->claim_training, GP_JSON_OPTIONAL);
    if (!rc && (!(s->claim_inference >= 1 && s->claim_inference <= 100) ||
                !(s->claim_training >= 1 && s->claim_training <= 100)))
        rc = gp_json_fail(r, NULL, "multipliers must be between 1 and 100");
    gp_json_leave(r, saved);
    return rc;
}

static int read_phases(struct gp_json_reader *r, const cJSON *obj, struct gp_stack *s)
{
    const cJSON *phases = NULL;
    int rc = gp_json_child(r, obj, "phases", false, &phases, s->claim ? GP_JSON_OPTIONAL : 0);

    if (rc || !phases)
        return rc;
    if (s->claim)
        return gp_json_fail(r, "phases", "a claim takes its factors from its base profile");
    size_t saved = gp_json_enter(r, "phases", 0);
    rc = gp_json_check_keys(r, phases, phase_names);
    for (int p = 0; !rc && p < GP_PHASE_COUNT; p++)
        rc = read_factor(r, phases, (enum gp_stack_phase)p, &s->phase[p]);
    if (!rc && !gp_stack_serves(s, true) && !gp_stack_serves(s, false))
        rc = gp_json_fail(r, NULL, "needs prefill and decode (serving) or training_mfu factors");
    gp_json_leave(r, saved);
    return rc;
}

/* A YYYY-MM-DD date (digits and dashes in place; the calendar is not checked further). */
static bool is_date(const char *d)
{
    if (strlen(d) != 10 || d[4] != '-' || d[7] != '-')
        return false;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (d[i] < '0' || d[i] > '9'))
            return false;
    return true;
}

/* The base of a claim: an earlier measured profile sharing a vendor. */
static int check_base(struct gp_json_reader *r, const struct gp_stack *all, size_t index)
{
    const struct gp_stack *s = &all[index];

    if (!s->claim)
        return s->base[0] ? gp_json_fail(r, "base", "only a claim has a base") : 0;
    for (size_t k = 0; k < index; k++) {
        const struct gp_stack *b = &all[k];
        if (strcmp(b->name, s->base))
            continue;
        if (b->claim)
            return gp_json_fail(r, "base", "'%s' is a claim itself", s->base);
        return 0;
    }
    return gp_json_fail(r, "base", "'%s' is not a measured profile listed before this claim",
                        s->base);
}

static int read_stack(struct gp_json_reader *r, const cJSON *item, void *items, size_t index,
                      const void *ctx)
{
    struct gp_stack *all = items, *s = &all[index];
    int rc = 0;

    (void)ctx;
    if (!cJSON_IsObject(item))
        return gp_json_fail(r, NULL, "must be an object");
    rc = gp_json_check_keys(r, item, stack_keys);
    if (!rc)
        rc = gp_json_string(r, item, "name", s->name, sizeof(s->name), GP_JSON_REQUIRED);
    for (size_t k = 0; !rc && k < index; k++)
        if (strcmp(all[k].name, s->name) == 0)
            rc = gp_json_fail(r, "name", "duplicate profile '%s'", s->name);
    if (!rc && !s->name[0])
        rc = gp_json_fail(r, "name", "must not be empty");
    if (!rc)
        rc = gp_json_string(r, item, "stack", s->stack, sizeof(s->stack), GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_string(r, item, "version", s->version, sizeof(s->version), GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_string(r, item, "as_of", s->as_of, sizeof(s->as_of), GP_JSON_REQUIRED);
    if (!rc && !is_date(s->as_of))
        rc = gp_json_fail(r, "as_of", "'%s' is not a YYYY-MM-DD date", s->as_of);
    if (!rc)
        rc = gp_json_string(r, item, "source", s->source, sizeof(s->source), GP_JSON_REQUIRED);
    if (!rc)
        rc = read_vendors(r, item, s);
    if (!rc)
        rc = gp_json_bool(r, item, "production", &s->production, GP_JSON_OPTIONAL);
    if (!rc && s->production && s->claim)
        rc = gp_json_fail(r, "production", "a vendor claim is never the production profile");
    if (!rc)
        rc = read_claim(r, item, s);
    if (!rc)
        rc = gp_json_string(r, item, "base", s->base, sizeof(s->base), GP_JSON_OPTIONAL);
    if (!rc && s->claim && !s->base[0])
        rc = gp_json_fail(r, "base", "a claim needs the measured profile it is relative to");
    if (!rc)
        rc = check_base(r, all, index);
    if (!rc)
        rc = read_phases(r, item, s);
    return rc;
}

int gp_stack_table_parse(struct gp_stack_table *out, const char *text, size_t len,
                         const char *origin)
{
    static const char *const top_keys[] = {"schema_version", "notes", "stacks", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    void *stacks = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse_versioned(&root, &r, top_keys, 1);
    if (!rc) {
        rc = gp_json_read_list(&stacks, &out->count, &r, root, "stacks", sizeof(*out->stacks),
                               read_stack, NULL);
        out->stacks = stacks;
    }
    if (!rc && out->count == 0)
        rc = gp_json_fail(&r, "stacks", "must list at least one profile");
    cJSON_Delete(root);
    if (rc)
        gp_stack_table_release(out);
    return rc;
}

void gp_stack_table_release(struct gp_stack_table *table)
{
    if (!table)
        return;
    free(table->stacks);
    table->stacks = NULL;
    table->count = 0;
}

const struct gp_stack *gp_stack_find(const struct gp_stack_table *table, const char *name)
{
    for (size_t i = 0; i < table->count; i++)
        if (strcmp(table->stacks[i].name, name) == 0)
            return &table->stacks[i];
    return NULL;
}

/* The measured profile whose factors `s` uses: itself, or a claim's base. */
static const struct gp_stack *factors_of(const struct gp_stack_table *table,
                                         const struct gp_stack *s)
{
    const struct gp_stack *b = s->claim ? gp_stack_find(table, s->base) : s;
    return b ? b : s;
}

bool gp_stack_serves(const struct gp_stack *s, bool inference)
{
    if (s->claim)
        return inference ? s->claim_inference > 1 : s->claim_training > 1;
    if (inference)
        return s->phase[GP_PHASE_PREFILL].factor > 0 && s->phase[GP_PHASE_DECODE].factor > 0;
    return s->phase[GP_PHASE_TRAINING_MFU].factor > 0;
}

const struct gp_stack *gp_stack_default(const struct gp_stack_table *table, enum gp_vendor vendor,
                                        bool inference)
{
    const struct gp_stack *best = NULL;

    for (size_t i = 0; i < table->count; i++) {
        const struct gp_stack *s = &table->stacks[i];
        if (s->claim || !s->vendors[vendor] || !gp_stack_serves(s, inference))
            continue;
        /* a production profile beats any other; the newest wins among equals */
        if (!best || (s->production && !best->production) ||
            (s->production == best->production && strcmp(s->as_of, best->as_of) > 0))
            best = s;
    }
    return best;
}

void gp_stack_apply(struct gp_efficiency *eff, const struct gp_stack_table *table,
                    const struct gp_stack *s)
{
    const struct gp_stack *f = factors_of(table, s);
    const struct gp_stack_factor *ph = f->phase;

    if (ph[GP_PHASE_PREFILL].factor > 0)
        eff->serve_compute = ph[GP_PHASE_PREFILL].factor;
    if (ph[GP_PHASE_DECODE].factor > 0)
        eff->serve_memory = ph[GP_PHASE_DECODE].factor;
    if (ph[GP_PHASE_ATTENTION].factor > 0)
        eff->serve_attention = ph[GP_PHASE_ATTENTION].factor;
    else if (ph[GP_PHASE_PREFILL].factor > 0)
        eff->serve_attention = ph[GP_PHASE_PREFILL].factor;
    if (ph[GP_PHASE_COMMUNICATION].factor > 0)
        eff->net_efficiency = ph[GP_PHASE_COMMUNICATION].factor;
    if (ph[GP_PHASE_OVERLAP].factor > 0)
        eff->dp_overlap = ph[GP_PHASE_OVERLAP].factor;
    if (ph[GP_PHASE_SEQUENCE_US].factor > 0)
        eff->sequence_overhead_s = ph[GP_PHASE_SEQUENCE_US].factor * 1e-6;
    if (ph[GP_PHASE_LAYER_US].factor > 0)
        eff->layer_overhead_s = ph[GP_PHASE_LAYER_US].factor * 1e-6;
    if (ph[GP_PHASE_TRAINING_MFU].factor > 0)
        eff->mfu *= ph[GP_PHASE_TRAINING_MFU].factor;
    if (ph[GP_PHASE_EXPERT_GEMM].factor > 0)
        eff->expert_gemm = ph[GP_PHASE_EXPERT_GEMM].factor;
    if (ph[GP_PHASE_MEMORY_FRACTION].factor > 0)
        eff->memory_fraction = ph[GP_PHASE_MEMORY_FRACTION].factor;
    if (ph[GP_PHASE_KV_FREE_FRACTION].factor > 0)
        eff->kv_free_fraction = ph[GP_PHASE_KV_FREE_FRACTION].factor;
    if (ph[GP_PHASE_KV_RESERVE].factor > 0)
        eff->kv_reserve = ph[GP_PHASE_KV_RESERVE].factor;
    eff->claim_inference = s->claim ? s->claim_inference : 1.0;
    eff->claim_training = s->claim ? s->claim_training : 1.0;
    eff->vendor_claim = s->claim;
    gp_text_copy(eff->stack, sizeof(eff->stack), s->name);
}

static int parse_stacks_file(void *out, const char *text, size_t len, const char *origin)
{
    return gp_stack_table_parse(out, text, len, origin);
}

const struct gp_data_table gp_stack_file = {"stacks.json", parse_stacks_file,
                                            GP_DATA_LAYOUT(struct gp_stack_table, stacks, count)};
