/*
 * A static_assert() of a struct's size that sparse evaluates differently
 * from gcc (sparse 0.6.4 and amdgpu's amd_sriov_msg_vf2pf_info "must be
 * 1 KB"): an error of sparse's, not of the file, which is analyzed.
 */
extern void lock_kernel(void) __attribute__((context(kernel_lock, 0, 1)));
extern void unlock_kernel(void) __attribute__((context(kernel_lock, 1, 0)));

struct wrongly_sized {
	unsigned int a;
};

_Static_assert(sizeof(struct wrongly_sized) == 1024, "wrongly_sized must be 1 KB");

void still_analyzed(void)
{
	lock_kernel();
	unlock_kernel();
}

/*
 * check-name: a failed static assertion does not fail the file
 * check-command: sites
 * check-output-start
 * static-assert.c:17: warning: lock_kernel() in 'still_analyzed'
 * static-assert.c:18: warning: unlock_kernel() in 'still_analyzed'
 * check-output-end
 */
