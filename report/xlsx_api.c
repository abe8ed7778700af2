/* Loading libxlsxwriter when the first workbook is written. */
#include "report/xlsx_api.h"

#include <stdbool.h>

#include "util/dynlib.h"

#define GP_XLSX_NAME(ret, name, params) #name,
static const char *const symbols[] = {GP_XLSX_FUNCTIONS(GP_XLSX_NAME)};
#undef GP_XLSX_NAME

/* The table is filled as an array of functions: one member per name, nothing else in it. */
_Static_assert(sizeof(struct gp_xlsx_api) ==
                   sizeof(symbols) / sizeof(symbols[0]) * sizeof(gp_dynlib_fn),
               "one symbol name per libxlsxwriter function");

static union {
    struct gp_xlsx_api api;
    gp_dynlib_fn fns[sizeof(symbols) / sizeof(symbols[0])];
} loaded;
static bool ready;

const struct gp_xlsx_api *gp_xlsx_api(void)
{
    static const char *const sonames[] = {"libxlsxwriter.so.4", "libxlsxwriter.so", NULL};

    if (!ready && gp_dynlib_load("libxlsxwriter", sonames, symbols,
                                 sizeof(symbols) / sizeof(symbols[0]), loaded.fns) == 0)
        ready = true;
    return ready ? &loaded.api : NULL;
}
