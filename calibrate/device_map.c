/* Device name and memory size to canonical GPU id, by an ordered table of rules. */
#include "calibrate/device_map.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* Rules are tried in order; the first whose words all occur in the name (case-insensitively),
 * whose excluded word does not, and whose memory fits wins. Memory is nominal GiB, matched
 * within -15% / +15% so driver reserves and GB-vs-GiB quoting both pass. */
struct rule {
    const char *words[3]; /* all must occur; NULL-terminated */
    const char *unless;   /* must not occur, or NULL */
    double nominal_gib;   /* memory of the full part */
    const char *id;
};

static const struct rule rules[] = {
    {{"H200", "NVL", NULL}, NULL, 141, "h200-nvl"},
    {{"H200", NULL}, NULL, 141, "h200-sxm"},
    {{"H100", "PCIe", NULL}, NULL, 80, "h100-pcie"},
    {{"H100", NULL}, "NVL", 80, "h100-sxm"},
    /* A Grace-Blackwell GPU reports "GB200"/"GB300", which contain "B200"/"B300": first. It
     * is planned as its rack, the only way it ships. */
    {{"GB200", NULL}, NULL, 186, "gb200-nvl72"},
    {{"GB300", NULL}, NULL, 279, "gb300-nvl72"},
    {{"B200", NULL}, NULL, 180, "b200"},
    {{"B300", NULL}, NULL, 279, "b300"},
    {{"MI300X", NULL}, NULL, 192, "mi300x"},
    {{"MI325X", NULL}, NULL, 256, "mi325x"},
    {{"MI350X", NULL}, NULL, 288, "mi350x"},
    {{"MI355X", NULL}, NULL, 288, "mi355x"},
};

static int contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

const char *gp_calibrate_map_device(const char *name, uint64_t memory_bytes)
{
    double gib = (double)memory_bytes / (1024.0 * 1024.0 * 1024.0);

    for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
        const struct rule *rule = &rules[r];
        int match = 1;
        for (size_t w = 0; w < 3 && rule->words[w]; w++)
            match &= contains(name, rule->words[w]);
        if (!match || (rule->unless && contains(name, rule->unless)))
            continue;
        if (gib < rule->nominal_gib * 0.85 || gib > rule->nominal_gib * 1.15)
            return NULL;
        return rule->id;
    }
    return NULL;
}
