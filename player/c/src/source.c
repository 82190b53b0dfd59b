/* The bytes of an artifact: in memory, or in a file opened with stdio and POSIX's fstat and read piece
 * by piece as the Python player reads them (player/sources.py's OnDisk). Built with -DGT_NO_FILES for
 * a target without files: a file is then refused, and trees open from bytes in memory (gt_open_memory). */
#include <string.h>
#include "internal.h"

#ifdef GT_NO_FILES

static gt_status file_read(void *file, uint64_t offset, size_t size, uint8_t *into)
{
    (void)file, (void)offset, (void)size, (void)into;
    return GT_E_IO;
}

void gti_file_close(void *file) { (void)file; }

gt_status gti_source_open_file(source *src, uint8_t **held, const char *path, gt_allocator allocator, gt_error *e)
{
    (void)src, (void)held, (void)allocator;
    return gti_fail(e, GT_E_IO, "%s: this guesstree library was built without files (GT_NO_FILES): open the bytes", path ? path : "");
}

#else
#include <errno.h>
#include <sys/stat.h>

static gt_status file_read(void *file, uint64_t offset, size_t size, uint8_t *into)
{
    if (fseeko(file, (off_t)offset, SEEK_SET) != 0 || fread(into, 1, size, file) != size) return GT_E_IO;
    return GT_OK;
}

void gti_file_close(void *file)
{
    if (file) fclose(file);
}

static gt_status file_problem(const char *path, gt_error *e)
{
    if (errno == ENOENT) return gti_fail(e, GT_E_IO, "%s: no such file", path);
    if (errno == EACCES) return gti_fail(e, GT_E_IO, "%s: permission denied", path);
    if (errno == EISDIR) return gti_fail(e, GT_E_IO, "%s: is a directory, not an artifact", path);
    return gti_fail(e, GT_E_IO, "%s: cannot read (%s)", path, strerror(errno));
}

gt_status gti_source_open_file(source *src, uint8_t **held, const char *path, gt_allocator allocator, gt_error *e)
{
    struct stat found;
    *held = NULL;
    FILE *file = fopen(path, "rb");
    if (!file) return file_problem(path, e);
    if (fstat(fileno(file), &found) != 0 || S_ISDIR(found.st_mode)) {
        fclose(file);
        errno = S_ISDIR(found.st_mode) ? EISDIR : errno;
        return file_problem(path, e);
    }
    if (S_ISREG(found.st_mode)) {
        source regular = {NULL, file, (uint64_t)found.st_size};
        *src = regular;
        return GT_OK;
    }
    /* a pipe or a device: its bytes, up to the cap of a whole artifact, held in memory */
    uint8_t *bytes = allocator.alloc(allocator.user, GT_MAX_FILE_BYTES + 1);
    size_t size = bytes ? fread(bytes, 1, GT_MAX_FILE_BYTES + 1, file) : 0;
    fclose(file);
    if (!bytes) return gti_fail(e, GT_E_NO_MEMORY, "%s: no memory to read it", path);
    if (size > GT_MAX_FILE_BYTES) {
        allocator.free(allocator.user, bytes);
        return gti_fail(e, GT_E_TOO_LARGE, "%s: larger than any artifact this player reads (%u bytes)", path, GT_MAX_FILE_BYTES);
    }
    source memory = {bytes, NULL, size};
    *src = memory;
    *held = bytes;
    return GT_OK;
}

#endif

gt_status gti_source_read(const source *s, uint64_t offset, size_t size, uint8_t *into)
{
    if (offset > s->size || size > s->size - offset) return GT_E_IO;
    if (s->bytes) {
        memcpy(into, s->bytes + offset, size);
        return GT_OK;
    }
    return file_read(s->file, offset, size, into);
}
