/* Artifacts in files: opened with stdio and POSIX's fstat, read piece by piece as the Python player
 * reads them (player/artifact.py's OnDisk). Built with -DGT_NO_FILES for a target without files:
 * gt_open_file then refuses, and trees open from bytes in memory (gt_open_memory). */
#include "internal.h"

#ifdef GT_NO_FILES

gt_status file_read(void *file, uint64_t offset, size_t size, uint8_t *into)
{
    (void)file, (void)offset, (void)size, (void)into;
    return GT_E_IO;
}

void file_close(void *file) { (void)file; }

gt_status gt_open_file(gt_tree **tree, const char *path, const gt_options *options, gt_error *e)
{
    (void)options;
    if (tree) *tree = NULL;
    return gt_fail(e, GT_E_IO, "%s: this guesstree library was built without files (GT_NO_FILES): open the bytes", path ? path : "");
}

#else
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

gt_status file_read(void *file, uint64_t offset, size_t size, uint8_t *into)
{
    if (fseeko(file, (off_t)offset, SEEK_SET) != 0 || fread(into, 1, size, file) != size) return GT_E_IO;
    return GT_OK;
}

void file_close(void *file)
{
    if (file) fclose(file);
}

static gt_status file_problem(const char *path, gt_error *e)
{
    if (errno == ENOENT) return gt_fail(e, GT_E_IO, "%s: no such file", path);
    if (errno == EACCES) return gt_fail(e, GT_E_IO, "%s: permission denied", path);
    if (errno == EISDIR) return gt_fail(e, GT_E_IO, "%s: is a directory, not an artifact", path);
    return gt_fail(e, GT_E_IO, "%s: cannot read (%s)", path, strerror(errno));
}

gt_status gt_open_file(gt_tree **tree, const char *path, const gt_options *options, gt_error *e)
{
    struct stat found;
    if (!tree || !path) return gt_fail(e, GT_E_ARGUMENT, "gt_open_file: no tree pointer, or no path");
    *tree = NULL;
    FILE *file = fopen(path, "rb");
    if (!file) return file_problem(path, e);
    if (fstat(fileno(file), &found) != 0 || S_ISDIR(found.st_mode)) {
        fclose(file);
        errno = S_ISDIR(found.st_mode) ? EISDIR : errno;
        return file_problem(path, e);
    }
    source src = {NULL, file, (uint64_t)found.st_size};
    if (S_ISREG(found.st_mode)) return open_source(tree, src, path, options, e);
    /* a pipe or a device: its bytes, up to the cap of a whole artifact, held in memory */
    gt_allocator allocator = {system_alloc, system_free, NULL};
    if (options && options->allocator) allocator = *options->allocator;
    uint8_t *held = allocator.alloc(allocator.user, GT_MAX_FILE_BYTES + 1);
    size_t size = held ? fread(held, 1, GT_MAX_FILE_BYTES + 1, file) : 0;
    fclose(file);
    if (!held) return gt_fail(e, GT_E_NO_MEMORY, "%s: no memory to read it", path);
    if (size > GT_MAX_FILE_BYTES) {
        allocator.free(allocator.user, held);
        return gt_fail(e, GT_E_TOO_LARGE, "%s: larger than any artifact this player reads (%u bytes)", path, GT_MAX_FILE_BYTES);
    }
    source memory = {held, NULL, size};
    gt_status status = open_source(tree, memory, path, options, e);
    if (status == GT_OK) (*tree)->held = held;
    else allocator.free(allocator.user, held);
    return status;
}

#endif
