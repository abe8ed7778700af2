/* A stand-in for libFuzzer's driver: feeds every file named on the command line (or found in a
 * named folder) to LLVMFuzzerTestOneInput once, so the corpus runs in every ctest build. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data;
    long size;

    if (!f) {
        perror(path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc(size > 0 ? (size_t)size : 1);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(data);
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, (size_t)size);
    free(data);
    return 0;
}

static int replay(const char *path, int *count)
{
    struct stat st;
    struct dirent *entry;
    DIR *dir;
    int failures = 0;

    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        (*count)++;
        return replay_file(path);
    }
    dir = opendir(path);
    while (dir && (entry = readdir(dir)) != NULL) {
        char child[4096];
        if (entry->d_name[0] == '.')
            continue;
        snprintf(child, sizeof(child), "%s/%s", path, entry->d_name);
        failures += replay(child, count);
    }
    if (dir)
        closedir(dir);
    return failures;
}

int main(int argc, char **argv)
{
    int failures = 0, count = 0;

    for (int i = 1; i < argc; i++)
        failures += replay(argv[i], &count);
    printf("replayed %d inputs: %d passed, %d failed\n", count, count - failures, failures);
    return failures ? 1 : 0;
}
