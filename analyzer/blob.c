// SPDX-License-Identifier: GPL-2.0
/*
 * sparse's blob allocator, as bkl links it.
 *
 * libsparse takes all its memory in CHUNK-sized (32 KiB) blobs, one
 * mmap() each, and gives them back with munmap() when it drops a
 * function's allocations.  A kernel .c file costs it about 2,500 blobs
 * and 20,000 page faults: in a VM, where a fault is dear, that was 40%
 * of sparse's time on a file (time(1): 0.17 s system of 0.39 s).
 *
 * Here the blobs are cut from 64 MiB regions that ask for huge pages,
 * and a freed blob is kept for the next allocation instead of being
 * unmapped: about 200 faults a file.  Nothing else about the blobs
 * changes: each is CHUNK bytes, CHUNK-aligned and zeroed, as mmap()
 * gave them.  scripts/setup.sh makes libsparse's own blob_alloc() and
 * blob_free() weak symbols, so these take their place.
 */
#include <string.h>
#include <sys/mman.h>
#include <stdint.h>

#include "analyzer/sparse.h"
#include "compat.h"

#define REGION		(64UL << 20)
#define HUGE_PAGE	(2UL << 20)

static char *region_next, *region_end;
static void *free_blobs;

/* A new region, aligned on a huge page; NULL when there is no memory */
static int new_region(void)
{
	char *p = mmap(NULL, REGION + HUGE_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	p = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
	/* only advice: without THP it is 4 KiB pages, as before */
	madvise(p, REGION, MADV_HUGEPAGE);
	region_next = p;
	region_end = p + REGION;
	return 0;
}

void *blob_alloc(unsigned long size)
{
	void *ptr;

	/* sparse asks for CHUNK bytes only; anything else is its bug */
	if (size != CHUNK)
		sparse_die("internal error: bad allocation size (%lu bytes)", size);
	if (free_blobs) {
		ptr = free_blobs;
		free_blobs = *(void **)ptr;
		memset(ptr, 0, size);
		return ptr;
	}
	if (region_next + size > region_end && new_region())
		return NULL;
	ptr = region_next;
	region_next += size;
	return ptr;
}

void blob_free(void *addr, unsigned long size)
{
	if (size != CHUNK || ((uintptr_t)addr & (CHUNK - 1)))
		sparse_die("internal error: bad blob free (%lu bytes at %p)", size, addr);
	*(void **)addr = free_blobs;
	free_blobs = addr;
}
