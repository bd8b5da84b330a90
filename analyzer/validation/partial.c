/*
 * sparse drops code it cannot type: comparing pointers of different
 * address spaces is an error the analyzer lives with (the file is
 * analyzed), but sparse linearizes the if it is in as nothing, branches
 * and all: lost_branch()'s unlock and return at lines 23-24 are not in
 * the IR.  The file is analyzed in part: bkl analyze says so, and the
 * imbalance found in what is left of lost_branch() is not claimed
 * complete.  whole() lost nothing.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
#define __rcu __attribute__((noderef, address_space(__rcu)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int step(int n);
struct foo { int x; };
extern struct foo __rcu *gp;

int lost_branch(struct foo *p)
{
	lock_kernel();
	if (gp == p) {
		unlock_kernel();
		return -1;
	}
	if (step(1))
		return -2;
	unlock_kernel();
	return 0;
}

int whole(int n)
{
	lock_kernel();
	if (step(n))
		return -1;
	unlock_kernel();
	return 0;
}

/*
 * check-name: partial: sparse dropped code, the file and function say so
 * check-analyze-warning: 'partial.c' analyzed in part (sparse dropped code): partial.c:22:16: error: incompatible types in comparison expression (different address spaces)
 * check-command: sites
 * check-output-start
 * partial.c:21: warning: lock_kernel() in 'lost_branch'
 * partial.c:28: warning: unlock_kernel() in 'lost_branch'
 * partial.c:34: warning: lock_kernel() in 'whole'
 * partial.c:37: warning: unlock_kernel() in 'whole'
 * check-output-end
 * check-command: imbalance
 * check-output-start
 * partial.c:27: warning: return with the BKL held in 'lost_branch' (return-held; partial: sparse dropped some of its code)
 * partial.c:36: warning: return with the BKL held in 'whole' (return-held)
 * check-output-end
 * check-command: imbalance --json
 * check-output-start
 * [
 *   {"file": "partial.c", "line": 27, "function": "lost_branch", "kind": "return-held", "partial": true},
 *   {"file": "partial.c", "line": 36, "function": "whole", "kind": "return-held"}
 * ]
 * check-output-end
 */
