/* A stand-in for gpuplan in the test of the allocation fault runner itself: it allocates two
 * blocks and prints "ok"; when the second allocation fails it exits 1 with an error message,
 * and with the argument "leak" that error path forgets the first block, as a bug would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int leak = argc > 1 && strcmp(argv[1], "leak") == 0;
    char *first = malloc(32), *second = NULL;

    if (!first) {
        fputs("gpuplan: error: out of memory\n", stderr);
        return 1;
    }
    second = malloc(32);
    if (!second) {
        fputs("gpuplan: error: out of memory\n", stderr);
        if (!leak)
            free(first);
        return 1;
    }
    puts("ok");
    free(second);
    free(first);
    return 0;
}
